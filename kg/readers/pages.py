"""What the three scraped page formats share: non-blank lines, field limits, author lists."""

from __future__ import annotations

import re
from collections.abc import Iterator

from kg.errors import IssueLog
from kg.readers.text import TextFile, clean
from kg.records import Location, Span

MAX_TITLE = 2_000
MAX_ABSTRACT = 200_000
MAX_NAME = 300
MAX_AUTHORS = 5_000


def text_lines(text: TextFile) -> Iterator[Span]:
    """Non-blank lines, cleaned, each as a Span with its line number."""
    for number, line in text.lines():
        value = clean(line)
        if value:
            yield Span(value, Location(text.name, number))


def bounded(span: Span, limit: int, field: str, log: IssueLog) -> Span:
    """The span, cut to ``limit`` characters with a warning when longer."""
    if len(span.text) <= limit:
        return span
    log.warn(span.at, "field-too-long", f"{field} of {len(span.text)} characters cut to {limit}")
    return Span(span.text[:limit], span.at)


_SUFFIX = re.compile(r"^(?:jr|sr|ii|iii|iv|phd|md)\.?$", re.IGNORECASE)
_AND = re.compile(r"\s+(?:and|&)\s+")


def split_authors(span: Span, log: IssueLog) -> tuple[Span, ...]:
    """Authors of a comma-separated author line, in order, as written.

    >>> from kg.errors import IssueLog
    >>> line = Span("Ada Lovelace, Charles Babbage Jr., and Alan Turing", Location("a", 1))
    >>> [a.text for a in split_authors(line, IssueLog())]
    ['Ada Lovelace', 'Charles Babbage Jr.', 'Alan Turing']
    """
    parts: list[str] = []
    # listing pages may separate the last author with "and" as well as commas
    for chunk in span.text.split(","):
        for piece in _AND.split(chunk.strip()):
            piece = piece.strip()
            if piece.lower().startswith("and "):
                piece = piece[4:].strip()
            if not piece:
                continue
            if _SUFFIX.match(piece) and parts:
                parts[-1] = f"{parts[-1]} {piece}"
            else:
                parts.append(piece)
    if len(parts) > MAX_AUTHORS:
        log.warn(span.at, "too-many-authors", f"{len(parts)} authors, kept the first {MAX_AUTHORS}")
        parts = parts[:MAX_AUTHORS]
    authors: list[Span] = []
    for name in parts:
        if len(name) > MAX_NAME:
            log.warn(span.at, "name-too-long", f"author name of {len(name)} characters skipped")
            continue
        kept = author_name(Span(name, span.at), log)
        if kept is not None:
            authors.append(kept)
    return tuple(authors)


_JOINER = re.compile(r"^(?:and|&)\s+(?=\w)")


def author_name(name: Span, log: IssueLog) -> Span | None:
    """An author as a source lists it, or None (with a warning) when it is no name: a name has a letter
    (":" or "1,2" left over from a page's punctuation or footnote marks is none), and a list's joiner
    written into its last element ("and Huchuan Lu") is taken off with a warning.

    >>> log = IssueLog()
    >>> at = Location("a", 3)
    >>> [author_name(Span(n, at), log) for n in (":", "1, 2")], author_name(Span("and Huchuan Lu", at), log).text
    ([None, None], 'Huchuan Lu')
    >>> [i.code for i in log.issues], author_name(Span("Andrés Ng", at), log).text
    (['not-a-name', 'not-a-name', 'joined-author'], 'Andrés Ng')
    """
    text = name.text.strip()
    if not any(c.isalpha() for c in text):
        log.warn(name.at, "not-a-name", f"author {text[:40]!r} skipped (expected a name, with a letter)")
        return None
    joiner = _JOINER.match(text)
    if joiner is not None:
        log.warn(
            name.at,
            "joined-author",
            f"author {text[:60]!r} read as {text[joiner.end():][:60]!r} (a list's 'and' was written into the name)",
        )
        return Span(text[joiner.end() :], name.at)
    return name if text == name.text else Span(text, name.at)
