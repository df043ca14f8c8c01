/* kg view page: draws the graph embedded in #kg-data with vis-network.
 *
 * Untrusted text (names, abstracts) only ever reaches the page through
 * textContent, vis-network's string titles (set with innerText) or the
 * canvas (fillText), never as HTML. Positions come from the data; physics
 * stays off.
 *
 * Labels are drawn by this script, not by vis-network: biggest nodes first,
 * each below, above, right or left of its node where it overlaps no label
 * already drawn (the rest appear as you zoom in; the ten biggest try further
 * out too); kg.labels() returns the boxes of the labels drawn last.
 * Filters (legend, track, minimum papers, scope) lay out what they show
 * again: each connected part keeps its shape (a small one becomes a circle)
 * and the parts are packed in rows to the canvas's proportions; on a map
 * whose clusters have regions (controls.regions) the shown nodes keep their
 * places. A track filter sizes nodes by their papers in the track and the
 * panel lists those only; so does a node's "Only its papers" button on those
 * maps (its papers are the scope; Reset clears it). The density switch (controls.density) draws a heat
 * layer of the shown nodes weighted by papers (kg.density()).
 */
(function () {
  "use strict";
  var started = performance.now();
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var relations = data.relations || {};
  var controls = data.controls || {};
  var papers = data.papers || [];
  var nodeList = data.nodes;
  var edgeList = data.edges;
  var byId = new Map();
  var home = new Map();
  nodeList.forEach(function (n) {
    byId.set(n.id, n);
    home.set(n.id, [n.x, n.y]);
    n.text = n.label === undefined ? "" : String(n.label);
    delete n.label;  // vis-network draws no label: drawLabels() does
  });
  var adjacency = new Map();
  nodeList.forEach(function (n) { adjacency.set(n.id, []); });

  function nameOf(id) {
    var n = byId.get(id);
    return n ? String(n.name || n.text || n.id) : String(id);
  }

  function edgeColour(e, opacity) {
    var r = relations[e.relation];
    var base = r ? r[0] : "#bbbbbb";
    return {color: base, highlight: "#333333", hover: "#555555", opacity: opacity};
  }

  edgeList.forEach(function (e, i) {
    if (e.id === undefined) { e.id = i; }
    adjacency.get(e.from).push(e.to);
    adjacency.get(e.to).push(e.from);
    var r = relations[e.relation];
    e.color = edgeColour(e, 1);
    if (r && r[2]) { e.dashes = true; }
    var a = nameOf(e.from), b = nameOf(e.to);
    if (e.relation === "coauthor" || e.relation === "comention" || e.relation === "association") {
      e.title = a + " – " + b + "\n" + (e.n || 1) + " " + (r ? r[1] : "") +
        (e.s !== undefined ? "\nassociation strength " + e.s : "");
    } else if (r) {
      e.title = a + "\n" + r[1] + (e.n ? " (" + e.n + "×)" : "") + "\n" + b;
    }
  });

  var groupLabel = {};
  (data.legend || []).forEach(function (g) { groupLabel[g.group] = g.label; });

  // ---------------------------------------------------------------- filters
  var hiddenGroups = new Set();
  (data.legend || []).forEach(function (g) { if (g.shown === false) { hiddenGroups.add(g.group); } });
  var trackFilter = -1;
  var conceptScope = null, conceptName = "";  // the papers of a node picked with "Only its papers"
  var minPapers = controls.min ? controls.min.value : 0;
  var scopeTop = !!controls.scope;

  function passes(n) {  // every filter but the legend's boxes
    if (n.o !== undefined && n.o < minPapers) { return false; }
    if (scopeTop && !n.top) { return false; }
    if (conceptScope !== null && n.p && !n.p.some(inScope)) { return false; }
    return trackFilter < 0 || (n.t !== undefined && n.t.indexOf(trackFilter) >= 0);
  }

  function visible(n) { return !hiddenGroups.has(n.group) && passes(n); }

  // the legend's counts: of each group's nodes, those the other filters let
  // through ("12 of 85" when that is not all of them)
  function legendCounts() {
    var shown = {}, total = {};
    nodeList.forEach(function (n) {
      total[n.group] = (total[n.group] || 0) + 1;
      if (passes(n)) { shown[n.group] = (shown[n.group] || 0) + 1; }
    });
    document.querySelectorAll("#kg-legend input[data-group]").forEach(function (box) {
      var cell = box.parentNode.querySelector(".kg-count");
      var t = total[box.dataset.group] || 0, s = shown[box.dataset.group] || 0;
      if (cell) {
        cell.textContent = s === t ? t.toLocaleString("en")
          : s.toLocaleString("en") + " of " + t.toLocaleString("en");
      }
    });
  }

  // vis-network gets only the edges between shown nodes: on a big page
  // that starts filtered it then builds a few thousand edges, not all
  var shownSet = new Set();
  function computeShown() {
    shownSet = new Set();
    nodeList.forEach(function (n) { if (visible(n)) { shownSet.add(n.id); } });
  }
  computeShown();
  var nodes = new vis.DataSet(nodeList);
  var edges = new vis.DataSet(edgeList);
  var nodeView = new vis.DataView(nodes, {filter: function (n) { return shownSet.has(n.id); }});
  var densityOn = false;
  var edgeView = new vis.DataView(edges, {filter: function (e) {
    return !densityOn && shownSet.has(e.from) && shownSet.has(e.to);
  }});
  var container = document.getElementById("kg-network");
  var network = new vis.Network(container, {nodes: nodeView, edges: edgeView}, data.options || {});
  var scaling = ((data.options || {}).nodes || {}).scaling || {min: 6, max: 24};

  var status = document.getElementById("kg-status");
  function say(text) { if (status) { status.textContent = text; } }

  function hideTooltip() {
    var ih = network.interactionHandler;
    if (ih && ih.popup) { ih.popup.hide(); ih.popupObj = undefined; }
    document.querySelectorAll("div.vis-tooltip").forEach(function (t) { t.style.visibility = "hidden"; });
  }

  // ------------------------------------------------------------- re-layout
  var GAP = 54, MAX_FIT = 1.5;

  function fitShown() { network.fit({animation: false, maxZoomLevel: MAX_FIT}); }

  function circle(ids) {
    ids.sort(function (a, b) { return adjacency.get(b).length - adjacency.get(a).length || a - b; });
    var n = ids.length, r = Math.max(27, 36 * n / (2 * Math.PI)), out = [];
    for (var i = 0; i < n; i++) {
      var t = Math.PI / 2 - 2 * Math.PI * i / n;
      out.push([r * Math.cos(t), r * Math.sin(t)]);
    }
    return out;
  }

  // Fruchterman-Reingold from the precomputed positions (so the same
  // filter always gives the same picture), for a part of up to FR_MAX nodes
  var FR_MAX = 500, FR_ITER = 60, EDGE = 108;

  function forceLayout(comp) {
    var n = comp.length, at = new Map();
    comp.forEach(function (id, i) { at.set(id, i); });
    var x = new Float64Array(n), y = new Float64Array(n);
    comp.forEach(function (id, i) { var h = home.get(id); x[i] = h[0]; y[i] = h[1]; });
    var links = [];
    comp.forEach(function (id, i) {
      adjacency.get(id).forEach(function (m) { var j = at.get(m); if (j !== undefined && j > i) { links.push([i, j]); } });
    });
    var k = EDGE, k2 = k * k, temp = k * Math.sqrt(n) / 2;
    var dx = new Float64Array(n), dy = new Float64Array(n);
    for (var it = 0; it < FR_ITER; it++) {
      dx.fill(0); dy.fill(0);
      for (var i = 0; i < n; i++) {
        for (var j = i + 1; j < n; j++) {
          var ex = x[i] - x[j], ey = y[i] - y[j], d2 = ex * ex + ey * ey + 0.01;
          var f = k2 / d2;
          dx[i] += ex * f; dy[i] += ey * f; dx[j] -= ex * f; dy[j] -= ey * f;
        }
      }
      links.forEach(function (l) {
        var ex = x[l[0]] - x[l[1]], ey = y[l[0]] - y[l[1]], d = Math.sqrt(ex * ex + ey * ey) + 0.01;
        var f = d / k;
        dx[l[0]] -= ex * f; dy[l[0]] -= ey * f; dx[l[1]] += ex * f; dy[l[1]] += ey * f;
      });
      for (i = 0; i < n; i++) {
        var len = Math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]) + 0.01;
        var step = Math.min(len, temp);
        x[i] += dx[i] / len * step; y[i] += dy[i] / len * step;
      }
      temp *= 0.93;
    }
    var cx = 0, cy = 0;
    for (i = 0; i < n; i++) { cx += x[i]; cy += y[i]; }
    cx /= n; cy /= n;
    return comp.map(function (id, i) { return [x[i] - cx, y[i] - cy]; });
  }

  function relayout() {
    var ids = nodeView.getIds();
    if (ids.length === nodes.length) {  // everything shown: the precomputed layout
      nodes.update(nodeList.map(function (n) { var h = home.get(n.id); return {id: n.id, x: h[0], y: h[1]}; }));
      return;
    }
    var aspect = Math.max(0.3, (container.clientWidth || 4) / (container.clientHeight || 3));
    var update = controls.regions ? ids.map(function (id) {  // clusters keep their regions
      var h = home.get(id);
      return {id: id, x: h[0], y: h[1]};
    }) : packParts(ids, aspect);
    fitCanvas(update, aspect);
    nodes.update(update);
  }

  // each connected part laid out again (its shape kept, a small one a circle),
  // the parts packed in rows to the canvas's proportions
  function packParts(ids, aspect) {
    var shown = new Set(ids), seen = new Set(), parts = [];
    ids.sort(function (a, b) { return a - b; });
    ids.forEach(function (id) {
      if (seen.has(id)) { return; }
      var comp = [id], k = 0;
      seen.add(id);
      while (k < comp.length) {
        adjacency.get(comp[k++]).forEach(function (m) {
          if (shown.has(m) && !seen.has(m)) { seen.add(m); comp.push(m); }
        });
      }
      var xy;
      if (comp.length === 1) { xy = [[0, 0]]; }
      else if (comp.length <= 12) { xy = circle(comp); }
      else if (comp.length <= FR_MAX) { xy = forceLayout(comp); }
      else {
        var cx = 0, cy = 0;
        comp.forEach(function (m) { var h = home.get(m); cx += h[0]; cy += h[1]; });
        cx /= comp.length; cy /= comp.length;
        xy = comp.map(function (m) { var h = home.get(m); return [h[0] - cx, h[1] - cy]; });
      }
      var r = 0;
      xy.forEach(function (p) { r = Math.max(r, Math.sqrt(p[0] * p[0] + p[1] * p[1])); });
      parts.push({ids: comp, xy: xy, cell: 2 * r + GAP});
    });
    parts.sort(function (a, b) { return b.ids.length - a.ids.length || a.ids[0] - b.ids[0]; });
    var area = 0, widest = 0;
    parts.forEach(function (p) { area += p.cell * p.cell; widest = Math.max(widest, p.cell); });
    var width = Math.max(widest, Math.sqrt(area * aspect) * 1.05);
    var update = [], x = 0, y = 0, rowH = 0;
    parts.forEach(function (p) {
      if (x > 0 && x + p.cell > width) { y += rowH; x = 0; rowH = 0; }
      var cx = x + p.cell / 2, cy = y + p.cell / 2;
      p.ids.forEach(function (id, i) {
        update.push({id: id, x: cx + p.xy[i][0], y: cy + p.xy[i][1]});
      });
      x += p.cell;
      rowH = Math.max(rowH, p.cell);
    });
    return update;
  }

  function fitCanvas(update, aspect) {
    // the drawing takes the canvas's proportions (stretched by at most 2 one
    // way), and a few nodes spread out to fill it at a zoom of at most MAX_FIT
    var x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    update.forEach(function (u) {
      x0 = Math.min(x0, u.x); x1 = Math.max(x1, u.x); y0 = Math.min(y0, u.y); y1 = Math.max(y1, u.y);
    });
    var bw = Math.max(x1 - x0, 1), bh = Math.max(y1 - y0, 1);
    var sx = 1, sy = 1, want = aspect / (bw / bh);
    if (want > 1) { sx = Math.min(want, 2); } else { sy = Math.min(1 / want, 2); }
    var W = container.clientWidth || 800, H = container.clientHeight || 600;
    var stretch = Math.max(1, Math.min(W / (bw * sx * MAX_FIT), H / (bh * sy * MAX_FIT)));
    update.forEach(function (u) {
      u.x = Math.round((u.x - x0) * sx * stretch);
      u.y = Math.round((u.y - y0) * sy * stretch);
    });
  }

  // ---------------------------------------------------------------- labels
  var MAX_LABELS = 250, MAX_TRIED = 4000, CELL = 96, KEEP_LABELS = 10;
  var order = [], vmin = 0, vmax = 1, lastLabels = [];
  var measure = document.createElement("canvas").getContext("2d");
  var widthAt10 = new Map();

  function labelOrder() {
    order = nodeView.getIds().map(function (id) { return byId.get(id); })
      .filter(function (n) { return n.text; });
    order.sort(function (a, b) { return (b.value || 0) - (a.value || 0) || a.id - b.id; });
    var vals = nodeView.getIds().map(function (id) { return byId.get(id).value || 0; });
    vmin = vals.length ? Math.min.apply(null, vals) : 0;
    vmax = vals.length ? Math.max.apply(null, vals) : 1;
  }

  function textWidth(n, size) {
    var w = widthAt10.get(n.id);
    if (w === undefined) {
      measure.font = "10px system-ui, sans-serif";
      w = measure.measureText(n.text).width;
      widthAt10.set(n.id, w);
    }
    return w * size / 10;
  }

  function clashes(grid, bx, by, w, h) {
    var x0 = Math.floor(bx / CELL), x1 = Math.floor((bx + w) / CELL);
    var y0 = Math.floor(by / CELL), y1 = Math.floor((by + h) / CELL);
    for (var gx = x0; gx <= x1; gx++) {
      for (var gy = y0; gy <= y1; gy++) {
        var cell = grid.get(gx + "," + gy);
        if (!cell) { continue; }
        for (var c = 0; c < cell.length; c++) {
          var o = cell[c];
          if (bx < o.x + o.w && o.x < bx + w && by < o.y + o.h && o.y < by + h) { return true; }
        }
      }
    }
    return false;
  }

  function drawLabels(ctx) {
    var scale = network.getScale();
    var W = container.clientWidth, H = container.clientHeight;
    var grid = new Map(), placed = [], span = vmax - vmin || 1;
    var ratio = (network.canvas && network.canvas.pixelRatio) || window.devicePixelRatio || 1;
    ctx.save();
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.lineJoin = "round";
    var tried = 0;
    // canvas -> page pixels is x * scale + offset: two probes give it
    var o0 = network.canvasToDOM({x: 0, y: 0}), o1 = network.canvasToDOM({x: 1, y: 1});
    var sx = o1.x - o0.x, sy = o1.y - o0.y;
    var bodyNodes = network.body.nodes;  // vis-network's drawn nodes (positions), by id
    for (var i = 0; i < order.length && placed.length < MAX_LABELS && tried < MAX_TRIED; i++) {
      var n = order[i];
      var live = nodes.get(n.id);
      if (dimmed && live.opacity !== undefined && live.opacity < 1) { continue; }
      var body = bodyNodes[n.id];
      if (!body) { continue; }
      var d = {x: o0.x + body.x * sx, y: o0.y + body.y * sy};
      if (d.x < -50 || d.y < -50 || d.x > W + 50 || d.y > H + 50) { continue; }
      tried++;
      var rel = Math.sqrt(((n.value || 0) - vmin) / span);
      var size = Math.round(11 + 6 * rel);
      var radius = (scaling.min + (scaling.max - scaling.min) * ((n.value || 0) - vmin) / span) * scale;
      var w = textWidth(n, size) + 4, h = size + 3;
      // below the node, else above, right, left; the biggest nodes' labels
      // are moved inside the canvas rather than dropped at its edge
      var spots = [[d.x - w / 2, d.y + radius + 1], [d.x - w / 2, d.y - radius - 1 - h],
                   [d.x + radius + 2, d.y - h / 2], [d.x - radius - 2 - w, d.y - h / 2]];
      if (i < KEEP_LABELS) {  // one of the biggest: a line further out if need be
        for (var k = 1; k <= 3; k++) {
          spots.push([d.x - w / 2, d.y + radius + 1 + k * h], [d.x - w / 2, d.y - radius - 1 - (k + 1) * h]);
        }
      }
      var box = null;
      for (var s = 0; s < spots.length && box === null; s++) {
        var bx = spots[s][0], by = spots[s][1];
        if (i < KEEP_LABELS) {
          bx = Math.min(Math.max(bx, 0), W - w);
          by = Math.min(Math.max(by, 0), H - h);
        }
        if (bx < 0 || by < 0 || bx + w > W || by + h > H) { continue; }
        if (!clashes(grid, bx, by, w, h)) { box = {x: bx, y: by, w: w, h: h}; }
      }
      if (box === null) { continue; }
      var x0 = Math.floor(box.x / CELL), x1 = Math.floor((box.x + w) / CELL);
      var y0 = Math.floor(box.y / CELL), y1 = Math.floor((box.y + h) / CELL);
      for (var gx = x0; gx <= x1; gx++) {
        for (var gy = y0; gy <= y1; gy++) {
          var key = gx + "," + gy;
          if (!grid.has(key)) { grid.set(key, []); }
          grid.get(key).push(box);
        }
      }
      placed.push({id: n.id, text: n.text, x: box.x, y: box.y, w: w, h: h});
      ctx.font = size + "px system-ui, sans-serif";
      ctx.lineWidth = 3;
      ctx.strokeStyle = "rgba(255,255,255,0.9)";
      ctx.strokeText(n.text, box.x + w / 2, box.y + 1);
      ctx.fillStyle = "#222222";
      ctx.fillText(n.text, box.x + w / 2, box.y + 1);
    }
    ctx.restore();
    lastLabels = placed;
  }
  network.on("afterDrawing", drawLabels);

  // --------------------------------------------------------------- density
  // VOSviewer's density view: a Gaussian kernel at each shown node weighted by
  // its papers, summed on a grid over the drawing (in canvas coordinates, so
  // it pans and zooms with the graph) and coloured from blue (few) through
  // green to yellow (many); computed again when the filters lay out again
  var heat = null, GRID = 240;

  function densityColour(t) {  // t in [0, 1] -> [r, g, b, alpha]
    var stops = [[0, [68, 1, 84]], [0.35, [49, 104, 142]], [0.6, [53, 183, 121]],
                 [0.85, [180, 222, 44]], [1, [253, 231, 37]]];
    for (var i = 1; i < stops.length; i++) {
      if (t <= stops[i][0]) {
        var a = stops[i - 1], b = stops[i], f = (t - a[0]) / (b[0] - a[0]);
        return [0, 1, 2].map(function (c) { return Math.round(a[1][c] + f * (b[1][c] - a[1][c])); })
          .concat([Math.round(255 * Math.min(1, t * 2.2))]);
      }
    }
    return [253, 231, 37, 255];
  }

  function computeDensity() {
    var ids = nodeView.getIds();
    if (!ids.length) { heat = null; return; }
    var pos = network.getPositions(ids);
    var x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    ids.forEach(function (id) {
      var p = pos[id];
      x0 = Math.min(x0, p.x); x1 = Math.max(x1, p.x); y0 = Math.min(y0, p.y); y1 = Math.max(y1, p.y);
    });
    var span = Math.max(x1 - x0, y1 - y0, 100), sigma = span / 28, pad = 3 * sigma;
    x0 -= pad; y0 -= pad; x1 += pad; y1 += pad;
    var cell = Math.max(x1 - x0, y1 - y0) / GRID;
    var gw = Math.ceil((x1 - x0) / cell) + 1, gh = Math.ceil((y1 - y0) / cell) + 1;
    var grid = new Float64Array(gw * gh), reach = Math.ceil(pad / cell), s2 = 2 * (sigma / cell) * (sigma / cell);
    var kernel = [];
    for (var k = -reach; k <= reach; k++) { kernel.push(k); }
    ids.forEach(function (id) {
      var p = pos[id], w = byId.get(id).value || 1;
      var cx = (p.x - x0) / cell, cy = (p.y - y0) / cell;
      var gx0 = Math.max(0, Math.floor(cx) - reach), gx1 = Math.min(gw - 1, Math.floor(cx) + reach);
      var gy0 = Math.max(0, Math.floor(cy) - reach), gy1 = Math.min(gh - 1, Math.floor(cy) + reach);
      for (var gy = gy0; gy <= gy1; gy++) {
        var dy = gy - cy, row = gy * gw;
        for (var gx = gx0; gx <= gx1; gx++) {
          var dx = gx - cx;
          grid[row + gx] += w * Math.exp(-(dx * dx + dy * dy) / s2);
        }
      }
    });
    var top = 0;
    for (var i = 0; i < grid.length; i++) { top = Math.max(top, grid[i]); }
    var off = document.createElement("canvas");
    off.width = gw; off.height = gh;
    var octx = off.getContext("2d"), img = octx.createImageData(gw, gh);
    for (i = 0; i < grid.length; i++) {
      var c = densityColour(top > 0 ? Math.sqrt(grid[i] / top) : 0);
      img.data[4 * i] = c[0]; img.data[4 * i + 1] = c[1]; img.data[4 * i + 2] = c[2]; img.data[4 * i + 3] = c[3];
    }
    octx.putImageData(img, 0, 0);
    heat = {canvas: off, x: x0 - cell / 2, y: y0 - cell / 2, w: gw * cell, h: gh * cell, top: top};
  }

  network.on("beforeDrawing", function (ctx) {
    if (!densityOn || heat === null) { return; }
    ctx.save();
    ctx.imageSmoothingEnabled = true;
    ctx.drawImage(heat.canvas, heat.x, heat.y, heat.w, heat.h);
    ctx.restore();
  });

  function setDensity(on) {
    densityOn = !!on;
    edgeView.refresh();
    if (densityOn) { computeDensity(); }
    network.redraw();
  }
  var densityBox = document.getElementById("kg-density");
  if (densityBox) {
    densityBox.addEventListener("change", function () { setDensity(densityBox.checked); });
  }

  // ---------------------------------------------------------------- scoping
  // a track filter counts each node's papers in the track: sizes, labels'
  // order and the panel's paper list follow the track, not the conference
  var fullValue = new Map();
  nodeList.forEach(function (n) { fullValue.set(n.id, n.value); });

  function inScope(i) {
    if (conceptScope !== null && !conceptScope.has(i)) { return false; }
    var row = papers[i];
    return trackFilter < 0 || row === undefined || row[2] === undefined || row[2].indexOf(trackFilter) >= 0;
  }

  function scoping() {
    return conceptScope !== null || (trackFilter >= 0 && papers.length > 0 && papers[0][2] !== undefined);
  }

  function scopeLabel() {
    var parts = [];
    if (trackFilter >= 0) { parts.push("in " + data.tracks[trackFilter]); }
    if (conceptScope !== null) { parts.push("with " + conceptName); }
    return parts.join(" ");
  }

  function scopeTo(id) {
    var n = byId.get(id);
    conceptScope = new Set(n.p || []);
    conceptName = String(n.name || n.text);
    refreshFilter();  // (its status line says what the scope is)
    select(id);
  }

  function scopedPapers(n) {
    return (n.p || []).filter(inScope);
  }

  function rescope() {
    var update = [];
    nodeList.forEach(function (n) {
      if (!n.p) { return; }
      var v = scoping() ? Math.max(1, scopedPapers(n).length) : fullValue.get(n.id);
      if (v !== n.value) { n.value = v; update.push({id: n.id, value: v}); }
    });
    if (update.length) { nodes.update(update); }
  }

  // ----------------------------------------------------- applying filters
  function refreshFilter() {
    clearHighlight();
    hideTooltip();
    rescope();
    computeShown();
    nodeView.refresh();
    edgeView.refresh();
    relayout();
    labelOrder();
    if (densityOn) { computeDensity(); }
    fitShown();
    legendCounts();
    var shown = nodeView.length;
    say((shown === nodes.length ? "" : "showing " + shown.toLocaleString("en") + " of " +
        nodes.length.toLocaleString("en") + " nodes") +
        (conceptScope !== null ? "; papers with " + conceptName + " only (Reset clears it)" : ""));
  }

  document.querySelectorAll("#kg-legend input[data-group]").forEach(function (box) {
    box.addEventListener("change", function () {
      if (box.checked) { hiddenGroups.delete(box.dataset.group); }
      else { hiddenGroups.add(box.dataset.group); }
      refreshFilter();
    });
  });
  var trackSelect = document.getElementById("kg-track");
  if (trackSelect) {
    trackSelect.addEventListener("change", function () {
      trackFilter = trackSelect.value === "" ? -1 : Number(trackSelect.value);
      refreshFilter();
    });
  }
  var minBox = document.getElementById("kg-min");
  if (minBox) {
    minBox.addEventListener("change", function () {
      var v = Math.round(Number(minBox.value));
      minPapers = isFinite(v) ? Math.max(controls.min.floor, v) : controls.min.value;
      minBox.value = String(minPapers);
      refreshFilter();
    });
  }
  var scopeSelect = document.getElementById("kg-scope");
  if (scopeSelect) {
    scopeSelect.addEventListener("change", function () {
      scopeTop = scopeSelect.value === "top";
      refreshFilter();
    });
  }

  function initialFilters() {
    hiddenGroups.clear();
    (data.legend || []).forEach(function (g) { if (g.shown === false) { hiddenGroups.add(g.group); } });
    trackFilter = -1;
    conceptScope = null;
    minPapers = controls.min ? controls.min.value : 0;
    scopeTop = !!controls.scope;
    syncControls();
  }

  function syncControls() {
    document.querySelectorAll("#kg-legend input[data-group]").forEach(function (b) {
      b.checked = !hiddenGroups.has(b.dataset.group);
    });
    if (trackSelect) { trackSelect.value = trackFilter < 0 ? "" : String(trackFilter); }
    if (minBox) { minBox.value = String(minPapers); }
    if (scopeSelect) { scopeSelect.value = scopeTop ? "top" : "all"; }
  }

  function showNode(n) {
    // relax only what hides n
    hiddenGroups.delete(n.group);
    if (trackFilter >= 0 && (n.t === undefined || n.t.indexOf(trackFilter) < 0)) { trackFilter = -1; }
    if (n.o !== undefined && n.o < minPapers) { minPapers = n.o; }
    if (scopeTop && !n.top) { scopeTop = false; }
    if (conceptScope !== null && n.p && !n.p.some(inScope)) { conceptScope = null; }
    syncControls();
    refreshFilter();
  }

  // ------------------------------------------------------------- highlight
  var dimmed = false;
  var DIM = 0.12;
  // dimming every edge costs a second on tens of thousands of them; there the
  // selection's own edge highlight has to do
  var dimEdges = edgeList.length <= 5000;

  function highlight(id) {
    var keep = new Set(network.getConnectedNodes(id));
    keep.add(id);
    var near = new Set(network.getConnectedEdges(id));
    var nu = [];
    nodes.forEach(function (n) {
      var o = keep.has(n.id) ? 1 : DIM;
      if ((n.opacity === undefined ? 1 : n.opacity) !== o) { nu.push({id: n.id, opacity: o}); }
    });
    dimmed = true;
    nodes.update(nu);
    if (!dimEdges) { return; }
    var eu = [];
    edges.forEach(function (e) {
      var o = near.has(e.id) ? 1 : DIM;
      if (e.color.opacity !== o) { eu.push({id: e.id, color: edgeColour(e, o)}); }
    });
    edges.update(eu);
  }

  function clearHighlight() {
    if (!dimmed) { return; }
    var nu = [];
    nodes.forEach(function (n) {
      if (n.opacity !== undefined && n.opacity !== 1) { nu.push({id: n.id, opacity: 1}); }
    });
    dimmed = false;
    nodes.update(nu);
    if (!dimEdges) { return; }
    var eu = [];
    edges.forEach(function (e) {
      if (e.color.opacity !== 1) { eu.push({id: e.id, color: edgeColour(e, 1)}); }
    });
    edges.update(eu);
  }

  // --------------------------------------------------------------- details
  var panel = document.getElementById("kg-details");
  var paperNode = new Map();
  nodeList.forEach(function (n) { if (n.pid !== undefined) { paperNode.set(n.pid, n.id); } });

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }

  function copyText(text, code) {
    function fallback() {
      var range = document.createRange();
      range.selectNodeContents(code);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      say("id selected: press Ctrl+C to copy");
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { say("copied " + text); }, fallback);
    } else { fallback(); }
  }

  function idRow(pid) {
    var row = el("p", "id ", "kg-id");
    var code = el("code", pid);
    var b = el("button", "Copy");
    b.type = "button";
    b.addEventListener("click", function () { copyText(pid, code); });
    row.appendChild(code);
    row.appendChild(b);
    return row;
  }

  function linkList(items, limit) {
    var ul = el("ul");
    items.slice(0, limit).forEach(function (it) {
      var li = el("li");
      if (it.go !== undefined) {
        var b = el("button", it.text);
        b.type = "button";
        b.addEventListener("click", function () { focusNode(it.go); });
        li.appendChild(b);
      } else {
        li.appendChild(el("span", it.text));
      }
      if (it.pid !== undefined) { li.appendChild(el("code", it.pid, "kg-pid")); }
      ul.appendChild(li);
    });
    if (items.length > limit) { ul.appendChild(el("li", "… and " + (items.length - limit) + " more")); }
    return ul;
  }

  // a term's papers, those mentioning most of its shown linked terms first
  // (ties: listing order)
  function byRelevance(id, list) {
    var score = new Map();
    list.forEach(function (i) { score.set(i, 0); });
    adjacency.get(id).forEach(function (m) {
      if (!shownSet.has(m)) { return; }
      (byId.get(m).p || []).forEach(function (i) { if (score.has(i)) { score.set(i, score.get(i) + 1); } });
    });
    return list.slice().sort(function (a, b) { return score.get(b) - score.get(a) || a - b; });
  }

  function showDetails(id) {
    if (!panel) { return; }
    var n = nodes.get(id);
    var close = el("button", "×", "kg-close");
    close.type = "button";
    close.setAttribute("aria-label", "close");
    close.addEventListener("click", function () { unselect(); });
    var kids = [close, el("h2", String(n.name || n.text)),
                el("p", groupLabel[n.group] || n.group || "", "kg-kind")];
    if (n.pid !== undefined) { kids.push(idRow(String(n.pid))); }
    if (n.p && n.p.length) {  // a person's or an entity's papers come first
      var mine = scopedPapers(n);
      kids.push(el("h3", !scoping() ? "Papers (" + n.p.length + ")"
        : "Papers " + scopeLabel() + " (" + mine.length + " of " + n.p.length + ")"));
      if (controls.regions && conceptScope === null) {
        var only = el("button", "Only its papers", "kg-scope-to");
        only.type = "button";
        only.title = "size every node by its papers among these, and hide the others";
        only.addEventListener("click", function () { scopeTo(id); });
        kids.push(only);
      }
      if (controls.regions) { mine = byRelevance(id, mine); }
      kids.push(linkList(mine.map(function (i) {
        var row = papers[i];
        return {text: String(row[1]), pid: String(row[0]), go: paperNode.get(row[0])};
      }), 80));
    }
    kids.push(el("div", String(n.title || ""), "kg-text"));
    var nb = network.getConnectedNodes(id).slice();
    nb.sort(function (a, b) { return nameOf(a).localeCompare(nameOf(b)); });
    if (nb.length) {
      kids.push(el("h3", "Linked (" + nb.length + ")"));
      kids.push(linkList(nb.map(function (m) { return {text: nameOf(m), go: m}; }), 60));
    }
    panel.replaceChildren.apply(panel, kids);
    panel.hidden = false;
  }

  function select(id) {
    network.selectNodes([id]);
    highlight(id);
    showDetails(id);
  }

  function unselect() {
    network.unselectAll();
    clearHighlight();
    if (panel) { panel.hidden = true; }
  }

  network.on("click", function (p) {
    if (p.nodes.length) { select(p.nodes[0]); }
    else if (!p.edges.length) { unselect(); }
  });
  network.on("dragStart", hideTooltip);
  network.on("zoom", hideTooltip);

  // ---------------------------------------------------------------- search
  function norm(s) {
    return String(s).normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().replace(/\s+/g, " ").trim();
  }
  var index = null;
  var holder = null;  // paper index -> the biggest node listing it (views without paper nodes)

  function buildIndex() {
    index = nodeList.map(function (n) {
      return [norm(n.name || n.text || n.id), norm(n.q || ""), n, null];
    });
    holder = new Map();
    nodeList.forEach(function (n) {
      (n.p || []).forEach(function (i) {
        var h = holder.get(i);
        if (h === undefined || (byId.get(h).value || 0) < (n.value || 0)) { holder.set(i, n.id); }
      });
    });
    papers.forEach(function (row, i) {
      if (paperNode.has(row[0]) || !holder.has(i)) { return; }
      index.push([norm(row[1]), norm(row[0]), byId.get(holder.get(i)), String(row[1])]);
    });
  }

  function matches(query, limit) {
    var q = norm(query);
    if (!q) { return []; }
    if (index === null) { buildIndex(); }
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var s = index[i][0], pos = s.indexOf(q), rank;
      if (pos >= 0) { rank = s === q ? 0 : pos === 0 ? 1 : s.charAt(pos - 1) === " " ? 2 : 3; }
      else if (index[i][1].indexOf(q) >= 0) { rank = 4; }
      else { continue; }
      if (index[i][3] !== null) { rank += 5; }  // a paper found through a node listing it
      hits.push([rank, -(index[i][2].value || 0), s, index[i]]);
    }
    hits.sort(function (a, b) {
      return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
    });
    return hits.slice(0, limit).map(function (h) { return {node: h[3][2], paper: h[3][3]}; });
  }

  function focusNode(id) {
    var n = byId.get(id);
    if (!n) { return false; }
    if (!visible(n)) { showNode(n); }
    network.focus(id, {scale: Math.max(network.getScale(), 0.7), animation: false});
    select(id);
    say("found: " + nameOf(id));
    return true;
  }

  var search = document.getElementById("kg-search");
  var results = document.getElementById("kg-results");

  function showResults() {
    var found = matches(search.value, 8);
    var items = found.map(function (hit) {
      var n = hit.node;
      var b = el("button", hit.paper !== null ? hit.paper : String(n.name || n.text));
      b.type = "button";
      b.appendChild(el("span", hit.paper !== null ? "paper, via " + nameOf(n.id)
                                                   : groupLabel[n.group] || "", "kg-kind"));
      b.addEventListener("click", function () { results.replaceChildren(); focusNode(n.id); });
      var li = el("li");
      li.appendChild(b);
      return li;
    });
    results.replaceChildren.apply(results, items);
    if (search.value && !found.length) { say("no node matches"); }
  }

  function findAndFocus(query) {
    var found = matches(query, 1);
    if (!found.length) { say("no node matches"); return null; }
    focusNode(found[0].node.id);
    return found[0].node.id;
  }

  if (search) {
    var timer = null;
    search.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(showResults, 120);
    });
    search.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter") {
        ev.preventDefault();
        clearTimeout(timer);
        results.replaceChildren();
        findAndFocus(search.value);
      } else if (ev.key === "Escape") {
        results.replaceChildren();
      }
    });
  }
  var fit = document.getElementById("kg-fit");
  if (fit) { fit.addEventListener("click", fitShown); }
  var reset = document.getElementById("kg-reset");
  if (reset) {
    reset.addEventListener("click", function () { unselect(); initialFilters(); refreshFilter(); });
  }

  // ready: the first drawing after the set-up (layout, labels) below
  var setUp = false, draws = 0;
  network.on("afterDrawing", function () {
    draws++;
    if (!setUp || window.kgReady !== undefined) { return; }
    window.kgReady = {scriptStart: started, drawn: performance.now(), draws: draws,
                      nodes: nodes.length, edges: edges.length, shown: nodeView.length,
                      labels: lastLabels.length};
    document.body.setAttribute("data-ready", "1");
  });

  if (nodeView.length !== nodes.length) { relayout(); }
  labelOrder();
  fitShown();
  legendCounts();
  setUp = true;

  window.kg = {network: network, nodes: nodes, edges: edges, view: nodeView, data: data,
               edgeView: edgeView, find: findAndFocus, focus: focusNode, select: select, unselect: unselect,
               labels: function () { return lastLabels.slice(); }, scopeTo: scopeTo,
               density: function (on) {
                 if (on !== undefined) { setDensity(on); if (densityBox) { densityBox.checked = densityOn; } }
                 return densityOn && heat !== null ? {on: true, top: heat.top} : {on: densityOn};
               },
               shownBox: function () {
                 var ids = nodeView.getIds(), pos = network.getPositions(ids);
                 var b = {left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity};
                 ids.forEach(function (id) {
                   var d = network.canvasToDOM(pos[id]);
                   b.left = Math.min(b.left, d.x); b.right = Math.max(b.right, d.x);
                   b.top = Math.min(b.top, d.y); b.bottom = Math.max(b.bottom, d.y);
                 });
                 return {box: b, width: container.clientWidth, height: container.clientHeight};
               }};
}());
