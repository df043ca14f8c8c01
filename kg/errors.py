"""Errors kg raises for things a user can fix; the CLI prints them on one line."""
from __future__ import annotations


class KgError(Exception):
    """Base class of every error meant for the user (no traceback shown)."""


class ParseError(KgError):
    """An input that cannot be read, with the file and line where it failed."""

    def __init__(self, file: str, line: int | None, message: str) -> None:
        self.file = file
        self.line = line
        self.message = message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")


class InputTooLarge(ParseError):
    """An input over the size limit the user set (``--max-bytes``)."""


class QueryError(KgError):
    """A SPARQL query that is malformed, unknown, or given bad parameters."""


class StoreError(KgError):
    """A store that is missing, locked, or a remote endpoint that refused."""


class ValidationError(KgError):
    """The built graph violates the SHACL shapes that ship with kg."""


class OutputFolderError(KgError):
    """An output folder kg must not write into (a file, foreign files, locked by a build)."""


class NoPapersError(KgError):
    """Inputs that hold no readable paper at all: nothing to build."""
