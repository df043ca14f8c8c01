"""kg.util.argtypes: option values parsed, checked, secrets found."""
from __future__ import annotations

import argparse

import pytest

from kg.util.argtypes import (
    cores,
    megabytes,
    positive_bytes,
    positive_count,
    positive_seconds,
    secrets_in,
)


def test_good_values():
    assert cores("2") == 2 and positive_bytes("10") == 10
    assert positive_seconds("0.5") == 0.5 and megabytes("1") == 1 << 20
    assert megabytes("0.0000001") == 1          # never 0 bytes


@pytest.mark.parametrize("fn, text, why", [
    (cores, "0", "at least 1"), (cores, "two", "not a number of cores"),
    (positive_bytes, "0", "at least 1 byte"), (positive_seconds, "0", "more than 0"),
    (positive_seconds, "inf", "more than 0"), (positive_seconds, "nan", "more than 0"),
    (megabytes, "-1", "more than 0 MiB"), (megabytes, "lots", "not a number of MiB"),
])
def test_bad_values_are_one_line_reasons(fn, text, why):
    with pytest.raises(argparse.ArgumentTypeError, match=why):
        fn(text)


def test_secrets_are_found_in_every_spelling():
    argv = ["push", "--password", "a1", "--passwd=b2", "--pw", "c3", "--user", "bob", "--pass"]
    assert secrets_in(argv) == ["a1", "b2", "c3"]
    assert secrets_in(["push", "--user", "bob"]) == []


def test_positive_count():
    assert positive_count("100000") == 100_000
    for text, why in (("0", "must be at least 1"), ("1.5", "not a whole number")):
        with pytest.raises(argparse.ArgumentTypeError, match=why):
            positive_count(text)
