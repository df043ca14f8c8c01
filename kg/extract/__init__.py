"""Mentions of models, methods and datasets, and what each paper proposes.

>>> from kg.extract import extract_texts
>>> ex = extract_texts(["We propose ToMoE, a method that turns LLaMA-2 into a "
...                     "Mixture-of-Experts (MoE) model."])[0]
>>> [(m.text, m.canonical, m.layer, m.proposed) for m in ex.mentions]
[('ToMoE', 'ToMoE', 'entity', True), ('LLaMA-2', 'LLaMA-2', 'entity', False), ('Mixture-of-Experts', 'mixture of experts', 'concept', False), ('MoE', 'mixture of experts', 'concept', False)]

(MoE is a concept too, the gazetteer's Mixture-of-Experts: one node.)
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from kg.extract.cleanup import clean, formulas_left
from kg.models import (
    EXTRACT_CHARS,
    Corpus,
    CorpusExtraction,
    Extraction,
    JsonObject,
    ParseWarning,
)
from kg.util.parallel import SERIAL, Parallelism

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

    from kg.extract.concept_vocab import ConceptVocab
    from kg.util.progress import Progress

PIPES = ("kg_gazetteer", "kg_acronyms", "kg_proposals", "kg_discover", "kg_mentions", "kg_concepts")
BATCH = 256   # docs per component pass: larger batches keep caches warm


def make_nlp(model: str | None = None, concepts: str | None = None,
             keywords: bool = False) -> Language:
    """The extraction pipeline: ``spacy.blank("en")`` with kg's tokenizer and
    components. ``model`` names an installed statistical spaCy pipeline to
    start from instead (optional; never required); ``concepts`` a folder of
    concept files to use instead of kg's (:func:`kg.extract.concept_vocab.load`);
    ``keywords`` adds the learned filter's keyword mentions (layer ``"keyword"``,
    :mod:`kg.extract.concept_filter`; opt-in: about 1 ms an abstract more).

    The collector is off while the pipeline loads (the tables it unpickles or
    builds are millions of objects that live as long as the process, which
    each full collection walked again), and those objects are then moved out
    of its sight (``gc.freeze``), so that collections triggered by each
    document's small objects stay cheap."""
    import gc

    enabled = gc.isenabled()
    gc.disable()
    try:
        nlp = _load(model, concepts, keywords)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()
    return nlp


def _load(model: str | None, concepts: str | None, keywords: bool = False) -> Language:
    """:func:`make_nlp`'s work."""
    from kg.extract.leanspacy import import_spacy

    spacy = import_spacy()
    from kg.extract import components  # noqa: F401  (registers the factories)
    from kg.extract.tokenizer import TextKeepingTokenizer, blank, customise

    if model:
        nlp: Language = spacy.load(model, exclude=["ner", "lemmatizer", "textcat"])
        customise(nlp)
    else:
        nlp = blank()
        # No component reads a lexeme's attributes (norm, shape, like_num, ...):
        # only ORTH and IDX. Computing them for each new word was a third of
        # the tokenizer's time on a corpus (a statistical model needs them).
        nlp.vocab.lex_attr_getters = {}  # type: ignore[attr-defined]  # not in spaCy's Vocab stub
    nlp.tokenizer = TextKeepingTokenizer(nlp.tokenizer)
    # spaCy refuses texts over 1,000,000 characters (for the parser's and NER's
    # memory, which this pipeline has not): an abstract of any size is text
    nlp.max_length = 2**31 - 1
    for name in PIPES:
        config: dict[str, object] = {}
        if name == "kg_concepts":
            if concepts:
                config["directory"] = concepts
            if keywords:
                config["keywords"] = True
        nlp.add_pipe(name, config=config)
    return nlp


@lru_cache(maxsize=2)
def _nlp(model: str | None = None, concepts: str | None = None,
         keywords: bool = False) -> Language:
    return make_nlp(model, concepts, keywords)


def _extraction(paper_id: str, doc: Doc, text: str) -> Extraction:
    """The extraction of ``doc``; ``text`` is the whole clean abstract (the doc may hold
    only its first :data:`~kg.models.EXTRACT_CHARS`)."""
    return Extraction(paper_id=paper_id, abstract=text,
                      mentions=tuple(doc.user_data.get("kg_mentions") or ()),
                      aliases=tuple(dict.fromkeys(doc.user_data.get("kg_aliases") or ())))


def _head(text: str, limit: int = EXTRACT_CHARS) -> str:
    """What extraction reads of ``text``: all of it, or its first ``limit`` characters
    cut at a space (a word is not cut in two).

    >>> _head("one two three", 9)
    'one two'
    """
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit + 1)
    return text[:cut if cut > 0 else limit]


def _clean(raw: str) -> str:
    """The clean text of an abstract; past :data:`~kg.models.EXTRACT_CHARS`, which
    extraction does not read, only its white space is folded (LaTeX kept as written)."""
    head = _head(raw)
    if len(head) == len(raw):
        return clean(raw)
    return f"{clean(head)} {' '.join(raw[len(head):].split())}".strip()


def _docs(nlp: Language, texts: Sequence[str], raws: Sequence[str]) -> Iterator[Doc]:
    """Docs of the clean texts, each holding the phrases its abstract as written
    sets in emphasis (which cleaning removes; see :mod:`kg.extract.emphasis`)."""
    from kg.extract.emphasis import emphasised

    for text, raw in zip(texts, raws, strict=True):
        doc = nlp.make_doc(_head(text))   # (a long text's head is cut again: cleaning
        # may have shortened it, so the doc reads at most EXTRACT_CHARS either way)
        phrases = emphasised(_head(raw))
        if phrases:
            doc.user_data["kg_emphasis"] = phrases
        yield doc


def extract_texts(raw_abstracts: Sequence[str], ids: Sequence[str] | None = None,
                  model: str | None = None, concepts: str | None = None,
                  keywords: bool = False) -> list[Extraction]:
    """Clean and extract a list of abstracts (as written), in one process
    (``concepts``, ``keywords``: see :func:`make_nlp`)."""
    ids = ids or [str(i) for i in range(len(raw_abstracts))]
    nlp = _nlp(model, concepts, keywords)
    texts = [_clean(a) for a in raw_abstracts]
    return [_extraction(pid, doc, text) for pid, doc, text in
            zip(ids, nlp.pipe(_docs(nlp, texts, raw_abstracts), batch_size=BATCH), texts,
                strict=True)]


def _work(chunk: tuple[list[str], list[str], bool]) -> CorpusExtraction:
    """Extract one chunk (ids, abstracts, keywords?), timing the CPU seconds spent
    cleaning and in spaCy."""
    import time

    ids, raws, keywords = chunk
    nlp = _nlp(None, None, keywords)
    t0 = time.process_time()
    texts = [_clean(a) for a in raws]
    t1 = time.process_time()
    out = tuple(_extraction(pid, doc, text) for pid, doc, text in
                zip(ids, nlp.pipe(_docs(nlp, texts, raws), batch_size=BATCH), texts, strict=True))
    return CorpusExtraction(out, t1 - t0, time.process_time() - t1)


def extract_chunks(corpus: Corpus, parallelism: Parallelism = SERIAL,
                   progress: Progress | None = None,
                   chunk_size: int = 256,
                   keywords: bool = False) -> Iterator[CorpusExtraction]:
    """The extractions of a corpus's papers, ``chunk_size`` papers at a time, in corpus
    order, as they are done: on ``parallelism.cores`` processes
    (:func:`kg.util.child.ordered_map`); ``keywords``: see :func:`make_nlp`."""
    from kg.util.child import ordered_map

    papers = corpus.papers
    chunks = [([p.id for p in papers[i:i + chunk_size]],
               [p.abstract for p in papers[i:i + chunk_size]], keywords)
              for i in range(0, len(papers), chunk_size)]
    track = (progress.track if progress else (lambda it, description, total=None: it))
    if parallelism.cores > 1 and len(chunks) > 1:
        _nlp(None, None, keywords)  # load once here: forked workers share it instead of each loading it
    done = ordered_map(_work, chunks, parallelism.cores)
    yield from track(done, description="extracting mentions", total=len(chunks))


def extract_corpus(corpus: Corpus, parallelism: Parallelism = SERIAL,
                   progress: Progress | None = None,
                   chunk_size: int = 256, keywords: bool = False) -> CorpusExtraction:
    """Extractions of every paper of a corpus, in corpus order, with the CPU seconds
    spent (:func:`extract_chunks` collected; ``keywords``: see :func:`make_nlp`)."""
    extractions: list[Extraction] = []
    clean_seconds = extract_seconds = 0.0
    for chunk in extract_chunks(corpus, parallelism, progress, chunk_size, keywords):
        extractions += chunk.extractions
        clean_seconds += chunk.clean_seconds
        extract_seconds += chunk.extract_seconds
    return CorpusExtraction(tuple(extractions), clean_seconds, extract_seconds)


def with_cleaning_warnings(corpus: Corpus) -> Corpus:
    """``corpus`` with :func:`cleaning_warnings` added to its warnings."""
    extra = cleaning_warnings(corpus)
    return replace(corpus, warnings=corpus.warnings + extra) if extra else corpus


def cleaning_warnings(corpus: Corpus) -> tuple[ParseWarning, ...]:
    """A warning, at the paper's first listing, for each abstract with formulas
    too long or too deeply nested to convert (they are kept as written).

    >>> from kg.parse import parse_text
    >>> c = parse_text("Ada Lovelace\\n\\nWe bound $" + "\\\\frac{" * 17 + "$ in this paper well.\\n")
    >>> [str(w) for w in cleaning_warnings(c)]
    ['<text>:1: 1 LaTeX formula too long or too deeply nested to convert; kept as written']
    """
    out = []
    for paper in corpus.papers:
        n = formulas_left(paper.abstract)
        if n:
            src = paper.sources[0] if paper.sources else None
            out.append(ParseWarning(src.file if src else "<text>", src.line if src else 1,
                                    f"{n} LaTeX formula{'s' if n > 1 else ''} too long or too "
                                    "deeply nested to convert; kept as written"))
    return tuple(out)


def extraction_to_json(ex: Extraction, vocab: ConceptVocab | None = None) -> JsonObject:
    """The ``kg extract`` record of one paper: :meth:`kg.models.Extraction.to_json`, each
    concept mention with its broader concepts in the hierarchy (nearest first, every
    level), so a search for "reinforcement learning" finds the paper that wrote
    "offline reinforcement learning". ``vocab`` defaults to kg's vocabulary.

    :meth:`~kg.models.Extraction.from_json` reads the record back (``broader`` is
    the vocabulary's, not the paper's, so it is not kept).

    >>> from kg.models import Mention
    >>> ex = Extraction("00ab", "We use offline RL.", (Mention(
    ...     "offline RL", "offline reinforcement learning", "task", 7, 17,
    ...     key="offline-reinforcement-learning", layer="concept"),))
    >>> extraction_to_json(ex)["mentions"][0]["broader"][0]
    {'key': 'reinforcement-learning', 'label': 'reinforcement learning'}
    >>> Extraction.from_json(extraction_to_json(ex)) == ex
    True
    """
    record = ex.to_json()
    if vocab is None:
        from kg.extract.concept_finder import cached_index

        vocab = cached_index().vocab
    mentions = record["mentions"]
    assert isinstance(mentions, list)
    for m, obj in zip(ex.mentions, mentions, strict=True):
        if m.layer == "concept" and m.key in vocab.concepts and isinstance(obj, dict):
            obj["broader"] = [{"key": b, "label": vocab.concepts[b].label}
                              for b in vocab.ancestors(m.key)]
    return record
