"""Authors in order, with names normalized for identity and kept as written.

>>> normalize_name("  Carola-Bibiane  Scho\\u0308nlieb ")
'Carola-Bibiane Schönlieb'
>>> name_key("Thomas  HOFMANN")
'thomas hofmann'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from kg.errors import IssueLog
from kg.records import Mention, Record

NAME = "authors"
KINDS: tuple[str, ...] = ("author",)
"""The kinds of mention it makes (``Mention.kind``)."""

_MARKERS = re.compile(r"(?:\s*[*†‡§¶]+|\s*\d+(?:,\d+)*)$")  # affiliation and equal-contribution marks


def normalize_name(name: str) -> str:
    """A name in Unicode NFC with single spaces and no affiliation marks."""
    flat = " ".join(unicodedata.normalize("NFC", name).split())
    return _MARKERS.sub("", flat).strip(" ,;")


def name_key(name: str) -> str:
    """The identity of a person: the normalized name, case-folded."""
    return normalize_name(name).casefold()


def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
    """One ``author`` mention per author, ``position`` 1, 2, ... in page order."""
    position = 0
    for index, span in enumerate(record.authors):
        normalized = normalize_name(span.text)
        if not normalized:
            log.warn(span.at, "empty-author", f"author name {span.text!r} is empty after normalization")
            continue
        position += 1
        detail = (("index", str(index)), ("name", normalized))
        yield Mention("author", name_key(normalized), span.text, span.at, NAME, position, detail)
