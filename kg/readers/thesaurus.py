"""The user's thesaurus (``kg build --thesaurus FILE``): VOSviewer's tab-separated format.

Not a paper format (it is not in ``READERS``): the build reads it once, before anything else, and
resolution applies it where identity is decided (``kg.curation.Curation``).  The first line is the
header ``label<TAB>replace by`` (VOSviewer's, read ignoring case); then one row per term: the term
as written, a tab, and what to replace it by; an empty replacement drops the term.  A bad row is a
warning and the build goes on without it.

>>> from kg.errors import IssueLog
>>> log = IssueLog()
>>> rows = parse("label\\treplace by\\nHinrich Schuetze\\tHinrich Schütze\\nDNN\\t\\nno tab\\n", "t.txt", log)
>>> [(e.label, e.replacement, e.at.line) for e in rows]
[('Hinrich Schuetze', 'Hinrich Schütze', 2), ('DNN', '', 3)]
>>> [str(i) for i in log.issues]
["t.txt:4: warning: row has no tab; skipped (expected 'label<TAB>replace by') [thesaurus-row]"]
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from kg.errors import IssueLog, KgError
from kg.readers.text import clean, read_side_file
from kg.records import Location

HEADER = ("label", "replace by")
"""VOSviewer's header cells (compared ignoring case and spaces around them)."""

MAX_BYTES = 50 * 1024 * 1024
"""A bigger file is refused: a thesaurus is a hand-made list of terms."""

MAX_CELL = 300
"""Characters a label or replacement may have (a person's name is capped at 300 too)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One row: the term as written, its replacement (``""``: drop the term), and where it is."""

    label: str
    replacement: str
    at: Location


@dataclass(frozen=True, slots=True)
class Thesaurus:
    """A thesaurus file's rows in file order, and the SHA-256 of its bytes (part of a build's cache key)."""

    path: str
    digest: str
    entries: tuple[Entry, ...]


def key(text: str) -> str:
    """How rows and terms are compared: NFC, single spaces, case-folded.

    >>> key("  Low-Rank   ADAPTATION ") == key("low-rank adaptation")
    True
    """
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def read(path: Path, log: IssueLog, shown: str | None = None) -> Thesaurus:
    """The thesaurus in ``path``; problems go to ``log`` (an unusable file is an error and gives no rows)."""
    name = shown if shown is not None else str(path)
    try:  # a regular file under MAX_BYTES: a FIFO or /dev/zero is refused, never waited on
        data = read_side_file(path, MAX_BYTES, "the thesaurus", name)
    except KgError as e:
        log.error(e.at or Location(name, 0), e.code, e.message)
        return Thesaurus(name, "", ())
    digest = hashlib.sha256(data).hexdigest()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        log.error(
            Location(name, line),
            "not-utf8",
            f"byte {data[e.start]:#04x} is not UTF-8 (expected a UTF-8 thesaurus; re-save it as UTF-8)",
        )
        return Thesaurus(name, digest, ())
    return Thesaurus(name, digest, tuple(parse(text, name, log)))


def parse(text: str, name: str, log: IssueLog) -> list[Entry]:
    """The rows of a thesaurus's text (see the module's docstring)."""
    entries: list[Entry] = []
    first: dict[str, int] = {}
    headed = False
    for number, raw in enumerate(text.splitlines(), start=1):
        at = Location(name, number)
        if not raw.strip():
            continue
        cells = raw.split("\t")
        if not headed:  # the first line that is not blank
            headed = True
            if tuple(c.strip().casefold() for c in cells) == HEADER:
                continue
            log.warn(
                at, "thesaurus-header", "first line is not the header 'label<TAB>replace by'; read as a row"
            )
        if len(cells) != 2:
            what = "has no tab" if len(cells) == 1 else f"has {len(cells)} cells"
            log.warn(at, "thesaurus-row", f"row {what}; skipped (expected 'label<TAB>replace by')")
            continue
        label, replacement = clean(cells[0]), clean(cells[1])
        if not label:
            log.warn(at, "thesaurus-row", "row has an empty label; skipped (expected a term to replace)")
            continue
        if len(label) > MAX_CELL or len(replacement) > MAX_CELL:
            log.warn(at, "thesaurus-row", f"row has a cell longer than {MAX_CELL} characters; skipped")
            continue
        seen = first.setdefault(key(label), number)
        if seen != number:
            log.warn(
                at,
                "thesaurus-duplicate",
                f"{label!r} has a row already (line {seen}); this one is skipped",
            )
            continue
        entries.append(Entry(" ".join(label.split()), " ".join(replacement.split()), at))
    return entries
