/* kg view page: draws the graph embedded in #kg-data with vis-network.
 *
 * Untrusted text (names, abstracts) only ever reaches the page through
 * textContent or vis-network's string titles (set with innerText), never as
 * HTML. Positions come from the data; physics stays off.
 */
(function () {
  "use strict";
  var started = performance.now();
  var data = JSON.parse(document.getElementById("kg-data").textContent);
  var relations = data.relations || {};
  var nodeList = data.nodes;
  var edgeList = data.edges;
  var byId = new Map();
  nodeList.forEach(function (n) { byId.set(n.id, n); });

  function nameOf(id) {
    var n = byId.get(id);
    return n ? String(n.name || n.label || n.id) : String(id);
  }

  function edgeColour(e, opacity) {
    var r = relations[e.relation];
    var base = r ? r[0] : "#bbbbbb";
    return {color: base, highlight: "#333333", hover: "#555555", opacity: opacity};
  }

  edgeList.forEach(function (e, i) {
    if (e.id === undefined) { e.id = i; }
    var r = relations[e.relation];
    e.color = edgeColour(e, 1);
    if (r && r[2]) { e.dashes = true; }
    var a = nameOf(e.from), b = nameOf(e.to);
    if (e.relation === "coauthor" || e.relation === "comention") {
      e.title = a + " – " + b + "\n" + (e.n || 1) + " " + (r ? r[1] : "");
    } else if (r) {
      e.title = a + "\n" + r[1] + (e.n ? " (" + e.n + "×)" : "") + "\n" + b;
    }
  });

  var groupLabel = {};
  (data.legend || []).forEach(function (g) { groupLabel[g.group] = g.label; });

  // ---------------------------------------------------------------- filters
  var hiddenGroups = new Set();
  var trackFilter = -1;

  function visible(n) {
    if (hiddenGroups.has(n.group)) { return false; }
    return trackFilter < 0 || (n.t !== undefined && n.t.indexOf(trackFilter) >= 0);
  }

  var nodes = new vis.DataSet(nodeList);
  var edges = new vis.DataSet(edgeList);
  var nodeView = new vis.DataView(nodes, {filter: visible});
  var container = document.getElementById("kg-network");
  var network = new vis.Network(container, {nodes: nodeView, edges: edges}, data.options || {});

  var status = document.getElementById("kg-status");
  function say(text) { if (status) { status.textContent = text; } }

  function refreshFilter() {
    clearHighlight();
    nodeView.refresh();
    var shown = nodeView.length;
    say(shown === nodes.length ? "" : "showing " + shown.toLocaleString("en") + " of " +
        nodes.length.toLocaleString("en") + " nodes");
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

  function resetFilters() {
    hiddenGroups.clear();
    trackFilter = -1;
    document.querySelectorAll("#kg-legend input[data-group]").forEach(function (b) { b.checked = true; });
    if (trackSelect) { trackSelect.value = ""; }
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
      if ((n.opacity === undefined ? 1 : n.opacity) !== o) {
        nu.push({id: n.id, opacity: o, font: {color: o === 1 ? "#222222" : "rgba(34,34,34,0.15)"}});
      }
    });
    nodes.update(nu);
    dimmed = true;
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
      if (n.opacity !== undefined && n.opacity !== 1) {
        nu.push({id: n.id, opacity: 1, font: {color: "#222222"}});
      }
    });
    nodes.update(nu);
    dimmed = false;
    if (!dimEdges) { return; }
    var eu = [];
    edges.forEach(function (e) {
      if (e.color.opacity !== 1) { eu.push({id: e.id, color: edgeColour(e, 1)}); }
    });
    edges.update(eu);
  }

  // --------------------------------------------------------------- details
  var panel = document.getElementById("kg-details");

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }

  function showDetails(id) {
    if (!panel) { return; }
    var n = nodes.get(id);
    var close = el("button", "×", "kg-close");
    close.type = "button";
    close.setAttribute("aria-label", "close");
    close.addEventListener("click", function () { unselect(); });
    var kids = [close, el("h2", String(n.name || n.label)),
                el("p", groupLabel[n.group] || n.group || "", "kg-kind"),
                el("div", String(n.title || ""), "kg-text")];
    var nb = network.getConnectedNodes(id).slice();
    nb.sort(function (a, b) { return nameOf(a).localeCompare(nameOf(b)); });
    if (nb.length) {
      kids.push(el("h3", "Linked (" + nb.length + ")"));
      var ul = el("ul");
      nb.slice(0, 60).forEach(function (m) {
        var b = el("button", nameOf(m));
        b.type = "button";
        b.addEventListener("click", function () { focusNode(m); });
        var li = el("li");
        li.appendChild(b);
        ul.appendChild(li);
      });
      if (nb.length > 60) { ul.appendChild(el("li", "… and " + (nb.length - 60) + " more")); }
      kids.push(ul);
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

  // ---------------------------------------------------------------- search
  function norm(s) {
    return String(s).normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
      .toLowerCase().replace(/\s+/g, " ").trim();
  }
  var index = null;

  function matches(query, limit) {
    var q = norm(query);
    if (!q) { return []; }
    if (index === null) {
      index = nodeList.map(function (n) { return [norm(n.name || n.label || n.id), n]; });
    }
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var s = index[i][0], pos = s.indexOf(q);
      if (pos < 0) { continue; }
      var rank = s === q ? 0 : pos === 0 ? 1 : s.charAt(pos - 1) === " " ? 2 : 3;
      hits.push([rank, -(index[i][1].value || 0), s, index[i][1]]);
    }
    hits.sort(function (a, b) {
      return a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0);
    });
    return hits.slice(0, limit).map(function (h) { return h[3]; });
  }

  function focusNode(id) {
    var n = nodes.get(id);
    if (!n) { return false; }
    if (!visible(n)) { resetFilters(); }
    network.focus(id, {scale: Math.max(network.getScale(), 1.0), animation: false});
    select(id);
    say("found: " + nameOf(id));
    return true;
  }

  var search = document.getElementById("kg-search");
  var results = document.getElementById("kg-results");

  function showResults() {
    var found = matches(search.value, 8);
    var items = found.map(function (n) {
      var b = el("button", String(n.name || n.label));
      b.type = "button";
      b.appendChild(el("span", groupLabel[n.group] || "", "kg-kind"));
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
    focusNode(found[0].id);
    return found[0].id;
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
  if (fit) { fit.addEventListener("click", function () { network.fit({animation: false}); }); }
  var reset = document.getElementById("kg-reset");
  if (reset) { reset.addEventListener("click", function () { unselect(); resetFilters(); network.fit(); }); }

  network.once("afterDrawing", function () {
    window.kgReady = {scriptStart: started, drawn: performance.now(),
                      nodes: nodes.length, edges: edges.length};
    document.body.setAttribute("data-ready", "1");
  });

  window.kg = {network: network, nodes: nodes, edges: edges, view: nodeView, data: data,
               find: findAndFocus, focus: focusNode, select: select, unselect: unselect};
}());
