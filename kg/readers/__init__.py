"""Readers: one per input format, each detecting its own format from content.

``READERS`` is the table of formats, tried in order; adding a format is one
module plus one line here.  :func:`read_file` decodes a file, picks the
reader whose ``sniff`` accepts its first kilobytes, and yields its records;
anything wrong is reported to the :class:`~kg.errors.IssueLog`, never raised.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from kg.errors import IssueLog
from kg.readers import atom, bibtex, daily, jsonl, listing, oai, profile
from kg.readers.text import SNIFF_BYTES, TextFile, open_text
from kg.records import Location, Record, SourceFile

READERS: dict[str, ModuleType] = {
    # the precise standard formats first: a page sniff is looser
    oai.NAME: oai,
    atom.NAME: atom,
    jsonl.NAME: jsonl,
    bibtex.NAME: bibtex,
    profile.NAME: profile,
    listing.NAME: listing,
    daily.NAME: daily,
}
"""Formats in the order they are tried; each module has NAME, sniff() and read()."""


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
        log.error(
            Location(name, 1),
            "unknown-format",
            f"unrecognised format, starts with {first[0][:60]!r} (expected one of: {', '.join(READERS)})"
            if first
            else "unrecognised format",
        )
        return
    source = SourceFile(name, sha256 or digest(path), reader)
    yield from READERS[reader].read(text, source, log)


__all__ = ["READERS", "SNIFF_BYTES", "TextFile", "detect", "digest", "read_file"]
