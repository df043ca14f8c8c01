"""kg's bookkeeping trusts nothing it finds on disk or on the wire (issue 27).

The five high findings of the review, each reproduced as the review wrote it:
the user's files stay as they were and kg says why in one line.
"""
from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from kg.build import folder as buildfolder

ROOT = Path(__file__).resolve().parents[1]
LISTING = """Deep Learning · Robustness

Ada Lovelace, Alan Turing

We propose FooNet, a convolutional network for image classification on ImageNet.

Grace Hopper, Alan Turing

We study LoRA fine-tuning of LLaMA-2 and report results on GLUE.
"""


def _kg(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "kg.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def _one_line_error(r: subprocess.CompletedProcess, exit_code: int, *phrases: str) -> None:
    assert r.returncode == exit_code, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kg: error: "), r.stderr
    assert "Traceback" not in r.stderr
    for phrase in phrases:
        assert phrase in lines[0], lines[0]


def _tree(folder: Path) -> dict[str, bytes | str]:
    return {p.relative_to(folder).as_posix(): ("dir" if p.is_dir() else
                                               "-> " + os.readlink(p) if p.is_symlink()
                                               else p.read_bytes())
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def listing(tmp_path) -> Path:
    path = tmp_path / "X.txt"
    path.write_text(LISTING, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """One real build, copied by the tests that need a kg folder."""
    src = tmp_path_factory.mktemp("src")
    (src / "X.txt").write_text(LISTING, encoding="utf-8")
    out = src / "out"
    r = _kg("build", str(src / "X.txt"), "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    return out


def _copy_build(built: Path, to: Path) -> Path:
    import shutil

    shutil.copytree(built, to, symlinks=True)
    return to


# ---------------------------------------------------------------- high 1


def test_files_named_like_outputs_are_not_a_build(tmp_path, listing):
    d = tmp_path / "d"
    (d / "plots").mkdir(parents=True)
    for name in ("report.md", "authors.csv", "plots/fig.png"):
        (d / name).write_text("mine\n")
    before = _tree(d)
    r = _kg("build", str(listing), "-o", str(d))
    _one_line_error(r, 2, "holds files kg did not write", "authors.csv")
    assert _tree(d) == before


def test_a_web_folder_with_its_own_index_is_refused(tmp_path, listing):
    web = tmp_path / "site"
    web.mkdir()
    (web / "index.html").write_text("<h1>my page</h1>\n")
    r = _kg("build", str(listing), "-o", str(web))
    _one_line_error(r, 2, "index.html")
    assert _tree(web) == {"index.html": b"<h1>my page</h1>\n"}


def test_only_kgs_marker_makes_a_manifest():
    with pytest.raises(ValueError, match="format"):
        buildfolder.Manifest.from_json('{"format": "mine", "kg": "1", "entries": []}')
    assert buildfolder.MANIFEST_FORMAT in buildfolder.Manifest(("graph.ttl",)).to_json()


# ---------------------------------------------------------------- high 2


def test_manifest_entries_cannot_reach_outside_the_folder(tmp_path, listing, built):
    out = _copy_build(built, tmp_path / "out")
    (tmp_path / "victim.txt").write_text("victim\n")
    (tmp_path / "victimdir").mkdir()
    (tmp_path / "victimdir" / "f.txt").write_text("inside\n")
    absdir = tmp_path / "ABS"
    absdir.mkdir()
    (absdir / "abs_victim.txt").write_text("abs\n")
    (out / ".kg-manifest.json").write_text(json.dumps(
        {"kg": "0.1", "entries": ["../victim.txt", "../victimdir/",
                                  f"{absdir}/abs_victim.txt"]}))
    before = _tree(tmp_path)
    r = _kg("build", str(listing), "-o", str(out))
    _one_line_error(r, 2, "not a kg manifest", "'../victim.txt' is not a name kg writes")
    assert _tree(tmp_path) == before


@pytest.mark.parametrize("entry", ["..", ".", "", "a/b", "/etc/passwd", "store/../..",
                                   ".kg-lock", "notes.md", "graph.ttl/"])
def test_every_manifest_entry_is_checked(entry):
    with pytest.raises(ValueError, match="not a name kg writes"):
        buildfolder.Manifest.from_json(json.dumps({"kg": "0.1", "entries": [entry]}))


def test_an_output_that_changed_kind_is_left_alone(tmp_path, listing, built):
    out = _copy_build(built, tmp_path / "out")
    (out / "report.md").unlink()
    (out / "report.md").mkdir()
    (out / "report.md" / "my notes.txt").write_text("mine\n")
    r = _kg("build", str(listing), "-o", str(out))
    _one_line_error(r, 2, "changed kind", "report.md")
    assert (out / "report.md" / "my notes.txt").read_text() == "mine\n"


# ---------------------------------------------------------------- high 3


def test_a_planted_lock_link_is_not_followed(tmp_path, listing, built):
    out = _copy_build(built, tmp_path / "out")
    (tmp_path / "victim.txt").write_text("victim data\n")
    (out / ".kg-lock").unlink()
    (out / ".kg-lock").symlink_to("../victim.txt")
    r = _kg("build", str(listing), "-o", str(out))
    _one_line_error(r, 2, ".kg-lock is a symbolic link")
    assert (tmp_path / "victim.txt").read_text() == "victim data\n"


def test_a_planted_hard_link_lock_is_not_truncated(tmp_path, listing, built):
    out = _copy_build(built, tmp_path / "out")
    (tmp_path / "victim.txt").write_text("x\n")
    (out / ".kg-lock").unlink()
    os.link(tmp_path / "victim.txt", out / ".kg-lock")
    r = _kg("build", str(listing), "-o", str(out))
    _one_line_error(r, 2, "is not kg's lock")
    assert (tmp_path / "victim.txt").read_text() == "x\n"


# ---------------------------------------------------------------- high 4


def test_a_users_backup_beside_the_folder_is_kept(tmp_path, listing, built):
    out = _copy_build(built, tmp_path / "out")
    backup = tmp_path / ".out.old-backup2024"
    backup.mkdir()
    for name in ("report.md", "graph.ttl"):
        (backup / name).write_bytes((out / name).read_bytes())
    building = tmp_path / ".out.building-1234"
    building.mkdir()
    (building / "corpus.jsonl").write_text("{}\n")
    before = {**_tree(backup), **{f"b/{k}": v for k, v in _tree(building).items()}}
    r = _kg("build", str(listing), "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    assert {**_tree(backup), **{f"b/{k}": v for k, v in _tree(building).items()}} == before


def test_a_users_folder_with_kgs_prefix_inside_is_kept(tmp_path, listing, built):
    out = _copy_build(built, tmp_path / "out")
    for prefix in (buildfolder.STAGING_PREFIX, buildfolder.TRASH_PREFIX):
        mine = out / f"{prefix}mine"
        mine.mkdir()
        (mine / "keep.txt").write_text("mine\n")
    killed = out / f"{buildfolder.STAGING_PREFIX}0badc0de"   # a build killed before its marker
    killed.mkdir()
    r = _kg("build", str(listing), "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    for prefix in (buildfolder.STAGING_PREFIX, buildfolder.TRASH_PREFIX):
        assert (out / f"{prefix}mine" / "keep.txt").read_text() == "mine\n"
    assert not killed.exists()


# ---------------------------------------------------------------- high 5


class EndlessServer:
    """Answers every request with a 200 whose body never ends (1 MB chunks).

    Bounded: it stops sending after ``seconds`` or when the client hangs up.
    """

    def __init__(self, seconds: float = 90.0, length: bool = False) -> None:
        chunk = b"x" * (1 << 20)

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(200)
                self.send_header("Content-Type", "application/sparql-results+json")
                if length:
                    self.send_header("Content-Length", str(10 << 30))
                self.end_headers()
                end = time.monotonic() + seconds
                try:
                    while time.monotonic() < end:
                        self.wfile.write(chunk)
                except OSError:
                    pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/sparql"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("extra", [(), ("--max-response", "8")])
def test_an_endless_answer_stops_at_the_size_cap(extra):
    server = EndlessServer()
    try:
        start = time.monotonic()
        # (VmHWM, not ru_maxrss: a child forked from a big pytest keeps its parent's peak
        # in ru_maxrss across exec)
        code = ("import sys; from kg.cli import main; rc = main(sys.argv[1:]); "
                "print([ln.split()[1] for ln in open('/proc/self/status') "
                "if ln.startswith('VmHWM')][0], file=sys.stderr); sys.exit(rc)")
        r = subprocess.run([sys.executable, "-c", code, "query", "dataset-summary",
                            "--endpoint", server.url, "--timeout", "60", *extra],
                           env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
        elapsed = time.monotonic() - start
    finally:
        server.close()
    *message, peak_kib = r.stderr.strip().splitlines()
    assert r.returncode == 1 and len(message) == 1, r.stderr
    assert "larger than" in message[0] and "--max-response" in message[0]
    assert elapsed < 60
    cap_mib = 8 if extra else 512
    assert int(peak_kib) < (2 * cap_mib + 400) * 1024     # about twice the cap, not unbounded


def test_a_declared_length_over_the_cap_is_refused_before_reading():
    server = EndlessServer(seconds=5, length=True)
    try:
        r = _kg("query", "dataset-summary", "--endpoint", server.url, "--timeout", "30",
                timeout=60)
    finally:
        server.close()
    _one_line_error(r, 1, "declares 10,737,418,240 bytes")


# ---------------------------------------------------------------- publish as a set


def test_readers_refuse_a_folder_caught_mid_publish(tmp_path, built):
    out = _copy_build(built, tmp_path / "out")
    (out / buildfolder.PUBLISHING).write_text("4242\n")
    for args in (("query", "dataset-summary"), ("coauthors",), ("viz", "kg", "-o",
                                                                str(tmp_path / "v.html"))):
        r = _kg(*args, "--from", str(out))
        _one_line_error(r, 2, "mid-publish", "kg build -o")
    assert not (tmp_path / "v.html").exists()


def test_a_publish_killed_midway_is_finished_by_the_next_build(tmp_path, listing, built):
    """SIGKILL after N of the publish's renames, for every N: the folder is refused until
    the next build finishes the publish; it is then the new build, whole."""
    out = _copy_build(built, tmp_path / "out")
    other = tmp_path / "Y.txt"
    other.write_text(LISTING.replace("FooNet", "BarNet"), encoding="utf-8")
    driver = ("import os, signal, sys\n"
              "import kg.build.folder as b\n"
              "n = int(sys.argv[1]); real = os.replace; seen = [0]\n"
              "real_publish = b.publish\n"
              "def replace(src, dst):\n"
              "    seen[0] += 1\n"
              "    if seen[0] > n: os.kill(os.getpid(), signal.SIGKILL)\n"
              "    real(src, dst)\n"
              "def publish(staged, folder):\n"
              "    os.replace = replace\n"
              "    real_publish(staged, folder)\n"
              "b.publish = publish\n"
              "from kg.cli import main\n"
              "sys.exit(main(sys.argv[2:]))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for n in (0, 3, 9, 21):
        r = subprocess.run([sys.executable, "-c", driver, str(n), "build", str(other), "-o",
                            str(out), "-q"], env=env, cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == -9, r.stderr
        mixed = (out / buildfolder.PUBLISHING).exists()
        q = _kg("query", "dataset-summary", "--from", str(out))
        assert (q.returncode != 0) == mixed, (n, q.stderr)
        r = _kg("build", str(listing if n % 2 else other), "-o", str(out), "-q")
        assert r.returncode == 0, r.stderr
        assert not (out / buildfolder.PUBLISHING).exists()
        assert not list(out.glob(".kg-staging-*")) and not list(out.glob(".kg-old-*"))
        text = (out / "corpus.jsonl").read_text()
        assert ("BarNet" in text) == (not n % 2) and ("FooNet" in text) == bool(n % 2)
        assert ("BarNet" in (out / "graph.ttl").read_text()) == ("BarNet" in text)


def test_a_full_disk_is_one_line(tmp_path, listing):
    """ENOSPC while writing: one line naming the file, the previous output as it was."""
    driver = ("import errno, sys\n"
              "import kg.util.fsio as f\n"
              "real = f.write_text\n"
              "def full(path, text):\n"
              "    raise OSError(errno.ENOSPC, 'No space left on device', str(path))\n"
              "f.write_text = full\n"
              "from kg.cli import main\n"
              "sys.exit(main(sys.argv[1:]))\n")
    r = subprocess.run([sys.executable, "-c", driver, "build", str(listing), "-o",
                        str(tmp_path / "out"), "-q"], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    _one_line_error(r, 1, "No space left on device")
    assert not (tmp_path / "out").exists()


def test_the_lock_never_follows_a_fifo(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / ".kg-lock")
    with pytest.raises(buildfolder.OutputFolderError, match="not kg's lock"), \
            buildfolder.locked(out):
        pass
