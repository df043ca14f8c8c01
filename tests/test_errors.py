"""kg.errors: every error meant for the user is a KgError, which the CLI prints on one line."""
from __future__ import annotations

import inspect

import pytest

from kg import errors
from kg.cli import main


def test_every_error_is_a_kg_error_and_a_parse_error_says_where():
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass)
               if c.__module__ == "kg.errors"]
    assert len(classes) >= 8 and all(issubclass(c, errors.KgError) for c in classes)
    assert str(errors.ParseError("a.txt", 3, "bad line")) == "a.txt:3: bad line"
    assert str(errors.ParseError("a.txt", None, "unreadable")) == "a.txt: unreadable"
    assert issubclass(errors.InputTooLarge, errors.ParseError)


@pytest.mark.parametrize("error, code", [(errors.QueryError("no such query"), 1),
                                         (errors.OutputFolderError("not a kg folder"), 2)])
def test_the_cli_prints_a_kg_error_on_one_line(error, code, monkeypatch, capsys):
    def fail(args):
        raise error

    monkeypatch.setattr("kg.cli._cmd_queries", fail)
    assert main(["queries"]) == code
    err = capsys.readouterr().err
    assert err == f"kg: error: {error}\n"
