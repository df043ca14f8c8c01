"""kg's spaCy components, registered with ``@Language.factory``.

Each is thin, in the style of scispaCy's abbreviation detector: ``__call__``
runs a pure matching function from its module and stores the result on the
``Doc``. ``kg_mentions`` puts the pieces together (see :mod:`kg.extract.resolve`);
``kg_concepts`` adds the concepts of :mod:`kg.extract.concept_vocab` to its mentions (see
:mod:`kg.extract.concept_finder`).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import compress, islice
from typing import Any

from kg.extract.leanspacy import import_spacy

import_spacy()   # spaCy without its command-line interface (leanspacy: why), then its parts
from spacy.attrs import IDX, ORTH  # noqa: E402
from spacy.language import Language  # noqa: E402
from spacy.tokens import Doc  # noqa: E402

from kg.extract import (
    acronyms,
    candidates,
    concept_filter,
    concept_finder,
    discover,
    emphasis,
    gazetteer,
    modifiers,
    proposals,
    resolve,
    ruler,
)
from kg.identity import entity_key, singular_key
from kg.models import Mention

# Results live in ``doc.user_data`` under these names and are readable as
# ``doc._.kg_mentions`` etc.; the components read and write the dict directly
# (each ``doc._`` access builds an object, which adds up over a corpus).
NAMES = ("kg_words", "kg_matches", "kg_acronyms", "kg_proposals", "kg_discovered", "kg_mentions",
         "kg_aliases", "kg_concepts")


def _getter(name: str) -> Callable[[Doc], Any]:
    """The getter of ``doc._.<name>``: the result under ``name`` in ``doc.user_data``."""
    def get(doc: Doc) -> Any:
        return doc.user_data.get(name)
    return get


for _name in NAMES:
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, getter=_getter(_name))


_STOPS = frozenset(".!?")


def _words(doc: Doc) -> tuple[list[str], list[int], set[int], str]:
    """Token texts, offsets, sentence-start token indices and the text, once per doc
    (read through arrays: making a Token object per token is the slow part; a
    token's text comes from its ORTH hash through a cache, which is cheaper than
    slicing the text)."""
    got = doc.user_data.get("kg_words")
    if got is None:
        text = doc.user_data.get("kg_text")
        if text is None:
            text = doc.text
        arr = doc.to_array([ORTH, IDX])
        orths = arr[:, 0].tolist()
        offsets = arr[:, 1].tolist()
        try:
            words = list(map(_ORTH_TEXT.__getitem__, orths))
        except KeyError:
            if len(_ORTH_TEXT) > 500_000:
                _ORTH_TEXT.clear()
            strings = doc.vocab.strings
            for h in set(orths).difference(_ORTH_TEXT):
                _ORTH_TEXT[h] = strings[h]
            words = list(map(_ORTH_TEXT.__getitem__, orths))
        starts = {0, *compress(range(1, len(words) + 1), map(_STOPS.__contains__, words))}
        got = doc.user_data["kg_words"] = (words, offsets, starts, text)
    return got


_ORTH_TEXT: dict[int, str] = {}


def _first_keys(directory: str | None, tokenizer: Callable[[str], Doc]) -> frozenset[str]:
    """First-token keys of every spelling, tokenised as the pipeline does."""
    from pathlib import Path

    from spacy.about import __version__ as spacy_version

    from kg.extract.tokenizer import split_simple
    from kg.util.cache import cached

    specials = frozenset(getattr(tokenizer, "rules", None) or ())
    paths = sorted((Path(directory) if directory else gazetteer.gazetteer_dir()).glob("*.jsonl"))
    return cached("first-keys", paths, lambda: ruler.first_keys(
        gazetteer.load(directory),
        lambda t: split_simple(t, specials) or [x.text for x in tokenizer(t)]),
        extra=f"spacy {spacy_version}; {sorted(specials)}")


def _concept_tables(directory: str | None) -> tuple[concept_finder.ConceptIndex, modifiers.Modifiers]:
    """The concept index and the modifier lists with the vocabulary's words
    (from the start-up cache: building them was most of the pipeline's load)."""
    from importlib.resources import files
    from pathlib import Path

    from kg.extract.concept_vocab import concepts_dir
    from kg.util.cache import cached

    index = concept_finder.cached_index(directory)
    paths = [*sorted((Path(directory) if directory else concepts_dir()).glob("*.jsonl")),
             Path(str(files("kg") / "data" / "concept_modifiers.txt"))]
    return index, cached("concept-modifiers", paths, lambda: modifiers.with_vocabulary(
        modifiers.load(), (f for c in index.vocab.concepts.values() for f in (c.label, *c.forms))))


class _Component:
    """Components take a stream a batch at a time, each running over the
    whole batch before handing it on: doc by doc, the five components evict
    each other's tables from the CPU caches (slower: bench/RESULTS.md)."""

    def __call__(self, doc: Doc) -> Doc:
        raise NotImplementedError

    def pipe(self, docs: Iterable[Doc], batch_size: int = 256) -> Iterator[Doc]:
        docs = iter(docs)
        while batch := list(islice(docs, batch_size)):
            yield from [self(doc) for doc in batch]


class GazetteerRuler(_Component):
    def __init__(self, nlp: Language, name: str, directory: str | None):
        self.gaz = gazetteer.load(directory)
        self.starts = _first_keys(directory, nlp.tokenizer)

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, sent_starts, text = _words(doc)
        doc.user_data["kg_matches"] = ruler.match(words, offsets, text, self.gaz, sent_starts,
                                                  self.starts)
        return doc


class AcronymDetector(_Component):
    def __init__(self, nlp: Language, name: str):
        pass

    def __call__(self, doc: Doc) -> Doc:
        doc.user_data["kg_acronyms"] = acronyms.find_acronyms(_words(doc)[3])
        return doc


class ProposalDetector(_Component):
    def __init__(self, nlp: Language, name: str, directory: str | None):
        gaz = gazetteer.load(directory)

        fields = discover.not_entities()

        def known(name: str) -> bool:
            """Would the gazetteer match this name as written? (case rules
            included: "Maestro" is not the MAESTRO dataset) Or is it a field,
            a piece of hardware or a phrase ("AI", "GPU", "SoTA") that no paper
            proposes?"""
            if name in fields:
                return True
            form = gaz.lookup(entity_key(name))
            return form is not None and ruler.surface_ok(name, form, False)

        self.known = known
        self.known_key = lambda name: gaz.lookup(entity_key(name)) is not None

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, _, text = _words(doc)
        set_apart = doc.user_data.get("kg_emphasis", ()) + emphasis.quoted(text)
        doc.user_data["kg_proposals"] = proposals.find_proposals(
            text, doc.user_data.get("kg_acronyms") or (), self.known, words, offsets, set_apart,
            self.known_key)
        return doc


class NameDiscoverer(_Component):
    def __init__(self, nlp: Language, name: str):
        pass

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, _, _ = _words(doc)
        taken: set[int] = set()
        known: dict[int, str] = {}
        for m in doc.user_data.get("kg_matches") or ():
            for i in range(m.token_start, m.token_end):
                taken.add(i)
                known[i] = m.form.entity.type
        doc.user_data["kg_discovered"] = discover.discover(words, offsets, taken, known)
        return doc


class MentionResolver(_Component):
    def __init__(self, nlp: Language, name: str, directory: str | None, keep_untyped: bool):
        self.gaz = gazetteer.load(directory)
        self.keep_untyped = keep_untyped

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, _, text = _words(doc)
        ud = doc.user_data
        ud["kg_mentions"], ud["kg_aliases"] = resolve.resolve(
            text, words, offsets, ud.get("kg_matches") or [], ud.get("kg_acronyms") or [],
            ud.get("kg_proposals") or [], ud.get("kg_discovered") or [], self.gaz,
            self.keep_untyped)
        return doc


class ConceptFinder(_Component):
    """Concept matches (``kg_concepts``), merged into ``kg_mentions``: runs
    after the resolver, whose entity mentions it may turn into concepts."""

    def __init__(self, nlp: Language, name: str, directory: str | None,
                 gazetteer_directory: str | None, keywords: bool = False):
        self.index, self.modifiers = _concept_tables(directory)
        # the candidate chunker and the learned filter (concept_filter): keyword mentions
        self.keywords = (candidates.load_tables(), (concept_filter.load_tables(),
                                                    concept_filter.load_model())) \
            if keywords else None
        gaz = gazetteer.load(gazetteer_directory)

        def known(m: Mention) -> bool:
            """Is a mention a gazetteer entry written by one of its names (not
            only reached through an acronym the abstract defines)?"""
            f = gaz.lookup(entity_key(m.text)) or gaz.lookup(singular_key(entity_key(m.text)))
            return f is not None and f.entity.key == m.key

        self.known = known

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, starts, text = _words(doc)
        ud = doc.user_data
        mentions = ud.get("kg_mentions") or ()
        pairs = ud.get("kg_acronyms") or ()
        found = concept_finder.find(words, offsets, self.index, pairs)
        if found:   # modifiers that narrow a concept join its mention, not an entity's
            found = modifiers.extend(words, offsets, found, self.modifiers,
                                     [(m.start, m.end) for m in mentions if m.layer == "entity"],
                                     [(p.long_start, p.long_end) for p in pairs])
        ud["kg_concepts"] = found
        ud["kg_mentions"] = concept_finder.merge(text, mentions, found, self.index, self.known)
        if self.keywords:
            ud["kg_mentions"] = concept_filter.keyword_mentions(
                text, words, offsets, starts, ud["kg_mentions"], pairs, *self.keywords)
        return doc


@Language.factory("kg_gazetteer", default_config={"directory": None})
def make_gazetteer_ruler(nlp: Language, name: str, directory: str | None) -> GazetteerRuler:
    return GazetteerRuler(nlp, name, directory)


@Language.factory("kg_acronyms")
def make_acronym_detector(nlp: Language, name: str) -> AcronymDetector:
    return AcronymDetector(nlp, name)


@Language.factory("kg_proposals", default_config={"directory": None})
def make_proposal_detector(nlp: Language, name: str, directory: str | None) -> ProposalDetector:
    return ProposalDetector(nlp, name, directory)


@Language.factory("kg_discover")
def make_name_discoverer(nlp: Language, name: str) -> NameDiscoverer:
    return NameDiscoverer(nlp, name)


@Language.factory("kg_mentions", default_config={"directory": None, "keep_untyped": True})
def make_mention_resolver(nlp: Language, name: str, directory: str | None, keep_untyped: bool
                          ) -> MentionResolver:
    return MentionResolver(nlp, name, directory, keep_untyped)


@Language.factory("kg_concepts", default_config={"directory": None, "gazetteer_directory": None,
                                                 "keywords": False})
def make_concept_finder(nlp: Language, name: str, directory: str | None,
                        gazetteer_directory: str | None, keywords: bool) -> ConceptFinder:
    return ConceptFinder(nlp, name, directory, gazetteer_directory, keywords)
