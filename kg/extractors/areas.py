"""Conference areas: ``Deep Learning · Everything Else`` is "Everything Else" under "Deep Learning".

>>> area_key("Deep Learning")
'deep-learning'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from kg.errors import IssueLog
from kg.records import Mention, Record

NAME = "areas"
KINDS: tuple[str, ...] = ("area",)
"""The kinds of mention it makes (``Mention.kind``)."""

_SEPARATOR = re.compile(r"\s+·\s+")
_NOT_WORD = re.compile(r"[^\w]+")


def area_key(label: str) -> str:
    """A URL-safe key of one area label: lower case, words joined by ``-``."""
    text = unicodedata.normalize("NFC", label).casefold()
    return _NOT_WORD.sub("-", text).strip("-")


def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
    """One ``area`` mention per area line; key ``parent/child``, detail has both labels."""
    for span in record.areas:
        parts = [" ".join(p.split()) for p in _SEPARATOR.split(span.text) if p.strip()]
        if len(parts) != 2 or not all(area_key(p) for p in parts):
            log.warn(span.at, "bad-area", f"area {span.text!r} skipped (expected 'Area · Subarea')")
            continue
        parent, child = parts
        key = f"{area_key(parent)}/{area_key(child)}"
        yield Mention("area", key, span.text, span.at, NAME, 0, (("child", child), ("parent", parent)))
