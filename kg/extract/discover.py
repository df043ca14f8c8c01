"""Names the gazetteer does not know, found by their shape and context.

Shape: mixed case (``ToMoE``, ``DiffusionDB``, ``iLaD``), letters with
digits (``W4A16``), hyphenated compounds with a capitalised part
(``Meta-iLaD``, ``Qwen3-VL``, ``Di-BiLPS``). Context types them: ``the X
model``, ``on the X benchmark``, ``X dataset``, ``the X algorithm``. Plain
acronyms (``PDE``, ``GPU``) are left to the acronym detector, which only
keeps those whose long form names a model, method or dataset.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib.resources import files
from itertools import compress

from kg.extract.wordfile import read_sections

_MIXED = re.compile(r"^(?=.*[a-z])(?=.*[A-Z])[A-Za-z][\w+^.\-']*$")   # ToMoE, iLaD, GPT-4o
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]|^[a-z]+[A-Z]")        # an inner capital
# (a letter, then word characters with a digit or a capital among them; as
# lookaheads, not "[A-Za-z]+[\w\-]*\d[\w\-]*", which backtracks quadratically
# on a long token without a digit)
_ALNUM = re.compile(r"^[A-Za-z](?=[\w\-]*\d)[\w\-]*$|^[A-Za-z](?=[\w\-]*[A-Z])[\w\-]*$")
_HYPHEN_NAME = re.compile(r"^[A-Za-z0-9]+(?:-[A-Za-z0-9+]+)+$")
_UNIT = re.compile(r"^\d+(?:\.\d+)?[A-Za-z]{0,3}$|^[0-9]+D$|^[A-Z]\d{1,3}$")

# the cue nouns that type a name next to them, and the words after which a comma
# list names things ("outperforming PF-PPO, PAR, and PODS"): kg/data/cue_nouns.txt
_CUE_NOUNS = read_sections("cue_nouns.txt")
MODEL_CUES = _CUE_NOUNS["model"]
METHOD_CUES = _CUE_NOUNS["method"]
DATASET_CUES = _CUE_NOUNS["dataset"]
LIST_CUES = _CUE_NOUNS["list"]
_LIST_CUES_ANY = LIST_CUES | {w.capitalize() for w in LIST_CUES}
_ACRONYM = re.compile(r"^[A-Z][A-Z0-9]{1,9}(?:-[A-Z0-9]+)*s?$")


@dataclass(frozen=True, slots=True)
class Discovery:
    start: int
    end: int
    text: str
    type: str        # model / method / dataset / other
    token_start: int
    token_end: int


@lru_cache(maxsize=1)
def not_entities() -> frozenset[str]:
    path = files("kg") / "data" / "not_entities.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(ln.strip() for ln in lines if ln.strip() and not ln.startswith("#"))


# shapes of non-names: complexity classes ("PPAD-hard", "NP-complete"), norms
# ("L_2"), logarithms in formulas ("logK"), hardware ("TPUv4", "A6000")
_YEAR_AFTER = re.compile(r"['’]\d\d$")   # "NeurIPS'20", "WMT'14"
_NOT_A_NAME = re.compile(r"-(?:[Hh]ard|[Cc]omplete)$|^[Lℓ]_?\d$|^log[A-Z]$|^TPUv\d|^[AHV]\d{3,4}$")


@lru_cache(maxsize=200_000)
def name_shaped(word: str) -> bool:
    """Does a token look like the name of a model, method or dataset?

    >>> [w for w in ["ToMoE", "Meta-iLaD", "Qwen3-VL", "W4A16", "The", "GPU", "3D", "x-axis",
    ...              "NeurIPS'20", "LiDARs"] if name_shaped(w)]
    ['ToMoE', 'Meta-iLaD', 'Qwen3-VL', 'W4A16']
    """
    if len(word) < 3 or word in not_entities() or _UNIT.match(word) or _NOT_A_NAME.search(word):
        return False
    if _YEAR_AFTER.search(word) and _YEAR_AFTER.sub("", word) in not_entities():
        return False   # "NeurIPS'20": a venue's year
    if word[-1] == "s" and word[:-1] in not_entities():
        return False   # "LiDARs": a plural of a non-name
    if not word[0].isalnum():
        return False
    if _MIXED.match(word) and _CAMEL.search(word):
        return True
    if _HYPHEN_NAME.match(word):
        parts = word.split("-")
        return any(_CAMEL.search(p) or (p.isupper() and len(p) >= 2) for p in parts) and not (
            parts[-1].islower() and parts[-1].isalpha())
    return bool(_ALNUM.match(word)) and any(c.isdigit() for c in word) and any(
        c.isupper() for c in word)


def cue_type(words: Iterable[str]) -> str | None:
    """The type the first cue noun among ``words`` implies ('model', 'method',
    'dataset'), or None.

    >>> cue_type(["a", "new", "benchmark", "model"])
    'dataset'
    """
    for w in words:
        if w in DATASET_CUES:
            return "dataset"
        if w in MODEL_CUES:
            return "model"
        if w in METHOD_CUES:
            return "method"
    return None


def context_type(words: list[str], i: int, j: int) -> str:
    """Type from the nouns around tokens ``[i, j)``: 'model', 'method', 'dataset' or 'other'."""
    after = words[j: j + 2]
    before = words[max(0, i - 3): i]
    if before[-1:] == [","]:
        before = before[:-1]     # "the NAS method, ZiCo,"
    typ = cue_type(after[:1] + before[-1:] + after[1:])
    if typ:
        return typ
    if any(w in ("on", "benchmark", "benchmarks") for w in before[-1:]):
        return "dataset"
    return "other"


def _list_items(words: list[str], cue: int) -> list[int]:
    """Token indices of the names in a comma list right after ``words[cue]``."""
    items: list[int] = []
    i = cue + 1
    if i < len(words) and words[i] in ("as", "such"):
        i += 1
    while i < len(words):
        w = words[i]
        if w in (",", "and", "or", "the", "e.g.", ":"):
            i += 1
            continue
        if w in (".", ";", ")", "(") or not (w[:1].isupper() or any(c.isdigit() for c in w)):
            break
        items.append(i)
        i += 1
    return items if len(items) >= 2 else []


_NAMED_TYPES = frozenset(("model", "method", "dataset"))


def _title_runs(words: list[str], items: list[int], taken: set[int]) -> list[tuple[int, int]]:
    """The multi-word Title Case names of a list whose other names are known:
    "such as Error Feedback, Gradient Tracking, or a Proximal operator", "like
    Random Fourier Features, the Fast Gauss Transform, and Locality Sensitive
    Hashing". A run is two to five adjacent capitalised words of the list, none
    of them matched already, each a Title word or a name.

    >>> words = "such as Error Feedback , Gradient Tracking , or a Proximal operator".split()
    >>> _title_runs(words, _list_items(words, 1), {2, 3})
    [(5, 7)]
    """
    out = []
    k = 0
    while k < len(items):
        j = k
        while j + 1 < len(items) and items[j + 1] == items[j] + 1:
            j += 1
        run = items[k: j + 1]
        if 2 <= len(run) <= 5 and not taken.intersection(run) and all(
                _TITLE_WORD.match(words[i]) or name_shaped(words[i]) for i in run) and (
                words[run[-1] + 1: run[-1] + 2] != ["("]):
            out.append((run[0], run[-1] + 1))
        k = j + 1
    return out


_SHAPED: dict[str, bool] = {}
# a measure at a cut-off: "R@1", "mAP@0.5", "NDCG@10", "Hit@5"
_METRIC_AT = re.compile(r"^(?:[A-Z][A-Za-z]{0,9}|m?AP|mIoU)@\d+(?:\.\d+)?%?$")


def discover(words: list[str], offsets: list[int], taken: set[int],
             known_types: dict[int, str] | None = None) -> list[Discovery]:
    """Name-shaped tokens outside ``taken`` (token indices already matched).

    Acronyms and names in a list after ``outperforming``, ``such as``,
    ``including`` ... are names too; they take the type of the known names in
    the same list (``method`` after ``outperform``).
    """
    listed, runs = _listed_names(words, taken, known_types or {})
    out: list[Discovery] = []
    in_runs: set[int] = set()
    for k, j, typ in runs:
        if k not in in_runs:
            out.append(Discovery(offsets[k], offsets[j - 1] + len(words[j - 1]),
                                 " ".join(words[k:j]), typ, k, j))
            in_runs.update(range(k, j))
    cand = _shaped_tokens(words)
    cand.update(i for i in listed if not words[i].islower())
    shaped = sorted(i for i in cand if i not in taken and i not in in_runs)
    for i in shaped:
        d = _shaped_discovery(words, offsets, i, listed)
        if d is not None:
            out.append(d)
    seen = {d.token_start for d in out}
    for d in _named_before_cue(words, offsets, taken) + _names_joined_before_plural(
            words, offsets, taken):
        if d.token_start not in seen and d.token_end - 1 not in seen:
            out.append(d)
    return out


def _listed_names(words: list[str], taken: set[int], known_types: dict[int, str]
                  ) -> tuple[dict[int, str], list[tuple[int, int, str]]]:
    """The tokens in a list after a cue with the type the list gives them, and the
    runs of Title Case words in lists whose known names are named things
    (``(start, end, type)``)."""
    listed: dict[int, str] = {}
    runs: list[tuple[int, int, str]] = []
    for c in compress(range(len(words)), map(_LIST_CUES_ANY.__contains__, words)):
        w = words[c]
        items = _list_items(words, c)
        if not items:
            continue
        types = [known_types[i] for i in items if i in known_types]
        # the most frequent type; on a tie, the one met first in the list
        typ = max(dict.fromkeys(types), key=types.count) if types else (
            "method" if w.lower().startswith(("outperform", "surpass", "beat")) else
            cue_type([w]) or "other")   # "methods NSCL and NSVQA"
        for i in items:
            if i not in taken:
                listed[i] = typ
        if typ in _NAMED_TYPES and any(t in _NAMED_TYPES for t in types):
            runs.extend((k, j, typ) for k, j in _title_runs(words, items, taken))
    return listed, runs


def _shaped_tokens(words: list[str]) -> set[int]:
    """The indices of the name-shaped tokens (and metrics at a cut-off)."""
    # every name-shaped token has a capital: skip the lower-case majority cheaply
    # (decided once per distinct word: a per-token call is the slow part)
    if len(_SHAPED) > 200_000:
        _SHAPED.clear()
    for w in set(words).difference(_SHAPED):
        _SHAPED[w] = not w.islower() and (name_shaped(w) or (
            "@" in w and _METRIC_AT.match(w) is not None))
    return set(compress(range(len(words)), map(_SHAPED.__getitem__, words)))


def _shaped_discovery(words: list[str], offsets: list[int], i: int,
                      listed: dict[int, str]) -> Discovery | None:
    """The discovery of token ``i`` (name-shaped or listed), or None if it is no name."""
    w = words[i]
    text = w.rstrip(".,;:")
    if "@" in text and _METRIC_AT.match(text):
        return Discovery(offsets[i], offsets[i] + len(text), text, "metric", i, i + 1)
    if i in listed:
        if not (name_shaped(text) or (_ACRONYM.match(text) and text not in not_entities())):
            return None
        typ = context_type(words, i, i + 1)
        return Discovery(offsets[i], offsets[i] + len(text), text,
                         typ if typ != "other" else listed[i], i, i + 1)
    if name_shaped(w):
        return Discovery(offsets[i], offsets[i] + len(text), text,
                         context_type(words, i, i + 1), i, i + 1)
    return None


AND_PAIR_NOUNS = _CUE_NOUNS["and_pair"]


def _title_run_before(words: list[str], j: int, taken: set[int]) -> int:
    """Where the run of one to four capitalised words (Title words, acronyms or
    names) right before token ``j`` starts (``j``: none); a run never starts a
    sentence."""
    k = j
    while k > 0 and j - k < 4 and k - 1 not in taken and (
            _TITLE_WORD.match(words[k - 1]) or _CAPS_WORD.match(words[k - 1])
            or name_shaped(words[k - 1])):
        k -= 1
    while k < j and (k == 0 or words[k - 1] in (".", "!", "?", ":")):
        k += 1
    return k


def _names_joined_before_plural(words: list[str], offsets: list[int],
                                taken: set[int]) -> list[Discovery]:
    """Two capitalised names joined by "and" before a plural noun that each
    names one of: "this paper introduces Image-Report Contrastive and
    Image-Report Matching losses", "on the Oxford Radar RobotCar and NCLT
    datasets" (the nouns: ``kg/data/cue_nouns.txt``, ``[and_pair]``). One of
    the two has two words or more (not "the Spaces and Real ...")."""
    out: list[Discovery] = []
    for j in compress(range(len(words)), map(AND_PAIR_NOUNS.__contains__, words)):
        k = _title_run_before(words, j, taken)
        if k == j or k < 2 or words[k - 1] != "and":
            continue
        i = _title_run_before(words, k - 1, taken)
        if i == k - 1 or max(k - 1 - i, j - k) < 2:
            continue
        typ = "dataset" if words[j] in DATASET_CUES else "method"
        for a, b in ((i, k - 1), (k, j)):
            if not all(x in taken for x in range(a, b)):
                out.append(Discovery(offsets[a], offsets[b - 1] + len(words[b - 1]),
                                     " ".join(words[a:b]), typ, a, b))
    return out


_TITLE_WORD = re.compile(r"^[A-Z][a-z]{2,}(?:-[A-Z]?[a-z]+)*(?:-\d{1,4}[a-z]?)?$")   # Potsdam-3
_CAPS_WORD = re.compile(r"^[A-Z]{2,}[0-9]*$")
_NAMED_CUES = frozenset(["dataset", "datasets", "corpus", "benchmark", "benchmarks"])


@lru_cache(maxsize=1)
def _not_dataset_words() -> frozenset[str]:
    """Capitalised words before "dataset" that name no dataset ("our Synthetic
    dataset", "We benchmark"): ``kg/data/not_dataset_words.txt``."""
    path = files("kg") / "data" / "not_dataset_words.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(ln.strip() for ln in lines if ln.strip() and not ln.startswith("#"))


def _named_before_cue(words: list[str], offsets: list[int], taken: set[int]) -> list[Discovery]:
    """A capitalised name right before "dataset"/"benchmark"/"corpus": "the Sepsis
    dataset", "on Criteo dataset", "the Knee MRI dataset", "Potsdam-3 datasets"
    (but not "NLP datasets", nor "Odometry" alone in "KITTI Odometry dataset": a
    word after a known name is its variant, not a name of its own)."""
    out: list[Discovery] = []
    stop = None
    for j in compress(range(len(words)), map(_NAMED_CUES.__contains__, words)):
        k = j
        while k > 0 and j - k < 3 and k - 1 not in taken and (
                _TITLE_WORD.match(words[k - 1]) or _CAPS_WORD.match(words[k - 1])):
            k -= 1
        if k == j or not any(_TITLE_WORD.match(words[x]) for x in range(k, j)) or k - 1 in taken:
            continue
        if stop is None:
            stop = _not_dataset_words()
        while k < j and (words[k] in stop or (k == 0 or words[k - 1] in (".", "!", "?", ":"))
                         and _TITLE_WORD.match(words[k])):
            k += 1   # a sentence-initial or generic capitalised word is no part of the name
        if k == j or not any(_TITLE_WORD.match(words[x]) for x in range(k, j)) or any(
                words[x] in stop for x in range(k, j)):
            continue
        start, end = offsets[k], offsets[j - 1] + len(words[j - 1])
        out.append(Discovery(start, end, " ".join(words[k:j]), "dataset", k, j))
    return out
