"""What is never a named artefact, whatever a detector thought: settings and URL parts.

Sizes, bit-widths and number formats ("7B", "200K", "2.75-bit", "FP32",
"INT8", "W4A16") describe a model; they are no model, method or dataset. A
user or organisation name in a code URL ("github.com/KangchengLiu/FAC") is
no entity; the repository's own name (the last path segment) may be the
paper's name and is left to the detectors.
"""
from __future__ import annotations

import re

from kg.extract.cleanup import URL, URL_HINT

# sizes (7B, 1.3B, 200K), bit-widths (4-bit, 2.75-bit, 8bits), number formats
# (FP16, BF16, INT8, MXFP4, NF4 is a named method and stays), weight/activation
# settings (W4A16, W8A8KV4) and factors (4x)
_SETTING = re.compile(
    r"(?:\d+(?:\.\d+)?[KMBT]"
    r"|\d+(?:\.\d+)?-?bits?"
    r"|(?:FP|BF|INT|UINT|MXFP|MXINT)\d+"
    r"|W\d+A\d+(?:KV\d+)?|W\d+|A\d+KV\d+"
    r"|\d+(?:\.\d+)?[xX×])s?")
_CODE_HOST = re.compile(r"(?:https?://)?(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org)/",
                        re.IGNORECASE)


def is_setting(text: str) -> bool:
    """Is ``text`` a size, bit-width or number format rather than a name?

    >>> [is_setting(t) for t in ("7B", "200K", "2.75-bit", "FP32", "INT8", "W4A16", "4x")]
    [True, True, True, True, True, True, True]
    >>> [is_setting(t) for t in ("NF4", "GPT-4", "T5", "ResNet-50", "B")]
    [False, False, False, False, False]
    """
    return _SETTING.fullmatch(text) is not None


def url_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` inside a URL where no entity is: the whole URL,
    except the last path segment of a code host's URL (the repository name).

    >>> t = "Code: https://github.com/KangchengLiu/FAC_Contrast. See www.x.org/a/b"
    >>> [t[s:e] for s, e in url_spans(t)]
    ['https://github.com/KangchengLiu/', 'www.x.org/a/b']
    """
    if ("/" not in text and "www." not in text) or not URL_HINT.search(text):
        return []
    out: list[tuple[int, int]] = []
    for m in URL.finditer(text):   # (the URLs cleaning keeps as written)
        url = m.group(0).rstrip("/.,;:)]")
        if _CODE_HOST.match(url) and url.count("/") - url.count("//") >= 2:
            out.append((m.start(), m.start() + url.rfind("/") + 1))
        else:
            out.append((m.start(), m.start() + len(url)))
    return out


def in_any(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Does one of ``spans`` (from :func:`url_spans`) hold ``span``?

    >>> t = "See github.com/KangchengLiu/FAC now"
    >>> in_any((15, 27), url_spans(t)), in_any((28, 31), url_spans(t))
    (True, False)
    """
    return any(s <= span[0] and span[1] <= e for s, e in spans)
