"""kg: knowledge graphs from research-paper listings."""
from __future__ import annotations

__version__ = "0.1.0"
