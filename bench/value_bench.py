"""What checking a query's names against the graph costs, on a built store.

For each kind of name parameter (author, concept, entity, entity type, paper, track),
with a value the graph holds (picked from it) and the same value misspelt, prints
side by side: the query's own time, the one lookup that confirms a name (run only
when the answer is empty; tracks and papers given by name are made canonical
before every query), and the error path that reads the graph's names and ranks the
closest (run only for a name the graph does not hold). Best of ``--repeat``.

Usage::

    python bench/value_bench.py /tmp/icml24/store

It prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from query_bench import timed  # noqa: E402  (the same best-of timer)


def best(fn, repeat: int) -> tuple[float, object]:
    """Best seconds of ``repeat`` calls of ``fn`` (an error counts as its result)."""
    def caught() -> object:
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - the error path is what is timed
            return exc
    return timed(caught, repeat)


def misspell(text: str) -> str:
    """``text`` with one letter dropped from its middle."""
    i = len(text) // 2
    return text[:i] + text[i + 1:]


def main(argv: list[str] | None = None) -> int:
    from kg import queries
    from kg.queries.values import resolve_values
    from kg.store.embedded import EmbeddedStore

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", help="a store folder (a build's store/)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    store = EmbeddedStore(args.store)

    def one(sparql: str) -> str:
        rows = queries.run(store, sparql).values()
        return str(rows[0][0]) if rows else "x"

    author = one("SELECT ?n WHERE { ?a kgo:paperCount ?k ; kgo:trackCount ?t ; schema:name ?n } "
                 "ORDER BY DESC(?k) ?n LIMIT 1")
    concept = one("SELECT ?n WHERE { ?c a kgo:Concept ; skos:prefLabel ?n ; kgo:paperCount ?k } "
                  "ORDER BY DESC(?k) ?n LIMIT 1")
    entity = one("SELECT ?n WHERE { ?e a kgo:Model ; skos:prefLabel ?n ; kgo:paperCount ?k } "
                 "ORDER BY DESC(?k) ?n LIMIT 1")
    proposed = one("SELECT ?n WHERE { ?p kgo:proposes ?e . ?e skos:prefLabel ?n } "
                   "ORDER BY ?n LIMIT 1")
    track = one("SELECT ?l WHERE { ?t a kgo:Track ; rdfs:label ?l ; kgo:paperCount ?k } "
                "ORDER BY DESC(?k) LIMIT 1")
    cases = [("papers-of-author", "author", author), ("top-concepts", "concept", concept),
             ("papers-mentioning", "entity", entity), ("top-entities", "type", "model"),
             ("paper-authors", "paper", proposed), ("top-concepts", "track", track)]
    print(f"{args.store}: {store.count():,} triples; {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print("| query | parameter | value | query ms | lookup ms (a held name) "
          "| misspelt | error path ms | message |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: | --- |")
    for name, param, value in cases:
        if value == "x" and param == "track":
            print(f"| {name} | {param} | (the graph has no tracks) | | | | | |")
            continue
        bound = queries.prepare(name, {param: value})
        types = {p.name: p.type for p in bound.query.params}
        q_sec, _ = best(lambda b=bound: queries.run(store, b), args.repeat)
        l_sec, _ = best(lambda b=bound, t=types: resolve_values(store, t, dict(b.given),
                                                                dict(b.bindings)), args.repeat)
        bad = misspell(value) if param != "type" else "models"
        e_sec, err = best(lambda n=name, v={param: bad}: queries.run(store, n, v), args.repeat)
        print(f"| {name} | {param} | {value[:30]} | {1000 * q_sec:.2f} | {1000 * l_sec:.2f} | "
              f"{bad[:30]} | {1000 * e_sec:.1f} | {str(err)[:90]} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
