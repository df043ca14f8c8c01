"""``kg push`` against ``kg push --bulk`` on a Virtuoso with default limits, side by side.

For each path the script starts a fresh Virtuoso with ``.ci/start-virtuoso.sh``
(its own database folder under /tmp, free loopback ports, Virtuoso's default
``TransactionAfterImageLimit`` of 50,000,000 bytes), runs ``kg push`` under
``/usr/bin/time -v`` and prints wall time, triples/s, the client's peak RSS,
the server's peak RSS (VmHWM), the switch's seconds and the triples the
server counts afterwards::

    python bench/push_bench.py BUILD_DIR [--batch 100000] [--loaders 2] [--timeout 3600]
                               [--buffers 10000] [--only push|bulk] [--old-kg PATH]

BUILD_DIR is a ``kg build`` folder (``--rdf-format nt`` gives the graph.nt
the push streams).
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kg.store.remote import RemoteStore  # noqa: E402

SCRIPT = ROOT / ".ci" / "start-virtuoso.sh"
GRAPH = "https://w3id.org/paper-kg/bench/push"


def _peak_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def run(mode: str, build: Path, kg: str, batch: int, loaders: int, timeout: float,
        buffers: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="kg-pushbench-"))
    env = {**os.environ, "KG_VIRTUOSO_BUFFERS": str(buffers)}
    try:
        url = subprocess.run(["bash", str(SCRIPT), str(folder)], check=True, text=True, env=env,
                             capture_output=True, timeout=600).stdout.strip().splitlines()[-1]
        pid = int((folder / "virtuoso.pid").read_text())
        cmd = ["/usr/bin/time", "-v", kg, "push", "--endpoint", url, "--graph", GRAPH,
               "--user", "dba", "--password", "dba", "--from", str(build),
               "--timeout", str(timeout)]
        if mode != "old":
            cmd += ["--batch", str(batch)]
        if mode == "bulk":
            cmd += ["--bulk", str(folder / "bulk"), "--loaders", str(loaders)]
        t0 = time.monotonic()
        proc = subprocess.run(cmd, text=True, capture_output=True)
        wall = time.monotonic() - t0
        err = proc.stderr
        rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
        said = next((ln for ln in err.splitlines() if ln.startswith("kg:")), "")
        sent = re.search(r"pushed ([\d,]+) triples", said)
        switch = re.search(r"switched in ([\d.]+) s", said)
        try:
            count: int | None = RemoteStore(url, graph=GRAPH, timeout=600).count()
        except Exception:  # noqa: BLE001 - a bench shows what it got
            count = None
        return {"mode": mode, "ok": proc.returncode == 0, "wall": wall,
                "triples": int(sent.group(1).replace(",", "")) if sent else 0,
                "client_mib": int(rss.group(1)) / 1024 if rss else 0.0,
                "server_mib": _peak_kib(pid) / 1024, "switch": float(switch.group(1))
                if switch else None, "count": count, "said": said}
    finally:
        subprocess.run(["bash", str(SCRIPT), "--stop", str(folder)], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", type=Path)
    ap.add_argument("--batch", type=int, default=100_000)
    ap.add_argument("--loaders", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--kg", default=str(Path(sys.executable).with_name("kg")))
    ap.add_argument("--only", choices=["push", "bulk"], default=None)
    ap.add_argument("--old-kg", default=None,
                    help="another kg (e.g. main's before this change) to run first, as 'old'")
    ap.add_argument("--buffers", type=int, default=10000,
                    help="the server's NumberOfBuffers (default: Debian's 10000)")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"NumberOfBuffers {args.buffers}")
    rows = [run(m, args.build, args.old_kg if m == "old" else args.kg, args.batch, args.loaders,
                args.timeout, args.buffers)
            for m in ("old", "push", "bulk")
            if (m == "old" and args.old_kg) or (m != "old" and args.only in (None, m))]
    print(f"{'path':<12}{'ok':>4}{'wall s':>9}{'triples/s':>12}{'client MiB':>12}"
          f"{'server MiB':>12}{'switch s':>10}{'count':>13}")
    for r in rows:
        rate = r["triples"] / r["wall"] if r["wall"] else 0
        name = {"old": "old push", "push": "kg push", "bulk": "--bulk"}[r["mode"]]
        switch = f"{r['switch']:.2f}" if r["switch"] is not None else "-"
        count = f"{r['count']:,}" if r["count"] is not None else "-"
        print(f"{name:<12}{'yes' if r['ok'] else 'NO':>4}{r['wall']:>9.1f}{rate:>12,.0f}"
              f"{r['client_mib']:>12.0f}{r['server_mib']:>12.0f}{switch:>10}{count:>13}")
    for r in rows:
        print(f"  {r['mode']}: {r['said']}")


if __name__ == "__main__":
    main()
