"""A paper's name: the one label every output gives a paper.

:func:`paper_label` is the only place a paper's display name is made: the RDF
mapping's ``rdfs:label`` (and so the queries' ``?label``), the knowledge
graph's node ``label`` (GraphML, GEXF), the HTML views (tables, headings,
tooltips), ``papers.csv`` and the report all show it. In order:

1. the paper's title, when the listing gives one (JSON, CSV, BibTeX; the
   text listing has none);
2. else the name the paper proposes, when the proposal is sure
   (:func:`sure_name`), with its authors: ``ToMoE — Gao et al.``;
3. else its authors and the first words of its abstract that carry content:
   ``Lee & Xu — sparse attention long videos``.

The label lives in ``kg.extract`` because what is sure about a proposal is
the extractor's knowledge (the gazetteer of known names); every user of the
label (analysis, rdf, viz, report) sits above it.

Examples
--------
>>> from kg.models import Mention
>>> p = Paper(id="x", authors=("Shangqian Gao", "Ting Hua"), abstract="We propose ToMoE.")
>>> ex = Extraction("x", "We propose ToMoE.", (Mention("ToMoE", "ToMoE", "method", 11, 16, True),))
>>> paper_label(p, ex)
'ToMoE — Gao & Hua'
>>> paper_label(Paper(id="y", authors=("Ann Lee",), abstract="In this paper, we study sparse "
...                   "attention for long videos. It works."))
'Lee — sparse attention long videos'
"""
from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from kg.extract.cleanup import NAMING_CUES
from kg.identity import entity_key, singular_key
from kg.models import Extraction, Mention, Paper

__all__ = ["SENTENCE_BREAK", "cite_label", "content_words", "is_sure", "paper_label", "sure_name"]

_DASH = " — "
_WORD = re.compile(r"[^\W_][\w'’-]*")
#: where one sentence ends and the next begins (the views' tooltips split at it too)
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")
# one word, coined: a capital that is not (only) its first letter, or a digit
# with a letter ("ToMoE", "HSTU", "Fed3R", "t-PatchGNN", "PDHG-Net")
_COINED = re.compile(r"^(?=\S*[A-Za-z])(?:\S+[A-Z]\S*|\S*\d\S*)$")
# one capitalised word that may be a coinage or an ordinary word ("Larimar", "Seesaw")
_TITLE_WORD = re.compile(r"^[A-Z][a-z]{3,}$")
# ordinary words joined by hyphens ("Fast-Sampling", "Best-fit"): a phrase, not a coinage
_HYPHENED_WORDS = re.compile(r"^[A-Z]?[a-z]+(?:-[A-Z]?[a-z]+)+$")
# a short acronym says too little to name a paper ("NN", "GR", "CDs")
_SHORT_ACRONYM = re.compile(r"^[A-Z]{1,2}s?$")
_MINOR = frozenset(("of", "and", "for", "the", "with", "in", "on", "to", "a", "an", "by", "via",
                    "as", "at", "from", "your", "is"))
# a naming cue glued to the name ("calledNeuroBack": the cleaner splits them; a
# build extracted before it did still labels its papers right)
_GLUED_CUE = re.compile(rf"^(?:{'|'.join(NAMING_CUES)})[A-Z]")


@lru_cache(maxsize=1)
def _adjective() -> re.Pattern[str]:
    """The proposal detector's test of a hyphenated adjective or a name's fragment
    (it refuses them; a build extracted before it did still labels its papers right)."""
    from kg.extract.proposals.lexicon import load_lexicon
    from kg.extract.proposals.record import adjective_pattern

    return adjective_pattern(load_lexicon())


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    text = (files("kg") / "data" / "label_stopwords.txt").read_text(encoding="utf-8")
    return frozenset(w.strip().casefold() for w in text.splitlines()
                     if w.strip() and not w.lstrip().startswith("#"))


def content_words(sentence: str, n: int = 5) -> list[str]:
    """The first ``n`` words of ``sentence`` that carry content (not in
    ``kg/data/label_stopwords.txt``, not one character long).

    Examples
    --------
    >>> content_words("In this paper, we propose a novel sparse attention for long videos.")
    ['sparse', 'attention', 'long', 'videos']
    """
    stop = _stopwords()
    words = [w for w in _WORD.findall(sentence) if len(w) > 1 and w.casefold() not in stop]
    return words[:n]


def _surname(name: str) -> str:
    parts = name.split()
    return parts[-1].strip(",;") if parts else ""


def cite_label(authors: tuple[str, ...] | list[str], truncated: bool = False) -> str:
    """A citation-style label: ``Lee``, ``Lee & Xu`` or ``Lee et al.`` ("" with no author).

    Examples
    --------
    >>> cite_label(("Ann Lee",)), cite_label(("Ann Lee", "Bob Xu")), cite_label(())
    ('Lee', 'Lee & Xu', '')
    >>> cite_label(("Ann Lee",), truncated=True), cite_label(("A B", "C D", "E F"))
    ('Lee et al.', 'B et al.')
    """
    names = [n for n in authors if n.strip()]
    if not names:
        return ""
    if len(names) == 1 and not truncated:
        return _surname(names[0])
    if len(names) == 2 and not truncated:
        return f"{_surname(names[0])} & {_surname(names[1])}"
    return f"{_surname(names[0])} et al."


def _title_case_name(name: str) -> bool:
    """Two to four words, each capitalised but the minor ones ("Audio Flamingo",
    "Algorithm of Thoughts")."""
    words = name.split()
    return 2 <= len(words) <= 4 and words[0][:1].isupper() and all(
        w in _MINOR or w[:1].isupper() or w[:1].isdigit() for w in words)


def _shape_ok(name: str) -> bool:
    """Is ``name`` shaped like a name a paper coins (not a fragment, an adjective,
    a phrase or a bare acronym of one or two letters)?"""
    if (_SHORT_ACRONYM.match(name) or _GLUED_CUE.match(name) or _HYPHENED_WORDS.match(name)
            or _adjective().search(name)):
        return False
    if " " in name:
        return _title_case_name(name)
    return bool(_COINED.match(name) or _TITLE_WORD.match(name))


def _known(name: str) -> tuple[bool, bool]:
    """(known to the gazetteer or as a field or abbreviation, known as a generic
    class of models)."""
    from kg.extract.discover import not_entities
    from kg.extract.gazetteer import load

    if name in not_entities():
        return True, False
    gaz = load()
    key = entity_key(name)
    form = gaz.lookup(key) or gaz.lookup(singular_key(key))
    if form is None:
        return False, False
    return True, form.entity.kind == "model class"


def is_sure(m: Mention) -> bool:
    """Is a proposed mention sure enough to name its paper? An entity (not a
    concept; of any type: a benchmark, metric or law the paper coins names it too),
    shaped like a coined name (:func:`_shape_ok`),
    not a generic class of models or a field; a known (gazetteer) name only
    where the paper writes it as that name (not "low-rank" read as LoRA).

    Examples
    --------
    >>> is_sure(Mention("ToMoE", "ToMoE", "method", 0, 5, True))
    True
    >>> [is_sure(Mention(t, c, "method", 0, 1, True)) for t, c in (("NN", "NN"),
    ...  ("quasi-Monte", "quasi-Monte"), ("GNN-based", "GNN-based"), ("low-rank", "LoRA"))]
    [False, False, False, False]
    """
    if not m.proposed or m.layer != "entity":
        return False
    name = m.canonical
    if not _shape_ok(name):
        return False
    known, generic = _known(name)
    if generic:
        return False
    return not known or entity_key(m.text) in (entity_key(name), singular_key(entity_key(name)))


def sure_name(extraction: Extraction | None) -> str | None:
    """The name a paper is known by: the first name it proposes that
    :func:`is_sure` accepts, a coined name before a known one ("AutoLoRa"
    before the LoRA it builds on); None when there is none."""
    if extraction is None:
        return None
    first_known: str | None = None
    for m in extraction.mentions:
        if m.proposed and is_sure(m):
            if not _known(m.canonical)[0]:
                return m.canonical
            first_known = first_known or m.canonical
    return first_known


def _short_text(abstract: str) -> str:
    first = SENTENCE_BREAK.split(" ".join(abstract.split()), maxsplit=1)[0]
    return " ".join(content_words(first))


def paper_label(paper: Paper, extraction: Extraction | None = None) -> str:
    """The label of a paper everywhere kg shows one (see the module docstring):
    its title; else its sure proposed name and its authors; else its authors
    and the first content words of its abstract; the paper id if none of these
    has any text.

    Examples
    --------
    >>> paper_label(Paper(id="p", authors=(), abstract="", title="  A   Title "))
    'A Title'
    >>> paper_label(Paper(id="p", authors=("Ann Lee", "Bo Xu", "Cy Wu"),
    ...                   abstract="Transformers scale. More."))
    'Lee et al. — Transformers scale'
    """
    if paper.title and paper.title.strip():
        return " ".join(paper.title.split())
    cite = cite_label(paper.authors, paper.authors_truncated)
    name = sure_name(extraction)
    if name:
        return f"{name}{_DASH}{cite}" if cite else name
    if extraction is not None and extraction.abstract:
        words = _short_text(extraction.abstract)
    else:
        from kg.extract.cleanup import clean

        words = _short_text(clean(paper.abstract))
    if cite and words:
        return f"{cite}{_DASH}{words}"
    return cite or words or paper.id
