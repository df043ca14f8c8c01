"""kg.parse.decode: bytes to text: byte-order marks, invalid UTF-8, Latin-1, binary files."""
from __future__ import annotations

import pytest

from kg.errors import ParseError
from kg.parse import read_corpus
from tests.parse.test_listing import ABS2, ABS3, listing


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-8-sig"])
def test_utf16_and_utf8_boms(write, encoding):
    text = listing("Deep Learning", "Zoë Ångström, 李雷", ABS2)
    if encoding in ("utf-16-le", "utf-16-be"):
        data = ("\ufeff" + text).encode(encoding)
    else:
        data = text.encode(encoding)
    c = read_corpus([write("u.txt", data)])
    assert c.papers[0].authors == ("Zoë Ångström", "李雷")


def test_binary_file_is_a_parse_error(write):
    p = write("x.txt", bytes(range(256)) * 40)
    with pytest.raises(ParseError, match=r"x\.txt(:\d+)?: binary file, not a listing"):
        read_corpus([p])


def test_invalid_utf8_mid_file_warns_with_line(write):
    data = listing("A One", ABS2, "B Tw\xf6", ABS3).encode("utf-8").replace(b"Tw\xc3\xb6", b"Tw\xf6")
    c = read_corpus([write("bad.txt", data)])
    assert len(c.papers) == 2
    assert any(w.line == 7 and "invalid UTF-8" in w.message for w in c.warnings)
    assert c.papers[1].authors == ("B Tw\ufffd",)


def test_latin1_file_is_read_with_a_warning(write):
    text = listing("Zoë Ångström, José Núñez", ABS2, title=False)
    c = read_corpus([write("l1.txt", text, encoding="cp1252")])
    assert c.papers[0].authors == ("Zoë Ångström", "José Núñez")
    assert "Windows-1252" in c.warnings[0].message
