"""Readers: one per input format, each detecting its own format from content.

``READERS`` is the table of formats, tried in order; adding a format is one
module that is a :class:`Reader` plus one line here.  :func:`read_file` decodes a file, picks the
reader whose ``sniff`` accepts its first kilobytes, and yields its records;
anything wrong is reported to the :class:`~kg.errors.IssueLog`, never raised.
"""

from __future__ import annotations

import csv
import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

from kg.errors import IssueLog
from kg.readers import atom, bibtex, daily, jsonl, listing, oai, profile
from kg.readers.text import SNIFF_BYTES, TextFile, open_text
from kg.records import Location, Record, SourceFile


class Reader(Protocol):
    """What a reader module has (modules are checked against it where the table is typed)."""

    NAME: str
    """The format's name, recorded on every record it reads (``Record.reader``)."""
    RANK: int
    """Which source wins a field when records of one paper disagree: lower wins (the arXiv API over a
    listing page)."""

    def sniff(self, head: str) -> bool:
        """Whether ``head``, the start of a file, is in this format."""
        ...

    def read(self, text: TextFile, source: SourceFile, log: IssueLog) -> Iterator[Record]:
        """The records of a file in this format; problems go to ``log``, never raised."""
        ...


READERS: dict[str, Reader] = {
    # the precise standard formats first: a page sniff is looser
    oai.NAME: oai,
    atom.NAME: atom,
    jsonl.NAME: jsonl,
    profile.NAME: profile,
    listing.NAME: listing,
    daily.NAME: daily,
    # after the pages, which their first line names: BibTeX may follow any free text
    bibtex.NAME: bibtex,
}
"""Formats in the order they are tried."""


def rank(reader: str) -> int:
    """The authority of a reader's records (:attr:`Reader.RANK`); a name no reader has ranks last."""
    module = READERS.get(reader)
    return module.RANK if module is not None else len(READERS)


def detect(head: str) -> str | None:
    """The name of the first reader that recognises ``head`` (the start of a file), if any.

    >>> detect("Daily Papers\\n\\nWe propose a method.\\n")
    'daily'
    >>> detect("hello") is None
    True
    """
    for name, module in READERS.items():
        if module.sniff(head):
            return name
    return None


_XML_NAME = re.compile(r"<([A-Za-z_][\w.:-]*)")


def looks_like(head: str) -> str:
    """What a file no reader takes looks like, for the ``unknown-format`` message.

    >>> looks_like('{"title": "Computer Science · Artificial Intelligence"}')
    'JSON'
    >>> looks_like('<?xml version="1.0"?>\\n<rss version="2.0">')
    'XML (root <rss>)'
    >>> looks_like("<!DOCTYPE html>\\n<html><body>")
    'HTML'
    >>> looks_like("id,title,area\\n1,Attention,Deep Learning · Everything Else\\n")
    'CSV'
    >>> looks_like("# My notes\\n")
    'text'
    """
    start = head.lstrip("\ufeff \t\r\n")
    lines = [ln for ln in start.splitlines() if ln.strip()][:5]
    if start[:1] in "{[" and start:
        return "JSON lines" if len(lines) > 1 and all(ln.lstrip()[:1] == "{" for ln in lines) else "JSON"
    if start.startswith("<"):
        lower = start[:4096].lower()
        if "<!doctype html" in lower or "<html" in lower:
            return "HTML"
        body = re.sub(r"<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>]*>", "", start[:4096], flags=re.DOTALL)
        root = _XML_NAME.search(body)
        return f"XML (root <{root.group(1)}>)" if root else "XML"
    for sep, name in (("\t", "TSV"), (",", "CSV"), (";", "CSV")):
        try:
            widths = [len(row) for row in csv.reader(lines, delimiter=sep)]
        except csv.Error:
            continue
        if len(widths) >= 2 and widths[0] >= 2 and all(w == widths[0] for w in widths[1:]):
            return name
    return "text"


def digest(path: Path) -> str:
    """sha256 of the file's bytes, read in chunks."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_file(
    path: Path, log: IssueLog, shown: str | None = None, sha256: str | None = None
) -> Iterator[Record]:
    """Records of one file, in file order; problems go to ``log``.

    ``shown`` is the path as messages and provenance name it (default: ``str(path)``);
    ``sha256`` the file's digest when the caller has it already.
    """
    name = shown if shown is not None else str(path)
    text = open_text(path, name, log)
    if text is None:
        return
    reader = detect(text.head)
    if reader is None:
        first = text.head.lstrip("\ufeff").strip().splitlines()[:1]
        what = looks_like(text.head)
        kind = "unrecognised format" if what == "text" else f"{what} that no reader takes"
        packed = ", gzip-compressed" if text.gzipped else ""
        log.error(
            Location(name, 1),
            "unknown-format",
            f"{kind}{packed}, starts with {first[0][:60]!r} (expected one of: {', '.join(READERS)})"
            if first
            else kind,
        )
        return
    source = SourceFile(name, sha256 or digest(path), reader)
    yield from READERS[reader].read(text, source, log)


__all__ = ["READERS", "SNIFF_BYTES", "TextFile", "detect", "digest", "looks_like", "read_file"]
