"""The "Daily Papers" feed: a header, then one abstract per paragraph, nothing else."""

from __future__ import annotations

from collections.abc import Iterator

from kg.errors import IssueLog
from kg.readers.pages import MAX_ABSTRACT, bounded, text_lines
from kg.readers.text import TextFile
from kg.records import Location, Record, SourceFile

NAME = "daily"
RANK = 6
"""Authority when merged records disagree (lower wins; see ``kg.readers.Reader``)."""

HEADER = "Daily Papers"


def sniff(head: str) -> bool:
    """A daily feed: its first non-blank line is ``Daily Papers``."""
    for line in head.lstrip("\ufeff").splitlines():
        if line.strip():
            return line.strip() == HEADER
    return False


def read(text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
    """One record per non-blank line after the header."""
    count = 0
    for span in text_lines(text):
        if count == 0 and span.text == HEADER:
            count = -1  # the header is not a record
            continue
        count = max(count, 0) + 1
        yield Record(
            reader=NAME, source=source, at=span.at, abstract=bounded(span, MAX_ABSTRACT, "abstract", log)
        )
    if count <= 0:
        log.warn(Location(text.name, 1), "no-records", "daily feed has no abstracts after its header")
