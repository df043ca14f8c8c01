"""The values of kg's command-line options: parsed, checked, and secrets found.

Each function reads one option's text and returns its value or raises
:class:`argparse.ArgumentTypeError` with the reason (argparse turns it into a
one-line usage error); :func:`secrets_in` finds the passwords a command line
holds, so that no message shows them.
"""
from __future__ import annotations

import argparse

__all__ = ["cores", "megabytes", "positive_bytes", "positive_count", "positive_seconds",
           "secrets_in"]


def secrets_in(argv: list[str]) -> list[str]:
    """Password values on a command line: after ``--password`` (or an abbreviation or a
    misspelling of it), or after ``=`` in one.

    >>> secrets_in(["push", "--pass", "S3cr3t", "--pasword=x2", "--user", "bob"])
    ['S3cr3t', 'x2']
    """
    out = []
    for i, arg in enumerate(argv):
        opt, eq, value = arg.partition("=")
        if not opt.startswith("--") or not (len(opt) > 3 and (
                "--password".startswith(opt) or "pas" in opt.lower() or "pw" in opt.lower())):
            continue
        if eq:
            out.append(value)
        elif i + 1 < len(argv):
            out.append(argv[i + 1])
    return sorted((s for s in out if s), key=len, reverse=True)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds: {text!r}")
    return value


def megabytes(text: str) -> int:
    """A size in MiB, as bytes (more than 0).

    >>> megabytes("1.5")
    1572864
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of MiB: {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 MiB: {text!r}")
    return max(1, int(value * (1 << 20)))


def _at_least_one(text: str, what: str, least: str) -> int:
    """``text`` as a whole number of at least 1; ``what`` names a number that is not
    one (``not a number of cores``), ``least`` the bound (``at least 1 byte``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what}: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be {least}: {text!r}")
    return value


def cores(text: str) -> int:
    return _at_least_one(text, "not a number of cores", "at least 1")


def positive_bytes(text: str) -> int:
    return _at_least_one(text, "not a number of bytes", "at least 1 byte")


def positive_count(text: str) -> int:
    """A whole number of at least 1 (triples per request, loaders)."""
    return _at_least_one(text, "not a whole number", "at least 1")
