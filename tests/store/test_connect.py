"""kg.store.connect: which store a command opens; a missing one is a one-line error."""
from __future__ import annotations

import pytest

from kg.errors import StoreError
from kg.store import EmbeddedStore, open_store


def test_missing_store_is_a_one_line_error(tmp_path):
    with pytest.raises(StoreError, match="no store here") as exc:
        EmbeddedStore(tmp_path / "nothing")
    assert "\n" not in str(exc.value)
    with pytest.raises(StoreError):
        open_store(from_dir=tmp_path)
    with pytest.raises(StoreError):
        open_store(endpoint="not a URL")
