"""What a view's tooltips need to know about a build, computed once.

:class:`BuildIndex` maps papers, people, tracks and entities to the plain
text the views show: a paper's authors, track, entities and the first
sentences of its clean abstract; a person's papers and tracks; an entity's
type, spellings and papers.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import cached_property
from itertools import chain
from typing import Any

from kg.analysis.graphs import paper_author_keys
from kg.extract.labels import content_words, paper_label
from kg.identity import person_key
from kg.models import Build, Paper
from kg.viz.style import first_sentences, join_limited, track_labels

__all__ = ["BuildIndex", "EntityRef", "content_words", "paper_nos"]

EntityRef = tuple[str, str, str, bool]  # (key, canonical, type, proposed)


def paper_nos(papers_of: dict[str, list[str]], key: str, paper_no: dict[str, int]) -> list[int]:
    """Indices into a view's paper table of ``key``'s papers that the view has.

    >>> paper_nos({"a": ["p2", "p9"]}, "a", {"p1": 0, "p2": 1})
    [1]
    """
    return [paper_no[pid] for pid in papers_of.get(key, ()) if pid in paper_no]


class BuildIndex:
    """Look-ups over one :class:`~kg.models.Build` for labels and tooltips.

    Examples
    --------
    >>> from kg.models import Corpus, Extraction, Mention, Track
    >>> p = Paper("p1", ("Ann Lee", "Bob Xu"), "We use BERT. It works.", track=Track("ML", "NLP"))
    >>> b = Build(Corpus((p,)), {"p1": Extraction("p1", p.abstract,
    ...     (Mention("BERT", "BERT", "model", 7, 11, key="bert"),))})
    >>> ix = BuildIndex(b)
    >>> print(ix.paper_tooltip("p1"))
    Lee & Xu — BERT
    id: p1
    Authors: Ann Lee, Bob Xu
    Track: ML · NLP
    Entities: BERT
    <BLANKLINE>
    We use BERT. It works.
    >>> ix.paper_tracks("p1"), ix.person_tracks("ann lee")
    (('ML · NLP', 'ML'), ('ML', 'ML · NLP'))
    """

    def __init__(self, build: Build) -> None:
        self.build = build
        self.papers: dict[str, Paper] = {p.id: p for p in build.corpus.papers}
        self._person_tracks: dict[str, tuple[str, ...]] = {}
        self._labels: dict[str, str] = {}

    @cached_property
    def paper_order(self) -> dict[str, int]:
        """Paper id -> its position in the corpus (sort papers with it)."""
        return {pid: i for i, pid in enumerate(self.papers)}

    def in_corpus_order(self, pids: Iterable[str]) -> list[str]:
        """``pids`` (distinct paper ids) sorted in corpus order."""
        return sorted(pids, key=self.paper_order.__getitem__)

    # ------------------------------------------------------------ papers

    def abstract(self, pid: str) -> str:
        """The clean abstract (the extractor's, else :func:`kg.extract.cleanup.clean`)."""
        ex = self.build.extractions.get(pid)
        if ex is not None and ex.abstract:
            return ex.abstract
        from kg.extract.cleanup import clean

        return clean(self.papers[pid].abstract)

    @cached_property
    def paper_entities(self) -> dict[str, list[EntityRef]]:
        """Each paper's distinct entities in order of first mention."""
        out: dict[str, list[EntityRef]] = {}
        for pid, ex in self.build.extractions.items():
            seen: dict[str, EntityRef] = {}
            for m in ex.mentions:
                if m.layer == "concept":  # concepts are no entities (the views draw entities)
                    continue
                key = m.identity_key
                old = seen.get(key)
                if old is None:
                    seen[key] = (key, m.canonical, m.type, m.proposed)
                elif m.proposed and not old[3]:
                    seen[key] = (*old[:3], True)
            out[pid] = list(seen.values())
        return out

    @cached_property
    def _paper_tracks(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for pid, p in self.papers.items():
            t = p.track
            out[pid] = () if t is None else (t.label, t.area) if t.subarea else (t.area,)
        return out

    def paper_tracks(self, pid: str) -> tuple[str, ...]:
        """The paper's track label and, for a subarea, its area."""
        return self._paper_tracks[pid]

    def paper_row(self, pid: str) -> list[Any]:
        """A row of a view's paper table: ``[id, label, track labels]``
        (:func:`kg.viz.assemble.assemble` turns the labels into indices)."""
        return [pid, self.paper_label(pid), list(self._paper_tracks[pid])]

    def paper_label(self, pid: str) -> str:
        """The paper's label (:func:`kg.extract.labels.paper_label`: the one every
        output gives it); a view's canvas shows it cut short (:func:`kg.viz.style.short_label`).

        Examples
        --------
        >>> from kg.models import Corpus
        >>> p = Paper("p", ("Ann Lee", "Bo Xu"), "In this work we study sparse attention for video.")
        >>> BuildIndex(Build(Corpus((p,)))).paper_label("p")
        'Lee & Xu — sparse attention video'
        """
        # each view's paper table and tooltips ask for the same labels: make each once
        label = self._labels.get(pid)
        if label is None:
            label = self._labels[pid] = paper_label(self.papers[pid], self.build.extractions.get(pid))
        return label

    def paper_search(self, pid: str) -> str:
        """More text the search box matches for a paper: proposed names and every author."""
        p = self.papers[pid]
        proposed = [c for _, c, _, prop in self.paper_entities.get(pid, ()) if prop]
        return " | ".join([*proposed, *p.authors])

    def paper_tooltip(self, pid: str) -> str:
        p = self.papers[pid]
        lines = [self.paper_label(pid), f"id: {pid}"]
        authors = join_limited(p.authors, 8)
        if p.authors_truncated:
            authors += " (list cut by the site)"
        lines.append(f"Authors: {authors or 'none listed'}")
        if p.track is not None:
            lines.append(f"Track: {p.track.label}")
        ents = [f"{c} (proposed)" if prop else c for _, c, _, prop in self.paper_entities.get(pid, ())]
        if ents:
            lines.append(f"Entities: {join_limited(ents, 10)}")
        lines += ["", first_sentences(self.abstract(pid), 2, 320)]
        return "\n".join(lines)

    # ------------------------------------------------------------ people

    @cached_property
    def person_papers(self) -> dict[str, list[str]]:
        """Person key -> the ids of their papers, in corpus order."""
        out: dict[str, list[str]] = defaultdict(list)
        for p in self.build.corpus.papers:
            for k in paper_author_keys(p):
                out[k].append(p.id)
        return dict(out)

    @cached_property
    def person_names(self) -> dict[str, str]:
        """Person key -> the name as first written."""
        out: dict[str, str] = {}
        for p in self.build.corpus.papers:
            for a in p.authors:
                out.setdefault(person_key(a), " ".join(a.split()))
        return out

    def person_tracks(self, key: str) -> tuple[str, ...]:
        """Tracks (labels and areas) of a person's papers, most frequent first."""
        # asked for twice per person and view (tooltip, search): count once
        out = self._person_tracks.get(key)
        if out is None:
            out = self._person_tracks[key] = self.tracks_of(self.person_papers.get(key, ()))
        return out

    def tracks_of(self, pids: Iterable[str]) -> tuple[str, ...]:
        """Tracks (labels and areas) of the papers ``pids``, most frequent first."""
        c = Counter(chain.from_iterable(map(self._paper_tracks.__getitem__, pids)))
        return tuple(t for t, _ in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))

    def track_summary(self, tracks: tuple[str, ...], top: int = 3) -> str:
        """``Tracks: A; B; C`` for the leading track labels (subareas before areas)."""
        subs = [t for t in tracks if " · " in t] or list(tracks)
        return f"Tracks: {join_limited(subs, top, '; ')}" if subs else "Tracks: none listed"

    def person_tooltip(self, key: str, name: str, extra: tuple[str, ...] = ()) -> str:
        n = len(self.person_papers.get(key, ()))
        lines = [name, f"{n} paper{'s' if n != 1 else ''} in this build", *extra,
                 self.track_summary(self.person_tracks(key))]
        return "\n".join(lines)

    # ---------------------------------------------------------- entities

    @cached_property
    def entity_papers(self) -> dict[str, list[str]]:
        """Entity key -> ids of the papers mentioning it, in corpus order."""
        out: dict[str, list[str]] = defaultdict(list)
        for p in self.build.corpus.papers:
            for key, *_ in self.paper_entities.get(p.id, ()):
                out[key].append(p.id)
        return dict(out)

    @cached_property
    def entity_info(self) -> dict[str, tuple[str, str, Counter[str], int]]:
        """Entity key -> (canonical, type, spellings, papers proposing it)."""
        out: dict[str, tuple[str, str, Counter[str], int]] = {}
        for p in self.build.corpus.papers:
            ex = self.build.extractions.get(p.id)
            if ex is None:
                continue
            proposing: set[str] = set()
            for m in ex.mentions:
                if m.layer == "concept":
                    continue
                key = m.identity_key
                if key not in out:
                    out[key] = (m.canonical, m.type, Counter(), 0)
                out[key][2][m.text] += 1
                if m.proposed:
                    proposing.add(key)
            for key in proposing:
                c, t, s, n = out[key]
                out[key] = (c, t, s, n + 1)
        return out

    def entity_tracks(self, key: str) -> tuple[str, ...]:
        return self.tracks_of(self.entity_papers.get(key, ()))

    def entity_tooltip(self, key: str, extra: tuple[str, ...] = ()) -> str:
        canonical, typ, spellings, proposing = self.entity_info[key]
        n = len(self.entity_papers.get(key, ()))
        lines = [canonical, f"{typ}: mentioned in {n} paper{'s' if n != 1 else ''}"
                 + (f", proposed in {proposing}" if proposing else "")]
        other = [s for s, _ in sorted(spellings.items(), key=lambda kv: (-kv[1], kv[0]))
                 if s != canonical]
        if other:
            lines.append(f"Also written: {join_limited(other, 5)}")
        lines += list(extra)
        lines.append(self.track_summary(self.entity_tracks(key)))
        return "\n".join(lines)

    # ------------------------------------------------------------ tracks

    @cached_property
    def track_counts(self) -> Counter[str]:
        """Track label (and area) -> number of papers."""
        return Counter(chain.from_iterable(self._paper_tracks.values()))

    @cached_property
    def track_names(self) -> dict[str, str]:
        """Track label (and area) -> its node label (:func:`~kg.viz.style.track_labels`:
        a subarea alone where that is unambiguous in this build)."""
        return track_labels(self.track_counts)
