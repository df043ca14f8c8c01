"""The build's counts: one number per thing counted, one name per number.

:func:`build_counts` counts a :class:`~kg.models.Build` once into
:class:`BuildCounts`; ``summary.json``, ``report.json``/``.md``/``.html`` and
``index.html`` show that record, the views and the ``dataset-summary`` query
show the same names with the same numbers. Two figures that count different
things have different names: ``author_names`` (names as written) is not
``people`` (names that are one person's), ``authorships`` (names listed on
papers) is not ``paper_person_links`` (a name listed twice on a paper counts
once), ``mention_occurrences`` (every occurrence, entities and concepts) is
not ``paper_entity_links`` (an entity once per paper). :data:`MEANINGS` says
what each counts; the report prints it as its glossary.

Examples
--------
>>> from kg.models import Corpus, Extraction, Mention, Paper
>>> p = Paper("1", ("Ann Lee", "ann  lee", "Bob"), "BERT and BERT")
>>> ms = (Mention("BERT", "BERT", "model", 0, 4, key="bert"),
...       Mention("BERT", "BERT", "model", 9, 13, key="bert"))
>>> c = build_counts(Build(Corpus((p,)), {"1": Extraction("1", p.abstract, ms)}))
>>> c.author_names, c.people, c.authorships, c.paper_person_links, c.coauthor_pairs
(3, 2, 3, 2, 1)
>>> c.mention_occurrences, c.entities_mentioned, c.paper_entity_links
(2, 1, 1)
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, fields

from kg.analysis.graphs import paper_author_keys
from kg.analysis.records import Record
from kg.identity import normalise_text
from kg.models import Build
from kg.util.teams import MAX_LINKED_TEAM, links_pairs

__all__ = ["BuildCounts", "MEANINGS", "build_counts", "count_label"]


@dataclass(frozen=True)
class BuildCounts(Record):
    """The counts of a build; :data:`MEANINGS` says what each field counts."""

    entries: int
    papers: int
    merged: int
    skipped: int
    warnings: int
    author_names: int
    people: int
    authorships: int
    paper_person_links: int
    coauthor_pairs: int
    repeat_coauthor_pairs: int
    truncated_author_lists: int
    papers_with_track: int
    tracks: int
    papers_extracted: int
    papers_with_entity_mentions: int
    mention_occurrences: int
    entity_mentions: int
    concept_mentions: int
    proposed_mentions: int
    papers_proposing: int
    entities_mentioned: int
    concepts_mentioned: int
    paper_entity_links: int
    paper_concept_links: int
    acronyms: int
    acronym_definitions: int
    entities_by_type: Mapping[str, int]
    entity_mentions_by_type: Mapping[str, int]
    concept_mentions_by_type: Mapping[str, int]

    def numbers(self) -> dict[str, int]:
        """The whole-build counts (the ``*_by_type`` breakdowns left out), in field order."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if isinstance(getattr(self, f.name), int)}


#: What each count of :class:`BuildCounts` counts (the report's glossary).
MEANINGS: dict[str, str] = {
    "entries": "entries read from the listings, duplicates included",
    "papers": "unique papers, after merging duplicate entries",
    "merged": "entries that repeated an earlier paper and were merged into it",
    "skipped": "entries that could not be read (each has a warning)",
    "warnings": "problems reported while reading the listings",
    "author_names": "distinct author names exactly as written (two spellings of one name count twice)",
    "people": "distinct people: names equal but for case, spacing and Unicode form count once "
              "(after the people file); the nodes of the co-authorship network, the rows of "
              "authors.csv, the schema:Person nodes of the graph",
    "authorships": "author names as papers list them: a paper of five authors adds five "
                   "(kgo:Authorship)",
    "paper_person_links": "distinct (paper, person) pairs: authorships less any name a paper "
                          "lists twice (schema:author links)",
    "coauthor_pairs": "pairs of people who share a paper: the links of the co-authorship "
                      f"network (papers of more than {MAX_LINKED_TEAM} authors link none)",
    "repeat_coauthor_pairs": "co-author pairs with two or more joint papers (kgo:Collaboration)",
    "truncated_author_lists": "papers whose listing cut the author list short",
    "papers_with_track": "papers the listing puts in a track",
    "tracks": "distinct tracks papers are in (an area no paper is directly in is not counted)",
    "papers_extracted": "papers whose abstract went through extraction",
    "papers_with_entity_mentions": "papers mentioning at least one entity",
    "mention_occurrences": "every occurrence of an entity or concept in the abstracts "
                           "(oa:Annotation): entity_mentions + concept_mentions",
    "entity_mentions": "occurrences of named entities (models, methods, datasets, ...)",
    "concept_mentions": "occurrences of concepts of the vocabulary (fields, tasks, model "
                        "classes, ...)",
    "proposed_mentions": "occurrences of a name the paper itself proposes",
    "papers_proposing": "papers proposing at least one name",
    "entities_mentioned": "distinct entities mentioned by at least one paper (families "
                          "the graph adds but no paper names are not counted)",
    "concepts_mentioned": "distinct concepts mentioned by at least one paper (their broader "
                          "concepts in the graph are not counted)",
    "paper_entity_links": "distinct (paper, entity) pairs: an entity counts once per paper",
    "paper_concept_links": "distinct (paper, concept) pairs: a concept counts once per paper",
    "acronyms": "distinct acronyms with their long form (kgo:Acronym)",
    "acronym_definitions": "(paper, acronym) pairs: each paper defining an acronym once",
    "entities_by_type": "entities_mentioned by type",
    "entity_mentions_by_type": "entity_mentions by type",
    "concept_mentions_by_type": "concept_mentions by concept type",
}


def count_label(name: str) -> str:
    """How an output writes a count's name: its underscores as spaces.

    >>> count_label("paper_person_links")
    'paper person links'
    """
    return name.replace("_", " ")


def _people_counts(build: Build) -> dict[str, int]:
    """The counts of authors, people and who wrote with whom."""
    corpus = build.corpus
    per_paper = [paper_author_keys(p) for p in corpus.papers]
    pairs: Counter[tuple[str, str]] = Counter()
    for keys in per_paper:
        if links_pairs(len(keys)):
            ranked = sorted(keys)
            pairs.update((a, b) for i, a in enumerate(ranked) for b in ranked[i + 1:])
    return {
        "author_names": len(corpus.authors),
        "people": len({k for keys in per_paper for k in keys}),
        "authorships": sum(len(p.authors) for p in corpus.papers),
        "paper_person_links": sum(len(keys) for keys in per_paper),
        "coauthor_pairs": len(pairs),
        "repeat_coauthor_pairs": sum(1 for n in pairs.values() if n >= 2),
    }


def _mention_counts(build: Build) -> dict[str, object]:
    """The counts of what the abstracts mention."""
    entity_types: dict[str, str] = {}
    concepts: set[str] = set()
    by_layer: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
    links = {True: 0, False: 0}
    proposed = with_entities = proposing = 0
    acronyms: set[tuple[str, str]] = set()
    definitions = 0
    for ex in build.extractions.values():
        seen: set[tuple[bool, str]] = set()
        for m in ex.mentions:
            is_concept = m.layer == "concept"
            key = m.key if is_concept else m.identity_key
            by_layer[is_concept][m.type] += 1
            proposed += m.proposed
            if is_concept:
                concepts.add(key)
            else:
                entity_types.setdefault(key, m.type)
            seen.add((is_concept, key))
        for is_concept, _ in seen:
            links[is_concept] += 1
        with_entities += any(not c for c, _ in seen)
        proposing += bool(ex.proposed)
        defined = {(normalise_text(a.short), normalise_text(a.long)) for a in ex.aliases}
        acronyms |= defined
        definitions += len(defined)
    return {
        "papers_extracted": len(build.extractions),
        "papers_with_entity_mentions": with_entities,
        "mention_occurrences": sum(by_layer[False].values()) + sum(by_layer[True].values()),
        "entity_mentions": sum(by_layer[False].values()),
        "concept_mentions": sum(by_layer[True].values()),
        "proposed_mentions": proposed,
        "papers_proposing": proposing,
        "entities_mentioned": len(entity_types),
        "concepts_mentioned": len(concepts),
        "paper_entity_links": links[False],
        "paper_concept_links": links[True],
        "acronyms": len(acronyms),
        "acronym_definitions": definitions,
        "entities_by_type": dict(sorted(Counter(entity_types.values()).items())),
        "entity_mentions_by_type": dict(sorted(by_layer[False].items())),
        "concept_mentions_by_type": dict(sorted(by_layer[True].items())),
    }


def build_counts(build: Build) -> BuildCounts:
    """Count ``build`` once: papers, people, mentions (the one home of every count).

    Parameters
    ----------
    build : kg.models.Build
        The corpus and its extractions (without extractions the extraction
        counts are 0).

    Returns
    -------
    BuildCounts
        What :data:`MEANINGS` describes.
    """
    corpus = build.corpus
    return BuildCounts(
        entries=corpus.entries,
        papers=len(corpus.papers),
        merged=corpus.merged,
        skipped=corpus.skipped,
        warnings=len(corpus.warnings),
        truncated_author_lists=sum(p.authors_truncated for p in corpus.papers),
        papers_with_track=sum(p.track is not None for p in corpus.papers),
        tracks=len({p.track.label for p in corpus.papers if p.track is not None}),
        **_people_counts(build),  # type: ignore[arg-type]
        **_mention_counts(build),  # type: ignore[arg-type]
    )
