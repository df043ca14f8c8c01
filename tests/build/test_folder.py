"""The output folder: kg writes only what it owns, refuses odd targets up front,
serialises builds, survives SIGTERM and SIGKILL, and follows the umask."""
from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kg import outputs
from kg.build import folder as buildfolder
from kg.build.folder import Manifest, OutputFolderError
from kg.outputs import LOCK, MANIFEST

ROOT = Path(__file__).resolve().parents[2]
LISTING = """论文检索

Deep Learning · Robustness

Ada Lovelace, Alan Turing

We propose FooNet, a convolutional network for image classification on ImageNet.

Grace Hopper, Alan Turing

We study LoRA fine-tuning of LLaMA-2 and report results on GLUE.
"""


def _kg(*args: str, cwd: Path | None = None, umask: int | None = None,
        wait: bool = True) -> subprocess.CompletedProcess | subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    pre = (lambda: os.umask(umask)) if umask is not None else None
    proc = subprocess.Popen([sys.executable, "-m", "kg.cli", *args], env=env, cwd=cwd or ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=pre)
    if not wait:
        return proc
    out, err = proc.communicate(timeout=300)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def _snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry below ``folder``: file bytes, link targets, folder modes."""
    shot: dict[str, bytes | str] = {}
    for p in sorted(folder.rglob("*")):
        key = p.relative_to(folder).as_posix()
        if p.is_symlink():
            shot[key] = "-> " + os.readlink(p)
        elif p.is_dir():
            shot[key] = oct(p.stat().st_mode)
        else:
            shot[key] = p.read_bytes()
    shot["."] = oct(folder.stat().st_mode)
    shot.pop(LOCK, None)          # kg's lock: the pid of the last build that held it
    return shot


def _outputs(folder: Path) -> dict[str, bytes]:
    """kg's deterministic outputs (the store's database files are the engine's own)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and "store" not in p.relative_to(folder).parts
            and not p.name.startswith(".kg-lock")}


@pytest.fixture
def listing(tmp_path) -> Path:
    path = tmp_path / "in" / "listing.txt"
    path.parent.mkdir()
    path.write_text(LISTING, encoding="utf-8")
    return path


# ------------------------------------------------------------ pure functions


def test_manifest_round_trip_and_bad_manifest(tmp_path):
    m = Manifest(("graph.ttl", "plots/", "store/"))
    assert Manifest.from_json(m.to_json()) == m
    (tmp_path / MANIFEST).write_text('{"entries": "graph.ttl"}')
    with pytest.raises(OutputFolderError, match="not a kg manifest"):
        buildfolder.read_manifest(tmp_path)


def test_files_named_like_outputs_without_a_manifest_are_the_users(tmp_path):
    (tmp_path / "graph.ttl").write_text("x")
    (tmp_path / "store").mkdir()
    (tmp_path / "README.md").write_text("placeholder")
    assert buildfolder.read_manifest(tmp_path) is None
    assert buildfolder.foreign_entries(tmp_path) == ["graph.ttl", "store/"]
    with pytest.raises(OutputFolderError, match=r"holds files kg did not write \(graph.ttl"):
        buildfolder.check_target(tmp_path)


def test_build_folder_readers(tmp_path):
    from kg.build.read import load_build, read_report, read_summary
    from kg.errors import KgError

    for read in (load_build, read_report, read_summary):
        with pytest.raises(KgError, match="kg build -o"):
            read(tmp_path)
    (tmp_path / outputs.REPORT_JSON).write_text('{"kind": "kg report", "extra": 1}')
    with pytest.raises(KgError, match="not a kg report"):
        read_report(tmp_path)


def _sealed(folder: Path, files: dict[str, str]) -> Path:
    staged = buildfolder.new_staging(folder)
    for name, text in files.items():
        (staged / name).parent.mkdir(parents=True, exist_ok=True)
        (staged / name).write_text(text)
    buildfolder.seal(staged)
    return staged


def test_publish_replaces_only_what_the_manifest_lists(tmp_path):
    buildfolder.publish(_sealed(tmp_path, {"report.md": "1", "graph.nt": "1",
                                           "plots/p.png": "1"}), tmp_path)
    (tmp_path / "mine.html").write_text("saved view")
    buildfolder.publish(_sealed(tmp_path, {"report.md": "2", "plots/q.png": "2"}), tmp_path)
    assert (tmp_path / "report.md").read_text() == "2"
    assert not (tmp_path / "graph.nt").exists()           # the old build's, not written now
    assert [p.name for p in (tmp_path / "plots").iterdir()] == ["q.png"]
    assert (tmp_path / "mine.html").read_text() == "saved view"
    assert buildfolder.read_manifest(tmp_path).entries == ("plots/", "report.md")
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "mine.html", "plots",
                                                          "report.md"]


def test_publish_never_overwrites_a_file_it_did_not_write(tmp_path):
    buildfolder.publish(_sealed(tmp_path, {"report.md": "1"}), tmp_path)
    (tmp_path / "authors.csv").write_text("the user's")
    staged = _sealed(tmp_path, {"report.md": "2", "authors.csv": "kg's"})
    with pytest.raises(OutputFolderError, match=r"names of its outputs \(authors.csv\)"):
        buildfolder.publish(staged, tmp_path)
    assert (tmp_path / "authors.csv").read_text() == "the user's"
    assert (tmp_path / "report.md").read_text() == "1"


def test_seal_refuses_a_name_kg_does_not_list(tmp_path):
    staged = buildfolder.new_staging(tmp_path)
    (staged / "stray.txt").write_text("x")
    with pytest.raises(OutputFolderError, match="outputs kg does not list"):
        buildfolder.seal(staged)


def test_recover_finishes_a_sealed_build_and_drops_an_unsealed_one(tmp_path):
    buildfolder.publish(_sealed(tmp_path, {"report.md": "1", "summary.json": "1"}), tmp_path)
    staged = _sealed(tmp_path, {"report.md": "2", "summary.json": "2"})
    (tmp_path / buildfolder.PUBLISHING).write_text("1\n")
    os.replace(staged / "report.md", tmp_path / "report.md")   # died half-way through publishing
    with pytest.raises(OutputFolderError, match="mid-publish"):
        buildfolder.check_readable(tmp_path)
    unsealed = buildfolder.new_staging(tmp_path)
    (unsealed / "report.md").write_text("half")
    buildfolder.recover(tmp_path)
    assert (tmp_path / "report.md").read_text() == "2"
    assert (tmp_path / "summary.json").read_text() == "2"
    assert not list(tmp_path.glob(".kg-staging-*"))
    buildfolder.check_readable(tmp_path)


# ------------------------------------------------------------ kg build


def test_folder_with_user_files_is_refused_and_left_byte_identical(tmp_path, listing):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.md").write_text("my notes\n")
    (out / "data").mkdir()
    (out / "data" / "x.csv").write_text("1,2\n")
    os.chmod(out, 0o751)
    before = _snapshot(out)
    t0 = time.perf_counter()
    r = _kg("build", "-o", str(out), str(listing))
    assert r.returncode == 2
    assert r.stderr.strip() == (f"kg: error: {out} holds files kg did not write (data/, notes.md);"
                                " choose an empty folder")
    assert time.perf_counter() - t0 < 20          # refused before any work
    assert _snapshot(out) == before


def test_rebuild_keeps_a_saved_view_and_the_folder_mode(tmp_path, listing):
    out = tmp_path / "out"
    out.mkdir()
    os.chmod(out, 0o755)
    assert _kg("build", "-q", "-o", str(out), "--rdf-format", "nt", str(listing)).returncode == 0
    r = _kg("viz", "entity", "LoRA", "-o", str(out / "lora.html"), "--from", str(out))
    assert r.returncode == 0, r.stderr
    view = (out / "lora.html").read_bytes()
    first = _outputs(out)
    assert "graph.nt" in first
    r = _kg("build", "-q", "-o", str(out), str(listing))
    assert r.returncode == 0, r.stderr
    assert (out / "lora.html").read_bytes() == view
    assert not (out / "graph.nt").exists()              # the old build's output, not written now
    second = _outputs(out)
    listings = ("graph.nt", "index.html", MANIFEST, "lora.html")   # these name graph.nt
    assert ({k: v for k, v in first.items() if k not in listings}
            == {k: v for k, v in second.items() if k not in listings})
    assert b"graph.nt" in first["index.html"] and b"graph.nt" not in second["index.html"]
    assert "lora.html" not in buildfolder.read_manifest(out).entries
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert not [p for p in out.iterdir() if p.name.startswith((".kg-staging", ".kg-old"))]


@pytest.mark.parametrize("make, message", [
    (lambda d: (d / "f").write_text("x"), "{t} is a file, not a folder"),
    (lambda d: (d / "f").symlink_to("missing"), "{t} is a symbolic link to missing, which does"),
    (lambda d: ((d / "x").write_text("x"), (d / "f").symlink_to("x")), "{t} is a file"),
    (lambda d: (d / "x").write_text("x"), "cannot make {t}: {d}/x is a file"),
])
def test_odd_targets_are_refused_up_front(tmp_path, listing, make, message):
    make(tmp_path)
    target = tmp_path / "f" if "cannot make" not in message else tmp_path / "x" / "sub"
    before = _snapshot(tmp_path)
    r = _kg("build", "-o", str(target), str(listing))
    assert r.returncode == 2
    assert r.stderr.startswith("kg: error: " + message.format(t=target, d=tmp_path))
    assert len(r.stderr.strip().splitlines()) == 1
    assert _snapshot(tmp_path) == before


@pytest.mark.parametrize("target", [".", "./", "..", "/"])
def test_dot_targets_refused_in_a_folder_with_files(tmp_path, listing, target):
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.md").write_text("x")
    before = _snapshot(tmp_path)
    r = _kg("build", "-o", target, str(listing), cwd=work)
    assert r.returncode == 2 and "holds files kg did not write" in r.stderr
    assert "Traceback" not in r.stderr
    if target != "/":
        assert _snapshot(tmp_path) == before


def test_dot_target_works_in_an_empty_folder_and_through_a_link(tmp_path, listing):
    work = tmp_path / "work"
    work.mkdir()
    r = _kg("build", "-q", "-o", ".", str(listing), cwd=work)
    assert r.returncode == 0, r.stderr
    assert (work / "graph.ttl").is_file() and (work / MANIFEST).is_file()
    link = tmp_path / "link"
    link.symlink_to(work)
    r = _kg("build", "-q", "-o", str(link), str(listing))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and (work / "graph.ttl").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "link", "work"]


def test_read_only_folder(tmp_path, listing):
    out = tmp_path / "ro"
    out.mkdir()
    os.chmod(out, 0o555)
    r = _kg("build", "-q", "-o", str(out), str(listing))
    if os.geteuid() == 0:       # root writes anyway, and so does kg; the mode stays
        assert r.returncode == 0, r.stderr
    else:
        assert r.returncode == 2 and r.stderr.strip() == f"kg: error: {out} is not writable"
    assert stat.S_IMODE(out.stat().st_mode) == 0o555


def test_input_without_a_readable_paper_leaves_the_previous_build(tmp_path, listing):
    out = tmp_path / "out"
    assert _kg("build", "-q", "-o", str(out), str(listing)).returncode == 0
    before = _snapshot(out)
    for content in ("", "论文检索\n\n\x00junk\n", "just one line of nothing\n"):
        junk = tmp_path / "junk.txt"
        junk.write_text(content)
        r = _kg("build", "-q", "-o", str(out), str(junk))
        assert r.returncode == 1, r.stderr
        assert "no readable paper in" in r.stderr and "left as it was" in r.stderr
        assert _snapshot(out) == before


@pytest.mark.parametrize("mask, file_mode, dir_mode", [(0o022, 0o644, 0o755),
                                                      (0o077, 0o600, 0o700)])
def test_modes_follow_the_umask(tmp_path, listing, mask, file_mode, dir_mode):
    out = tmp_path / "new" / "out"
    r = _kg("build", "-q", "-o", str(out), str(listing), umask=mask)
    assert r.returncode == 0, r.stderr
    modes = {p.relative_to(tmp_path).as_posix(): stat.S_IMODE(p.stat().st_mode)
             for p in [tmp_path / "new", *(tmp_path / "new").rglob("*")]}
    odd = {k: oct(v) for k, v in modes.items()
           if v != (dir_mode if (tmp_path / k).is_dir() else file_mode)}
    assert not odd


def _wait_for(pred, timeout: float = 60.0) -> None:
    t0 = time.perf_counter()
    while not pred():
        assert time.perf_counter() - t0 < timeout, "timed out"
        time.sleep(0.05)


def _staging_has(out: Path, name: str) -> bool:
    return any((s / name).exists() for s in out.glob(".kg-staging-*"))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_killed_build_leaves_previous_output_and_no_staging(tmp_path, listing, icml_txt, sig):
    out = tmp_path / "out"
    assert _kg("build", "-q", "-o", str(out), str(listing)).returncode == 0
    before = _snapshot(out)
    proc = _kg("build", "-q", "-o", str(out), str(icml_txt), wait=False)
    _wait_for(lambda: _staging_has(out, "corpus.jsonl"))   # parsed; extraction under way
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    after = _snapshot(out)
    if sig == signal.SIGTERM:
        assert proc.returncode == 143 and err.strip() == "kg: terminated"
        assert after == before                     # staging removed on the way out
    else:
        assert proc.returncode == -signal.SIGKILL
        stale = [k for k in after if k.startswith(".kg-staging-") and "/" not in k]
        assert len(stale) == 1
        assert {k: v for k, v in after.items() if not k.startswith(".kg-staging-")} == before
    r = _kg("build", "-q", "-o", str(out), str(listing))
    assert r.returncode == 0, r.stderr
    assert not [p for p in out.iterdir() if p.name.startswith((".kg-staging", ".kg-old"))]
    assert _outputs(out).keys() == {k for k in before if not k.startswith(".") and
                                    "store" not in k and k != "plots"} | {MANIFEST}


def test_concurrent_builds_one_wins_the_other_is_told(tmp_path, listing, icml_txt):
    out = tmp_path / "out"
    first = _kg("build", "-q", "-o", str(out), str(icml_txt), wait=False)
    _wait_for(lambda: (out / LOCK).is_file() and (out / LOCK).read_text().strip()
              == str(first.pid))
    second = _kg("build", "-q", "-o", str(out), str(listing))
    assert second.returncode == 2
    assert second.stderr.strip() == (f"kg: error: {out} is being built by another kg (pid "
                                     f"{first.pid}); wait for it to end or choose another folder")
    _, err = first.communicate(timeout=600)
    assert first.returncode == 0, err
    assert (out / MANIFEST).is_file()
    from kg.build.read import load_build

    assert len(load_build(out).corpus.papers) > 2000


def test_mount_point_is_built_into_in_place(tmp_path, listing):
    from tests.conftest import unavailable

    mnt = tmp_path / "mnt"
    mnt.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "kgtest", str(mnt)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        unavailable(f"cannot mount a tmpfs to test a mount point: {mounted.stderr.strip()}")
    try:
        for _ in range(2):                    # a first build and a rebuild
            r = _kg("build", "-q", "-o", str(mnt), str(listing))
            assert r.returncode == 0, r.stderr
        assert (mnt / "graph.ttl").is_file() and os.path.ismount(mnt)
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


def test_viz_into_a_folder_and_refused_links(tmp_path, listing):
    out = tmp_path / "out"
    assert _kg("build", "-q", "-o", str(out), str(listing)).returncode == 0
    views = tmp_path / "views"
    views.mkdir()
    r = _kg("viz", "entities", "-o", str(views), "--from", str(out))
    assert r.returncode == 0, r.stderr
    assert (views / "entities.html").is_file()
    (tmp_path / "dangling.html").symlink_to("nowhere/x.html")
    r = _kg("viz", "entities", "-o", str(tmp_path / "dangling.html"), "--from", str(out))
    assert r.returncode == 2
    assert r.stderr.strip().endswith("is a symbolic link to nowhere/x.html, which does not exist")
    target = views / "kept.html"
    target.write_text("old")
    (tmp_path / "link.html").symlink_to(target)
    assert _kg("viz", "entities", "-o", str(tmp_path / "link.html"),
               "--from", str(out)).returncode == 0
    assert (tmp_path / "link.html").is_symlink() and target.read_text().startswith("<")


def test_folders_beside_the_output_are_never_touched(tmp_path):
    """Hidden siblings named like the staging folders of earlier kg are the user's now:
    nothing inside them proves kg made them."""
    out = tmp_path / "output"
    old_staging = tmp_path / ".output.building-ab12cd34"
    old_staging.mkdir()
    (old_staging / "corpus.jsonl").write_text("{}\n")
    (old_staging / "store").mkdir()
    swapped = tmp_path / ".output.old-4242"
    swapped.mkdir()
    (swapped / "graph.ttl").write_text("")
    before = _snapshot(tmp_path)
    out.mkdir()
    with buildfolder.locked(out):
        buildfolder.recover(out)
    after = _snapshot(tmp_path)
    assert {k: v for k, v in after.items() if not k.startswith("output")} == before
