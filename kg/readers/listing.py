"""The conference paper-search listing (header ``论文检索``).

Layout: one record per paper: an area line ``Deep Learning · Everything
Else``, a comma-separated author line, an abstract.  Listings carry no titles.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from kg.errors import IssueLog
from kg.readers.pages import MAX_ABSTRACT, bounded, split_authors, text_lines
from kg.readers.text import TextFile
from kg.records import Location, Record, SourceFile, Span

NAME = "listing"

HEADER = "论文检索"
_AREA = re.compile(r"^[^\s·][^·]{0,78} · [^·]{1,80}$")
_LONG = 300  # an author line is short; a line this long with sentences is an abstract


def is_area(line: str) -> bool:
    """An area line: two short parts joined by a middle dot.

    >>> is_area("Deep Learning · Everything Else")
    True
    >>> is_area("We study a · b in a long sentence. " * 5)
    False
    """
    return bool(_AREA.match(line)) and not line.rstrip().endswith(".")


def sniff(head: str) -> bool:
    """A listing: the ``论文检索`` header, or area lines each followed by an author line."""
    lines = [ln.strip() for ln in head.lstrip("\ufeff").splitlines() if ln.strip()]
    if lines and lines[0] == HEADER:
        return True
    pairs = sum(
        1 for a, b in itertools.pairwise(lines) if is_area(a) and "," in b and len(b) < _LONG
    )
    return pairs >= 2


def read(text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
    """Records of a listing page, authors in page order."""
    block: list[Span] = []
    seen_any = False
    for span in text_lines(text):
        if is_area(span.text):
            if block:
                record = _record(block, source, log)
                if record is not None:
                    yield record
            block = [span]
            seen_any = True
        elif block:
            block.append(span)
        elif span.text != HEADER:
            log.warn(span.at, "unexpected-line", "text before the first area line skipped")
    if block:
        record = _record(block, source, log)
        if record is not None:
            yield record
    if not seen_any:
        log.warn(Location(text.name, 1), "no-records", "listing has no records (expected area lines 'A · B')")


def _looks_like_authors(span: Span) -> bool:
    return (
        (len(span.text) < _LONG
        and not span.text.endswith("."))
        or ("," in span.text and ". " not in span.text and len(span.text) < 2 * _LONG)
    )


def _record(block: list[Span], source: SourceFile, log: IssueLog) -> Record | None:
    area, rest = block[0], block[1:]
    authors: tuple[Span, ...] = ()
    if rest and _looks_like_authors(rest[0]):
        authors = split_authors(rest[0], log)
        rest = rest[1:]
    if not authors:
        log.warn(area.at, "empty-authors", "record has no author line (expected names after the area line)")
    if not rest:
        log.warn(area.at, "truncated-record", "record has no abstract; skipped (expected a paragraph)")
        return None
    abstract = Span(" ".join(s.text for s in rest), rest[0].at)
    return Record(
        reader=NAME,
        source=source,
        at=area.at,
        abstract=bounded(abstract, MAX_ABSTRACT, "abstract", log),
        authors=authors,
        areas=(area,),
    )
