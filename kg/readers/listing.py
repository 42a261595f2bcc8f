"""The conference paper-search listing (header ``论文检索``).

Layout: one record per paper: an area line ``Deep Learning · Everything
Else``, a comma-separated author line, an abstract.  Listings carry no titles.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from kg.errors import IssueLog
from kg.readers.pages import MAX_ABSTRACT, MAX_NAME, bounded, split_authors, text_lines
from kg.readers.text import TextFile
from kg.records import Location, Record, SourceFile, Span

NAME = "listing"
RANK = 5
"""Authority when merged records disagree (lower wins; see ``kg.readers.Reader``)."""

HEADER = "论文检索"
_AREA = re.compile(r"^[^\s·][^·]{0,78} · [^·]{1,80}$")
_LONG = 300  # an author line is short; a line this long with sentences is an abstract
_MANY_NAMES = 10  # a longer line of at least this many short comma-separated pieces is a list of names
_NAME_WORDS = 6
_PARTICLES = frozenset(
    {"van", "von", "de", "da", "del", "der", "di", "du", "la", "le", "bin", "al", "dos", "ten", "zu"}
)


def is_area(line: str) -> bool:
    """An area line: two short parts joined by a middle dot.

    >>> is_area("Deep Learning · Everything Else")
    True
    >>> is_area("We study a · b in a long sentence. " * 5)
    False
    """
    return bool(_AREA.match(line)) and not line.rstrip().endswith(".")


def sniff(head: str) -> bool:
    """A listing: its first non-blank line is the ``论文检索`` header (a page is known by its own
    header only: a JSON document quoting ``Deep Learning · Everything Else`` is not one).

    >>> sniff("论文检索\\n\\nDeep Learning · Everything Else\\n")
    True
    >>> sniff('[{"area": "Computer Science · Artificial Intelligence", "authors": "A, B"}]')
    False
    """
    for line in head.lstrip("\ufeff").splitlines():
        if line.strip():
            return line.strip() == HEADER
    return False


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
    """An author line: short, or a list of names however long (a large collaboration).

    >>> from kg.records import Location
    >>> _looks_like_authors(Span(", ".join(f"A. B. Name{i}" for i in range(60)), Location("a", 1)))
    True
    >>> _looks_like_authors(Span("We study X, Y and Z. " * 20, Location("a", 1)))
    False
    """
    text = span.text
    if (len(text) < _LONG and not text.endswith(".")) or (
        "," in text and ". " not in text and len(text) < 2 * _LONG
    ):
        return True
    # a list of names, however long: many comma-separated pieces of a few capitalised words each
    pieces = [p.split() for p in text.split(",")]
    return len(pieces) >= _MANY_NAMES and all(
        0 < len(words) <= _NAME_WORDS
        and sum(map(len, words)) <= MAX_NAME
        and not any(w[0].islower() and w.lower() not in _PARTICLES for w in words)
        for words in pieces
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
