"""kg: turn scholarly paper listings into a knowledge graph you can query, look at and export."""

from __future__ import annotations

__version__ = "0.1.0"
