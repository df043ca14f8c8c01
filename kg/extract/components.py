"""kg's spaCy components, registered with ``@Language.factory``.

Each is thin, in the style of scispaCy's abbreviation detector: ``__call__``
runs a pure matching function from its module and stores the result on the
``Doc``. ``kg_mentions`` puts the pieces together (see :mod:`kg.extract.resolve`).
"""
from __future__ import annotations

from functools import lru_cache

from spacy.attrs import IDX, LENGTH
from spacy.language import Language
from spacy.tokens import Doc

from kg.extract import acronyms, discover, gazetteer, proposals, resolve, ruler
from kg.extract.normalise import entity_key

for _name in ("kg_words", "kg_matches", "kg_acronyms", "kg_proposals", "kg_discovered",
              "kg_mentions", "kg_aliases"):
    if not Doc.has_extension(_name):
        Doc.set_extension(_name, default=None)


def _words(doc: Doc) -> tuple[list[str], list[int], set[int], str]:
    """Token texts, offsets, sentence-start token indices and the text, once per doc
    (read through arrays: making a Token object per token is the slow part)."""
    if doc._.kg_words is None:
        text = doc.user_data.get("kg_text")
        if text is None:
            text = doc.text
        arr = doc.to_array([IDX, LENGTH]).tolist()
        offsets = [a[0] for a in arr]
        words = [text[a: a + n] for a, n in arr]
        starts = {0} | {i + 1 for i, w in enumerate(words) if w in (".", "!", "?")}
        doc._.kg_words = (words, offsets, starts, text)
    return doc._.kg_words


@lru_cache(maxsize=4)
def _first_keys(directory: str | None) -> frozenset[str]:
    """Tokenised with a throw-away pipeline of the same rules, so the real one's
    vocabulary and caches do not fill up with 40,000 gazetteer spellings."""
    from kg.extract.tokenizer import blank

    tok = blank().tokenizer
    return ruler.first_keys(gazetteer.load(directory), lambda t: [x.text for x in tok(t)])


class GazetteerRuler:
    def __init__(self, nlp: Language, name: str, directory: str | None):
        self.gaz = gazetteer.load(directory)
        self.starts = _first_keys(directory)

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, sent_starts, text = _words(doc)
        doc._.kg_matches = ruler.match(words, offsets, text, self.gaz, sent_starts, self.starts)
        return doc


class AcronymDetector:
    def __init__(self, nlp: Language, name: str):
        pass

    def __call__(self, doc: Doc) -> Doc:
        doc._.kg_acronyms = acronyms.find_acronyms(_words(doc)[3])
        return doc


class ProposalDetector:
    def __init__(self, nlp: Language, name: str, directory: str | None):
        gaz = gazetteer.load(directory)
        self.known = lambda n: gaz.lookup(entity_key(n)) is not None
        self.known.__doc__ = "Is this name in the gazetteer?"

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, _, text = _words(doc)
        doc._.kg_proposals = proposals.find_proposals(text, doc._.kg_acronyms or (), self.known,
                                                      words, offsets)
        return doc


class NameDiscoverer:
    def __init__(self, nlp: Language, name: str):
        pass

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, _, _ = _words(doc)
        taken: set[int] = set()
        known: dict[int, str] = {}
        for m in doc._.kg_matches or ():
            for i in range(m.token_start, m.token_end):
                taken.add(i)
                known[i] = m.form.entity.type
        doc._.kg_discovered = discover.discover(words, offsets, taken, known)
        return doc


class MentionResolver:
    def __init__(self, nlp: Language, name: str, directory: str | None, keep_untyped: bool):
        self.gaz = gazetteer.load(directory)
        self.keep_untyped = keep_untyped

    def __call__(self, doc: Doc) -> Doc:
        words, offsets, _, text = _words(doc)
        doc._.kg_mentions, doc._.kg_aliases = resolve.resolve(
            text, words, offsets, doc._.kg_matches or [], doc._.kg_acronyms or [],
            doc._.kg_proposals or [], doc._.kg_discovered or [], self.gaz, self.keep_untyped)
        return doc


@Language.factory("kg_gazetteer", default_config={"directory": None})
def make_gazetteer_ruler(nlp: Language, name: str, directory: str | None):
    return GazetteerRuler(nlp, name, directory)


@Language.factory("kg_acronyms")
def make_acronym_detector(nlp: Language, name: str):
    return AcronymDetector(nlp, name)


@Language.factory("kg_proposals", default_config={"directory": None})
def make_proposal_detector(nlp: Language, name: str, directory: str | None):
    return ProposalDetector(nlp, name, directory)


@Language.factory("kg_discover")
def make_name_discoverer(nlp: Language, name: str):
    return NameDiscoverer(nlp, name)


@Language.factory("kg_mentions", default_config={"directory": None, "keep_untyped": True})
def make_mention_resolver(nlp: Language, name: str, directory: str | None, keep_untyped: bool):
    return MentionResolver(nlp, name, directory, keep_untyped)
