"""Put the adjudicated batches of issue 29 together into concept sets, one a venue.

    python3 tests/data/devset/concepts/assemble.py

Writes ``<set>.jsonl`` (adjudicated, the sets' format) and ``<set>_a.jsonl``,
``<set>_b.jsonl`` (each annotator's own, for ``agreement.py``) from
``batches/<venue>-<k>*.jsonl``, in batch order.
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: set name -> the venue prefix of its batches (see draw.py)
SETS = {"iclr23_big": "iclr23", "icml24_big": "icml24", "cvpr23_big": "cvpr23",
        "icml23_big": "icml23", "neurips20_blind": "neurips20_held"}


def batches(prefix: str) -> list[str]:
    names = {p.name.split(".")[0] for p in (HERE / "batches").glob(f"{prefix}-*.input.jsonl")}
    return sorted(names, key=lambda n: int(n.rsplit("-", 1)[1]))


def main() -> None:
    for name, prefix in SETS.items():
        for suffix, out in (("", f"{name}.jsonl"), (".a", f"{name}_a.jsonl"),
                            (".b", f"{name}_b.jsonl")):
            rows = []
            for b in batches(prefix):
                for line in (HERE / "batches" / f"{b}{suffix}.jsonl").read_text(
                        encoding="utf-8").splitlines():
                    if line.strip():
                        row = json.loads(line)
                        if suffix == "":
                            row["split"] = name
                        rows.append(json.dumps(row, ensure_ascii=False))
            (HERE / out).write_text("\n".join(rows) + "\n", encoding="utf-8")
        print(name, len(rows), "abstracts")


if __name__ == "__main__":
    main()
