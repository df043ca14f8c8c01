"""Draw the abstracts of the large concept sets (issue 29), seeded.

Every abstract longer than 200 characters that is in no earlier set (any
``tests/data/devset/**/*.jsonl``, matched on the text) may be drawn. Writes
``batches/<set>-<k>.input.jsonl``, one ``{"id", "abstract"}`` a line, 40 a
batch. NeurIPS 2020 is the held-aside venue: no set drawn for training comes
from it.

Run: python3 tests/data/devset/concepts/draw.py ../shared/corpora
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20261204
BATCH = 40
#: set name -> (truth file, id prefix, abstracts drawn)
PLAN = {
    "iclr23": ("iclr_2023_all.truth.jsonl", "iclr23", 240),
    "icml24": ("icml_2024_all.truth.jsonl", "icml24", 240),
    "cvpr23": ("cvpr_2023_all.truth.jsonl", "cvpr23", 200),
    "icml23": ("icml_2023_all.truth.jsonl", "icml23", 200),
    "neurips20_held": ("neurips_2020_all.truth.jsonl", "neurips20", 160),
}


def seen_abstracts(root: Path) -> set[str]:
    seen = set()
    for path in root.rglob("*.jsonl"):
        if "batches" in path.parts:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                if "abstract" in row:
                    seen.add(" ".join(row["abstract"].split()))
    return seen


def main(corpora: Path) -> None:
    seen = seen_abstracts(HERE.parent)
    rng = random.Random(SEED)
    out = HERE / "batches"
    out.mkdir(exist_ok=True)
    for name, (truth, prefix, count) in PLAN.items():
        rows = [json.loads(x) for x in (corpora / truth).read_text(encoding="utf-8").splitlines() if x]
        pool = [r for r in rows if len(r["abstract"]) > 200 and " ".join(r["abstract"].split()) not in seen]
        drawn = rng.sample(pool, count)
        for k in range(0, count, BATCH):
            with (out / f"{name}-{k // BATCH + 1}.input.jsonl").open("w", encoding="utf-8") as fh:
                for r in drawn[k:k + BATCH]:
                    fh.write(json.dumps({"id": f"{prefix}-{r['index']}", "abstract": r["abstract"]}, ensure_ascii=False) + "\n")
        print(name, len(pool), "in the pool,", count, "drawn")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
