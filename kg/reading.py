"""Reading a build's input files: which to read, the identities of their records (the first pass),
and their records with their mentions (the second), read and extracted or taken from the cache.

A file is *fresh* when the previous build did not read it as it is now (new or changed, by SHA-256):
a full build's every file is, unless the cache holds it.  A fresh file is read and extracted whole,
its issues reported and kept for the ledger; of a file the previous build read, a delta takes from
the cache only the records of the papers it makes again (its issues come from the ledger).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kg.cache import (
    Entries,
    Extract,
    FileEntry,
    Manifest,
    cache_name,
    dumps_extract,
    loads_extract,
    loads_items,
    replay,
)
from kg.errors import IssueLog, KgError, os_message
from kg.executors import Extraction, Progress, Step
from kg.grouping import Identity, Place
from kg.layout import CACHE
from kg.ledger import IssueRow, row
from kg.readers import digest
from kg.readers.discover import InputFile
from kg.records import Location, Mention, Record, SourceFile

Accepted = tuple[InputFile, str, os.stat_result]
"""An input file a build reads: the file, its SHA-256 and its state when it was first looked at."""


def accept(files: list[InputFile], previous: Manifest, reuse: bool, log: IssueLog) -> list[Accepted]:
    """The files to read, each with its SHA-256 (taken from the previous manifest when the file's size
    and time are unchanged and ``reuse``); an unreadable file or a second copy of one is said and
    skipped."""
    accepted: list[Accepted] = []
    digests: dict[str, str] = {}
    for item in files:
        try:
            st = item.path.stat()
            known = previous.files.get(item.shown)
            same = (
                reuse and known is not None and (known.size, known.mtime_ns) == (st.st_size, st.st_mtime_ns)
            )
            key = known.digest if same and known is not None else digest(item.path)
        except OSError as e:
            log.error(Location(item.shown, 0), "unreadable-file", f"cannot read file: {e.strerror or e}")
            continue
        if key in digests and st.st_size:  # empty files are each reported as empty when read
            log.warn(Location(item.shown, 1), "duplicate-file", f"same content as {digests[key]}; skipped")
            continue
        digests[key] = item.shown
        accepted.append((item, key, st))
    return accepted


def check_unchanged(item: InputFile, before: os.stat_result) -> None:
    """Stop the build if a file read twice (see :class:`kg.grouping.Plan`) changed in between: its
    records may no longer be those its papers were planned from."""
    at = Location(item.shown, 0)
    try:
        now = item.path.stat()
    except OSError as e:
        raise KgError(
            f"the file went away during the build: {os_message(e)}", at, code="input-changed"
        ) from e
    if (now.st_size, now.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
        raise KgError("the file changed during the build; build again", at, code="input-changed")


@dataclass(slots=True)
class Reading:
    """The records of a build's accepted files, in file and record order, each with its mentions.

    ``fresh`` files (by shown path) are read and extracted, or, with ``reuse``, taken whole from the
    cache of ``out``; of the others only the records ``wanted`` (SHA-256 -> ordinals) are taken from
    the cache.  Fills the new manifest's files, the cache entries of the files read (``entries``) and
    each fresh file's issues (``issues``, for the ledger); counts the files read and reused."""

    accepted: list[Accepted]
    fresh: set[str]
    wanted: dict[str, set[int]]
    manifest: Manifest
    previous: Manifest
    out: Path | None
    reuse: bool
    entries: Entries
    log: IssueLog
    progress: Progress | None = None
    read: int = 0
    reused: int = 0
    issues: dict[str, list[IssueRow]] = field(default_factory=dict)

    def records(self, extraction: Extraction) -> Iterator[tuple[Place, Record, list[Mention]]]:
        """Each record by its place (file SHA-256, ordinal), with its mentions."""
        for done, (item, key, st) in enumerate(self.accepted):
            if item.shown not in self.fresh:
                known = self.previous.files[item.shown]
                self.manifest.files[item.shown] = FileEntry(key, st.st_size, st.st_mtime_ns, known.records)
                if key in self.wanted:
                    yield from self._cached_records(item, key, self.wanted[key], extraction)
                continue
            if self.progress is not None:
                self.progress(Step("reading", item, done, len(self.accepted)))
            cached = self._cached(item.shown, key)
            items: Iterable[tuple[Record, list[Mention]]]
            extract = cached or Extract()
            if cached is not None:
                replay(cached, self.log)
                self.reused += 1
                items = cached.items
                cached.items = []
            else:
                items = extraction.stream(item, key, self.log, extract)
                self.read += 1
            source: SourceFile | None = None
            ordinal = 0
            for record, mentions in _draining(items):
                source = source or record.source
                yield (key, ordinal), record, mentions
                ordinal += 1
            check_unchanged(item, st)  # every file: its papers were planned from it as it was then
            if cached is None:
                self.entries[item.shown] = dumps_extract(extract, source)
            self.issues[item.shown] = [row(i) for i in extract.issues]
            self.manifest.files[item.shown] = FileEntry(key, st.st_size, st.st_mtime_ns, ordinal)

    def _cached(self, shown: str, key: str) -> Extract | None:
        """The extract of one file this build has read already (a delta that gave way to a full build
        read it), else, with ``reuse``, the cache's, when it has a readable one."""
        try:
            if shown in self.entries:
                return loads_extract(self.entries[shown])[1]
            if self.out is None or not self.reuse:
                return None
            path = self.out / CACHE / cache_name(shown, key, self.manifest.extraction)
            _, extract = loads_extract(path.read_bytes())
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            return None  # a missing or damaged cache entry only means reading the file again
        return extract

    def _cached_records(
        self, item: InputFile, key: str, ordinals: set[int], extraction: Extraction
    ) -> Iterator[tuple[Place, Record, list[Mention]]]:
        """The records ``ordinals`` of a file the previous build read: from its cache entry (only those
        decoded), else read again (its issues are not reported twice: the ledger has them)."""
        items = None
        if self.out is not None:
            path = self.out / CACHE / cache_name(item.shown, key, self.manifest.extraction)
            try:
                items = loads_items(path.read_bytes(), ordinals)
            except (OSError, ValueError, KeyError, TypeError, EOFError, IndexError):
                items = None  # a missing or damaged entry only means reading the file again
        if items is None:
            read = extraction.stream(item, key, IssueLog(), Extract())
            items = [(i, record, mentions) for i, (record, mentions) in enumerate(read) if i in ordinals]
        for ordinal, record, mentions in items:
            yield (key, ordinal), record, mentions


def identities(
    extraction: Extraction,
    accepted: list[Accepted],
    out: Path | None,
    extraction_key: str,
    reuse: bool,
    entries: Entries,
    progress: Progress | None = None,
) -> list[tuple[Place, Identity]]:
    """The first pass over ``accepted``: every record's place and identity, from the cache's
    identities when ``reuse`` and it has them, else read (and those read kept in ``entries``)."""
    from kg.cache import identities_of, loads_identities

    cached = identities_of(out, extraction_key) if reuse and out is not None else None

    def known(shown: str, key: str) -> list[Identity] | None:
        # read already in this build (a delta that gave way to a full build), else from the cache
        if shown in entries:
            return loads_identities(entries[shown], shown, key)
        return cached(shown, key) if cached is not None else None

    return list(extraction.identify(accepted, known, entries, progress))


def _draining(items: Iterable[tuple[Record, list[Mention]]]) -> Iterator[tuple[Record, list[Mention]]]:
    """``items``, a list of them let go one by one as they are handed out."""
    if not isinstance(items, list):
        yield from items
        return
    items.reverse()
    while items:
        yield items.pop()
