"""A spaCy tokenizer that keeps names whole.

``LLaMA-2``, ``Qwen-2.5``, ``BlockPerm-SJLT``, ``PPI++``, ``GPT-4o``,
``W4A16`` and ``Meta-iLaD`` stay one token; a hyphen before a plain
lower-case word still splits (``LLM-powered`` -> ``LLM - powered``), so the
name inside such a compound can be found.

>>> nlp = blank()
>>> [t.text for t in nlp("LLaMA-2, Qwen-2.5 and PPI++ beat GPT-4o; LLM-powered W4A16 Meta-iLaD.")]
['LLaMA-2', ',', 'Qwen-2.5', 'and', 'PPI++', 'beat', 'GPT-4o', ';', 'LLM', '-', 'powered', 'W4A16', 'Meta-iLaD', '.']
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from kg.extract.leanspacy import import_spacy

spacy = import_spacy()   # without its command-line interface (leanspacy: why)
from spacy.lang.char_classes import ALPHA, ALPHA_LOWER, ALPHA_UPPER, CONCAT_QUOTES, HYPHENS  # noqa: E402
from spacy.language import BaseDefaults, Language  # noqa: E402
from spacy.tokenizer import Tokenizer  # noqa: E402
from spacy.util import compile_infix_regex, compile_suffix_regex  # noqa: E402

if TYPE_CHECKING:
    from spacy.tokens import Doc

# spaCy's English infixes without the letter-hyphen-letter rule, plus ours.
_INFIXES = [
    r"\.\.+",
    r"…",
    r"[\u00a6\u00a9\u00ae\u00b0\u2022]",
    r"(?<=[0-9])[+\-\*^](?=[0-9-])",
    rf"(?<=[{ALPHA_LOWER}{CONCAT_QUOTES}])\.(?=[{ALPHA_UPPER}{CONCAT_QUOTES}])",
    rf"(?<=[{ALPHA}]),(?=[{ALPHA}])",
    # a hyphen splits only before a plain lower-case word: "LLM-powered", "pre-trained"
    rf"(?<=[{ALPHA}0-9)])(?:{HYPHENS})(?=[{ALPHA_LOWER}]{{2,}}(?![{ALPHA}0-9+]))",
    rf"(?<=[{ALPHA}0-9])[:<>=/](?=[{ALPHA}])",
    rf"(?<=[{ALPHA}0-9])\|(?=[{ALPHA}])",   # "ResNet18|MobileNetV2|DeiT-Tiny"
    rf"(?<=[{ALPHA}0-9)])(?:-+>|=>|[→⟶⇒↦])(?=[{ALPHA}0-9(])",   # "TGIF->MSRVTT", "GTA5→Cityscapes"
    r"(?<=[\w)\]])\((?=[\w])",  # "Mixture-of-Experts(MoE)"
]


# spaCy's tokenizer remembers how it split each chunk between spaces, but only
# the first 10,000 chunks it meets: a conference's abstracts have several times
# as many distinct chunks, and with the default the tokenizer split many of them
# again (bench/RESULTS.md). An entry costs about 100 bytes, so the cache stops
# growing at 20 MB.
CACHE_SIZE = 200_000


def _suffix_search(defaults: type[BaseDefaults]) -> Callable[[str], re.Match[str] | None]:
    """spaCy's suffix rules of ``defaults`` (a language's ``Defaults``) with
    kg's changes, compiled."""
    # "PPI++" keeps its pluses: drop a suffix rule for "+" after a letter
    # no unit suffixes: "410M", "7B", "1k" are sizes inside names ("Pythia-410M")
    suffixes = [s for s in defaults.suffixes or ()
                if s != "\\+" and not (isinstance(s, str) and "km" in s)]
    suffixes.append(r"(?<=[A-Za-z][A-Z])\.")  # "Meta-iLaD." ends a sentence
    suffixes.append(r"(?<=[0-9][A-Za-z])\.")  # so does "Pythia 1B."
    search: Callable[[str], re.Match[str] | None] = compile_suffix_regex(suffixes).search
    return search


def customise(nlp: Language) -> Language:
    """Install kg's infix and suffix rules on ``nlp``'s tokenizer (spaCy's own,
    before :class:`TextKeepingTokenizer` wraps it): for a pipeline loaded from a
    model. :func:`blank` builds the tokenizer with them instead (no rules to
    replace, no special cases loaded twice)."""
    tokenizer = nlp.tokenizer
    if not isinstance(tokenizer, Tokenizer):
        raise TypeError(f"kg's rules need spaCy's Tokenizer, not {type(tokenizer).__name__}")
    # each rule set below reloads the 1,347 special cases: load them once, at the end
    rules, tokenizer.rules = tokenizer.rules, {}
    tokenizer.infix_finditer = compile_infix_regex(_INFIXES).finditer
    tokenizer.suffix_search = _suffix_search(nlp.Defaults)
    tokenizer.rules = rules
    # spaCy's special cases split things like "e.g." correctly; keep them
    tokenizer.max_cache_size = CACHE_SIZE
    return nlp


def make_tokenizer() -> Callable[[Language], Tokenizer]:
    """The factory of kg's tokenizer (``[nlp.tokenizer] @tokenizers =
    "kg.Tokenizer.v1"``): spaCy's ``spacy.Tokenizer.v1`` of a language with
    kg's infix and suffix rules, as :func:`customise` makes it. Built with them,
    the tokenizer compiles its rules and loads its special cases once (each
    load tokenises every special case against the rules), where
    ``spacy.blank`` followed by :func:`customise` compiled spaCy's own infix
    and suffix rules and loaded the special cases only to replace them (a
    share of the pipeline's load time: bench/RESULTS.md)."""
    from spacy.util import compile_prefix_regex

    def create(nlp: Language) -> Tokenizer:
        defaults = nlp.Defaults
        prefixes = defaults.prefixes
        return Tokenizer(nlp.vocab, rules=defaults.tokenizer_exceptions,
                         prefix_search=compile_prefix_regex(prefixes).search if prefixes else None,
                         suffix_search=_suffix_search(defaults),
                         infix_finditer=compile_infix_regex(_INFIXES).finditer,
                         token_match=defaults.token_match, url_match=defaults.url_match,
                         max_cache_size=CACHE_SIZE)

    return create


spacy.registry.tokenizers.register("kg.Tokenizer.v1", func=make_tokenizer)

_SIMPLE = re.compile(r"^[A-Za-z0-9 \-–]+$")
_SIMPLE_SPLIT = re.compile(r"(?<=[A-Za-z0-9)])([-–])(?=[a-z]{2,}(?![A-Za-z0-9+]))"
                           r"|(?<=[0-9])([-])(?=[0-9-])")


def split_simple(text: str, specials: frozenset[str] | set[str] = frozenset()) -> list[str] | None:
    """The tokens :func:`blank`'s tokenizer makes of a name of letters, digits,
    spaces and hyphens, computed without it (many times faster); None for
    any other text, or one with a word the tokenizer treats specially
    (``specials``: its exception table, e.g. ``id`` -> ``i d``). A test checks
    it against the tokenizer on every spelling in the gazetteer.

    >>> split_simple("LLM-as-a-judge"), split_simple("WRN-28-10"), split_simple("GPT(4)")
    (['LLM', '-', 'as-a', '-', 'judge'], ['WRN-28', '-', '10'], None)
    """
    if not _SIMPLE.match(text):
        return None
    out: list[str] = []
    for piece in text.split():
        if piece in specials:
            return None
        out.extend(p for p in _SIMPLE_SPLIT.split(piece) if p)
    return out


# the longest run without a space in 6,800 ICML/CVPR abstracts is 136
# characters (a Markdown link); longer runs are cut (see TextKeepingTokenizer)
LONG_RUN = 400
PIECE = 64
_LONG_RUN = re.compile(rf"\S{{{LONG_RUN + 1},}}")


class TextKeepingTokenizer:
    """Wraps a tokenizer so each Doc keeps the string it was made from
    (``doc.user_data["kg_text"]``): rebuilding ``doc.text`` token by token is
    the slowest step of a blank pipeline."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer

    def __call__(self, text: str) -> Doc:
        if len(text) > LONG_RUN and _LONG_RUN.search(text):
            doc = self._guarded(text)
        else:
            doc = self.tokenizer(text)
        doc.user_data["kg_text"] = text
        return doc

    def _guarded(self, text: str) -> Doc:
        """A Doc of ``text`` whose runs of more than :data:`LONG_RUN` characters
        without a space are cut into tokens of :data:`PIECE` characters: spaCy's
        affix rules rescan a run once per character they strip (quadratic in the
        run's length). The Doc's text stays ``text``, character for
        character, so every offset holds."""
        from spacy.tokens import Doc

        words: list[str] = []
        spaces: list[bool] = []
        pos = 0
        for m in _LONG_RUN.finditer(text):
            if m.start() > pos:
                for t in self.tokenizer(text[pos:m.start()]):
                    words.append(t.text)
                    spaces.append(bool(t.whitespace_))
            run = m.group(0)
            for i in range(0, len(run), PIECE):
                words.append(run[i:i + PIECE])
                spaces.append(False)
            pos = m.end()
            if text[pos:pos + 1] == " ":
                spaces[-1] = True
                pos += 1
        if pos < len(text):
            for t in self.tokenizer(text[pos:]):
                words.append(t.text)
                spaces.append(bool(t.whitespace_))
        return Doc(self.tokenizer.vocab, words=words, spaces=spaces)

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterator[Doc]:
        for text in texts:
            yield self(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tokenizer, name)


def blank(lang: str = "en") -> Language:
    """``spacy.blank(lang)`` with kg's tokenizer (no model download)."""
    nlp: Language = spacy.blank(
        lang, config={"nlp": {"tokenizer": {"@tokenizers": "kg.Tokenizer.v1"}}})
    return nlp
