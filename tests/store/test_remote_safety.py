"""Safe pushes and bounded waits, against fake SPARQL servers on 127.0.0.1.

The fake server keeps its graphs in an in-memory pyoxigraph store and speaks
just enough of the SPARQL 1.1 Protocol, Update and Graph Store Protocol for
``kg push`` and ``kg query``; a test makes it fail on the request it names.
Hanging servers are plain sockets. Every CLI run happens in a thread with a
watchdog, so a hang fails the test instead of stalling the suite.
"""
from __future__ import annotations

import http.server
import socket
import threading
import time
import urllib.parse

import pyoxigraph as ox
import pytest

from kg.cli import main
from kg.errors import QueryError, StoreError
from kg.store import EmbeddedStore
from kg.store.push import push
from kg.store.remote import RemoteStore

GRAPH = "https://w3id.org/paper-kg/test/g"
OLD = [f"<urn:old:{i}> <urn:p> \"old {i}\" ." for i in range(5)]
NEW = [f"<urn:new:{i}> <urn:p> \"new {i}\" ." for i in range(10)]
SECRET = "S3cr3t-pw"


# ------------------------------------------------------------------ fake servers

class FakeSparql:
    """A SPARQL server: ``/sparql`` (query and update) and ``/data`` (Graph Store Protocol).

    ``fail(kind, n, body)`` is asked before the n-th request of a kind ("query",
    "update", "gsp-put", "gsp-post", ...) and may return an action: an HTTP
    status (with ``self.reason`` as the body) or "drop" (close without answer).
    """

    def __init__(self, fail=None, reason: str = "") -> None:
        self.store = ox.Store()
        self.fail, self.reason = fail or (lambda kind, n, body: None), reason
        self.counts: dict[str, int] = {}
        self.log: list[tuple[str, str]] = []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _body(self) -> bytes:
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            def _answer(self, code: int, body: bytes = b"", ctype: str = "text/plain") -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def _handle(self) -> None:
                url = urllib.parse.urlsplit(self.path)
                body = self._body()
                if url.path in ("/data", "/sparql-graph-crud"):
                    kind = f"gsp-{self.command.lower()}"
                else:
                    form = urllib.parse.parse_qs(body.decode("utf-8"))
                    kind = "update" if "update" in form else "query"
                n = fake.counts[kind] = fake.counts.get(kind, 0) + 1
                fake.log.append((kind, url.path))
                action = fake.fail(kind, n, urllib.parse.unquote_plus(body.decode('utf-8')))
                if action == "drop":
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if action:
                    self._answer(action, fake.reason.encode("utf-8"), "text/html")
                    return
                try:
                    if kind.startswith("gsp-"):
                        graph = ox.NamedNode(urllib.parse.parse_qs(url.query)["graph"][0])
                        if self.command in ("PUT", "DELETE"):
                            fake.store.remove_graph(graph) if graph in fake.store.named_graphs() \
                                else None
                        if body:
                            fake.store.load(body, ox.RdfFormat.TURTLE, to_graph=graph)
                        self._answer(201 if self.command == "PUT" else 204)
                    elif kind == "update":
                        fake.store.update(form["update"][0])
                        self._answer(204)
                    else:
                        res = fake.store.query(form["query"][0])
                        self._answer(200, res.serialize(format=ox.QueryResultsFormat.JSON),
                                     "application/sparql-results+json")
                except (SyntaxError, OSError, RuntimeError, ValueError) as exc:
                    self._answer(400, str(exc).encode("utf-8"))

            do_POST = do_PUT = do_DELETE = _handle

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/sparql"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def graph(self, iri: str = GRAPH) -> set[str]:
        return {f"{q.subject} {q.predicate} {q.object} ."
                for q in self.store.quads_for_pattern(None, None, None, ox.NamedNode(iri))}

    def graphs(self) -> set[str]:
        return {g.value for g in self.store.named_graphs()}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class HangingServer:
    """Accepts connections and reads the request; then says nothing, or drips header lines."""

    def __init__(self, drip: float | None = None) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/sparql"
        self.drip, self.stop, self.conns = drip, threading.Event(), []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.conns.append(conn)
            threading.Thread(target=self._talk, args=(conn,), daemon=True).start()

    def _talk(self, conn: socket.socket) -> None:
        try:
            conn.recv(65536)
            if self.drip is None:
                self.stop.wait()
                return
            conn.sendall(b"HTTP/1.1 200 OK\r\n")
            i = 0
            while not self.stop.wait(self.drip):
                conn.sendall(f"X-Drip-{i}: still thinking\r\n".encode())
                i += 1
        except OSError:
            pass

    def close(self) -> None:
        self.stop.set()
        for c in self.conns:
            c.close()
        self.sock.close()


@pytest.fixture
def fake():
    servers: list = []

    def make(cls=FakeSparql, **kw):
        s = cls(**kw)
        servers.append(s)
        return s
    yield make
    for s in servers:
        s.close()


def seeded(server: FakeSparql) -> FakeSparql:
    server.store.load("\n".join(OLD).encode(), ox.RdfFormat.N_TRIPLES, to_graph=ox.NamedNode(GRAPH))
    return server


@pytest.fixture
def build_dir(tmp_path):
    (tmp_path / "graph.nt").write_text("\n".join(NEW) + "\n", encoding="utf-8")
    return tmp_path


def run_cli(capsys, argv: list[str], limit: float = 30.0):
    """``kg ARGV`` in a thread: (exit code, stdout, stderr, seconds)."""
    box: dict = {}

    def target():
        try:
            box["code"] = main(argv)
        except SystemExit as exc:
            box["code"] = exc.code
    t0 = time.monotonic()
    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(limit)
    elapsed = time.monotonic() - t0
    assert not t.is_alive(), f"kg {' '.join(argv[:2])} still running after {limit} s"
    out, err = capsys.readouterr()
    return box["code"], out, err, elapsed


# ------------------------------------------------------------------ safe push

def test_push_replaces_the_graph_and_leaves_no_temporary_graph(fake, build_dir):
    for method in ("graph-store", "update"):
        server = seeded(fake())
        done = push(build_dir, server.url, GRAPH, method=method, batch_triples=3, backoff=0.01)
        assert server.graph() == {f"{t}" for t in NEW}
        assert server.graphs() == {GRAPH}
        assert done.count == len(NEW) and done.method == method
        assert ("update", "/sparql") in server.log  # the MOVE


@pytest.mark.parametrize("method, marker, action", [
    ("graph-store", "urn:new:4", 500),      # the second batch is refused (every retry)
    ("graph-store", "urn:new:4", "drop"),   # the server hangs up on the second batch
    ("update", "urn:new:4", 500),
    ("update", "urn:new:7", "drop"),
    ("graph-store", "MOVE", 403),           # the swap itself is refused
    ("update", "MOVE", 400),
])
def test_failed_push_leaves_the_old_graph_whole(fake, build_dir, method, marker, action):
    server = seeded(fake(fail=lambda k, i, body: action if marker in body else None,
                         reason="boom: disk full"))
    with pytest.raises(StoreError) as err:
        push(build_dir, server.url, GRAPH, method=method, batch_triples=3, backoff=0.01)
    msg = str(err.value)
    assert "\n" not in msg and f"the graph <{GRAPH}> on the server is unchanged" in msg
    assert server.graph() == set(OLD)
    assert server.graphs() == {GRAPH}, "the temporary graph was not dropped"
    if action != "drop":
        assert f"HTTP {action}" in msg or f"({action}:" in msg
        assert "boom: disk full" in msg


def test_cli_push_failure_says_the_graph_is_unchanged(fake, build_dir, capsys):
    server = seeded(fake(fail=lambda k, i, body: 400 if "urn:new:4" in body else None,
                         reason="Virtuoso 22023 Error SR601: bad triple"))
    code, out, err, _ = run_cli(capsys, ["push", "--endpoint", server.url, "--graph", GRAPH,
                                         "--from", str(build_dir), "--timeout", "10"])
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "bad triple" in err and "is unchanged" in err
    assert server.graph() == set(OLD)


# ------------------------------------------------------------------ deadlines

@pytest.mark.parametrize("drip", [None, 1.0], ids=["silent", "drips-a-header-every-second"])
@pytest.mark.parametrize("command", ["query", "push"])
def test_hanging_server_gives_up_within_the_timeout(fake, build_dir, capsys, drip, command):
    server = fake(HangingServer, drip=drip)
    if command == "query":
        argv = ["query", "SELECT * WHERE { ?s ?p ?o }", "--endpoint", server.url]
    else:
        argv = ["push", "--endpoint", server.url, "--graph", GRAPH, "--from", str(build_dir)]
    code, out, err, elapsed = run_cli(capsys, argv + ["--timeout", "3"])
    assert code == 1 and out == "" and err.count("\n") == 1, err
    assert "timed out" in err and "3 s" in err
    assert 2.5 < elapsed < 3 + (2.5 if command == "push" else 1.0)  # push: + a clean-up try
    if command == "push":
        assert "unchanged" in err


def test_retries_fit_inside_the_time_limit(fake):
    server = fake(fail=lambda k, i, body: 503, reason="busy")
    store = RemoteStore(server.url, timeout=2.0, retries=10, backoff=0.4)
    t0 = time.monotonic()
    with pytest.raises(StoreError, match="HTTP 503"):
        store.query("ASK {}")
    assert time.monotonic() - t0 < 2.0
    assert 2 <= server.counts["query"] <= 3  # 0.4 s and 0.8 s waits fit, 1.6 s does not


# ------------------------------------------------------------------ secrets, reasons

def test_password_never_printed(fake, build_dir, capsys, monkeypatch):
    # a server that echoes everything it can into its refusal
    server = fake(fail=lambda k, i, body: 401, reason=f"bad password {SECRET} for alice")
    runs = [
        ["query", "ASK {}", "--endpoint", server.url, "--user", "alice", "--password", SECRET],
        ["push", "--endpoint", server.url, "--user", "alice", "--password", SECRET,
         "--from", str(build_dir), "--timeout", "5"],
        ["query", "ASK {}", "--pasword", SECRET],                # a misspelt option
        ["push", "--endpoint", server.url, "--pass", SECRET, "stray"],  # an abbreviation
        ["query", "ASK {}", f"--password={SECRET}", "--bogus"],
        ["push", "--endpoint", "http://alice:" + SECRET + "@[::1/sparql"],
        ["query", "ASK {}", "--endpoint", f"http://alice:{SECRET}@127.0.0.1:99999/x"],
    ]
    for argv in runs:
        code, out, err, _ = run_cli(capsys, argv)
        assert code in (1, 2) and err.startswith("kg: error: "), (argv, err)
        assert SECRET not in out + err, (argv, err)
    monkeypatch.setenv("KG_SPARQL_USER", "alice")
    monkeypatch.setenv("KG_SPARQL_PASSWORD", SECRET)
    code, out, err, _ = run_cli(capsys, ["query", "ASK {}", "--endpoint", server.url])
    assert code == 1 and "401" in err and SECRET not in out + err


def test_refusal_shows_the_servers_reason_on_one_line(fake, capsys):
    reason = ("<html><body><h1>403 Forbidden</h1>\x1b[31mUser alice\x00 lacks SPARQL_UPDATE\r\n"
              "on this graph\u202e" + "x" * 1000 + "</body></html>")
    server = fake(fail=lambda k, i, body: 403, reason=reason)
    code, out, err, _ = run_cli(capsys, ["query", "ASK {}", "--endpoint", server.url])
    assert code == 1 and err.count("\n") == 1
    assert "403" in err and "User alice lacks SPARQL_UPDATE on this graph" in err
    assert not any(c in err for c in "\x1b\x00\r\u202e") and len(err) < 600


# ------------------------------------------------------------------ malformed endpoints

@pytest.mark.parametrize("url", ["http://[::1", "http://localhost:99999/sparql",
                                 "localhost:8890/sparql", "ftp://example.org/sparql",
                                 "http:///sparql", "http://exa mple.org/"])
@pytest.mark.parametrize("command", ["query", "push"])
def test_malformed_endpoint_is_one_line_before_any_work(capsys, tmp_path, url, command):
    argv = (["query", "ASK {}", "--endpoint", url] if command == "query" else
            ["push", "--endpoint", url, "--from", str(tmp_path / "no-build-here")])
    code, out, err, elapsed = run_cli(capsys, argv)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("kg: error: not a valid endpoint URL") and "Traceback" not in err
    assert elapsed < 2


# ------------------------------------------------------------------ SERVICE

def test_service_refused_by_the_embedded_store_unless_allowed(fake, capsys, tmp_path):
    server = fake()
    EmbeddedStore.create(tmp_path / "store", "\n".join(NEW).encode() + b"\n").close()
    q = f"SELECT * WHERE {{ SERVICE <{server.url}> {{ ?s ?p ?o }} }}"
    code, out, err, _ = run_cli(capsys, ["query", q, "--store", str(tmp_path / "store")])
    assert code == 1 and err.count("\n") == 1 and "--allow-service" in err
    assert server.counts == {}, "the store sent the SERVICE request"
    with EmbeddedStore(tmp_path / "store") as st:
        with pytest.raises(QueryError, match="SERVICE"):
            st.query(q.replace("SERVICE", "service"))
        assert len(st.query('SELECT * WHERE { ?s ?p "SERVICE <http://x/> {}" }')) == 0
    code, out, err, _ = run_cli(capsys, ["query", q, "--store", str(tmp_path / "store"),
                                         "--allow-service"])
    assert server.counts.get("query") == 1  # allowed: the request went out


@pytest.mark.parametrize("value", ["0", "-5", "soon", "inf"])
def test_timeout_must_be_a_positive_number(capsys, value):
    code, out, err, _ = run_cli(capsys, ["query", "ASK {}", "--endpoint", "http://127.0.0.1:1/s",
                                         "--timeout", value])
    assert code == 2 and out == "" and err.count("\n") == 1 and "--timeout" in err
