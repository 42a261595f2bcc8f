"""The ledger: what each paper of a build gave to the nodes papers share, and where its records lie.

A paper's own triples (its title, authorships, sources, evidence) are about it alone; a person's name
and papers, a coauthor link, a concept's papers per year, a repository's description are shared by
every paper that names them.  A delta build (``kg.pipeline``) makes again only the papers a change
touches, so it needs, for the shared parts, what every other paper gave.  The ledger keeps it in
``OUT/ledger.sqlite`` (SQLite, so that a delta reads and changes only the rows of what it touches):

- ``papers``: one :class:`Entry` per paper (the facts each kind keeps, ``kg.kinds.Kind.keep``; its
  records; the issues reported while it was made), by paper key;
- ``records`` and ``identities``: which paper each record made, and the papers each identity key
  (arXiv id, DOI, fingerprint) names, so that a delta groups only the records its change touches;
- ``sums``: the sums of the shared nodes (``kg.kinds.Shared``), by channel, key and sub-key;
- ``files``: each input file's issues, reported again by a delta without reading the file;
- ``meta``: the format, the settings the build was made with, its counts and its generation.

A full build writes a new ledger beside the old one and renames it into place; a delta changes the
ledger in one transaction, committed where the full build's is renamed (just before the manifest:
docs/builds.md).  Store, manifest and ledger name the build's generation; a delta starts only from a
folder where the three agree.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from kg.errors import Issue, KgError, Severity
from kg.grouping import DROPPED, wanted
from kg.kinds.table import KINDS
from kg.layout import LEDGER
from kg.records import Location

FORMAT = 5

PAPER_CODES = frozenset({"author-not-listed", "many-authors", "paper-key-collision"})
"""Issues reported while a paper is made (not while its files are read): kept with its entry."""

IssueRow = tuple[str, int, str, str, str]


RecordRow = tuple[str, str, int, int, tuple[str, ...]]
"""Where a record of a paper lies: (shown path, file SHA-256, ordinal in the file, line, identity keys)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """What one paper gave to the shared parts of the graph, and where its records lie."""

    key: str
    records: tuple[RecordRow, ...]
    year: str
    facts: dict[str, Any]
    """Kind name -> what that kind keeps of the paper (``kg.kinds.Kind.keep``)."""
    issues: tuple[IssueRow, ...] = ()
    hash: str = ""
    """The paper's fingerprint (``kg.cache.paper_hash``: what the manifest compares)."""

    @property
    def dropped(self) -> bool:
        """A paper dropped because an earlier one took its key (``paper-key-collision``): it is not in
        the graph, but its records still named its persons (``kg.resolve.Streaming``)."""
        return self.key.startswith(DROPPED)

    @property
    def wanted(self) -> str:
        """The paper key a dropped paper wanted (its own key, for a paper in the graph)."""
        return wanted(self.key)

    @property
    def persons(self) -> list[str]:
        """Its authors' name keys, in author order (the persons stage decides their persons)."""
        kept = self.facts.get("author")
        return [row[0] for row in kept[0]] if kept else []

    @classmethod
    def of(cls, paper: Any, issues: Iterable[Issue] = (), dropped: bool = False, hash: str = "") -> Entry:
        """The entry of a paper just made (a ``kg.resolve.Paper``); ``dropped``: of one that lost its
        key to an earlier paper."""
        facts = {}
        for name, kind in KINDS.items():
            kept = kind.keep(paper)
            if kept:
                facts[name] = kept
        return cls(
            key=f"{DROPPED}{paper.key}{DROPPED}{paper.sources[0].key}" if dropped else paper.key,
            records=tuple((s.path, s.digest, s.ordinal, s.line, s.keys) for s in paper.sources),
            year=paper.year.text if paper.year else "",
            facts=facts,
            issues=tuple(row(i) for i in issues),
            hash=hash,
        )

    def dumps(self) -> str:
        return _json([self.records, self.year, self.facts, self.issues, self.hash])

    @classmethod
    def loads(cls, key: str, text: str) -> Entry:
        records, year, facts, issues, paper_hash = json.loads(text)
        return cls(
            key,
            tuple((str(p), str(d), int(o), int(n), tuple(k)) for p, d, o, n, k in records),
            str(year),
            dict(facts),
            tuple(_row(i) for i in issues),
            str(paper_hash),
        )


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def row(issue: Issue) -> IssueRow:
    return (issue.at.path, issue.at.line, issue.severity, issue.code, issue.message)


def _row(values: list[Any]) -> IssueRow:
    path, line, severity, code, message = values
    return (str(path), int(line), str(severity), str(code), str(message))


def issue(values: IssueRow) -> Issue:
    path, line, severity, code, message = values
    return Issue(Location(path, line), cast(Severity, severity), code, message)


SumRow = tuple[str, str, str, int, str]
"""A sum as the ledger keeps it: (channel, key, sub, n, detail)."""

_TABLES = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE papers (key TEXT NOT NULL, wanted TEXT NOT NULL, issues INTEGER NOT NULL, entry TEXT NOT NULL);
CREATE TABLE records (digest TEXT NOT NULL, ordinal INTEGER NOT NULL, paper TEXT NOT NULL);
CREATE TABLE identities (key TEXT NOT NULL, paper TEXT NOT NULL);
CREATE TABLE sums (channel TEXT NOT NULL, key TEXT NOT NULL, sub TEXT NOT NULL, n INTEGER NOT NULL,
                   detail TEXT NOT NULL);
CREATE TABLE files (path TEXT PRIMARY KEY, issues TEXT NOT NULL);
CREATE TABLE authorships (block TEXT NOT NULL, paper TEXT NOT NULL, position INTEGER NOT NULL,
                          person TEXT NOT NULL, written TEXT NOT NULL, name TEXT NOT NULL);
CREATE TABLE persons (block TEXT NOT NULL, key TEXT NOT NULL, person TEXT NOT NULL);
"""
_INDEXES = """
CREATE UNIQUE INDEX papers_key ON papers (key);
CREATE INDEX papers_wanted ON papers (wanted);
CREATE INDEX papers_issues ON papers (issues) WHERE issues > 0;
CREATE UNIQUE INDEX records_place ON records (digest, ordinal);
CREATE INDEX records_paper ON records (paper);
CREATE INDEX identities_key ON identities (key);
CREATE INDEX identities_paper ON identities (paper);
CREATE UNIQUE INDEX sums_key ON sums (channel, key, sub);
CREATE INDEX authorships_block ON authorships (block);
CREATE INDEX authorships_paper ON authorships (paper);
CREATE INDEX persons_block ON persons (block);
"""
"""Made once a full build's rows are in (sorted once, rather than kept in order row by row)."""

_BATCH = 2000
"""Entries a full build writes at a time."""

_CHUNK = 400
"""Parameters per query (SQLite allows a few thousand; a chunk keeps each statement short)."""


def _chunks(items: Iterable[Any]) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= _CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@dataclass(slots=True)
class Changes:
    """What a build changes in the ledger: the entries it takes out and puts in, the sums of the groups
    it made again (each group whole), the files it read and lost, and its settings and counts."""

    settings: dict[str, Any]
    counts: dict[str, int] = field(default_factory=dict)
    removed: set[str] = field(default_factory=set)
    """Keys of the entries taken out (papers made again or gone)."""
    added: list[Entry] = field(default_factory=list)
    sum_keys: set[tuple[str, str, str]] = field(default_factory=set)
    """The (channel, key, sub) of the sums made again: their rows are replaced by :attr:`sums`."""
    sums: Iterable[SumRow] = ()
    """Those sums as they are now (a full build: every sum; iterable more than once)."""
    files: dict[str, list[IssueRow]] = field(default_factory=dict)
    """Each file read in this build, with its issues."""
    files_gone: set[str] = field(default_factory=set)
    person_blocks: set[str] = field(default_factory=set)
    """The blocks of names the persons stage decided (again): their rows are replaced."""
    authorships: list[tuple[str, str, int, str, str, str]] = field(default_factory=list)
    """(block, entry key, position, person, name as written, name key) of each authorship of those blocks."""
    persons: list[tuple[str, str, str]] = field(default_factory=list)
    """(block, person key, the person as JSON) of each person of those blocks (``kg.persons.stage``)."""

    def write(self, conn: sqlite3.Connection, generation: str, fresh: bool) -> None:
        """Apply the changes to the ledger at ``conn`` (``fresh``: an empty one, just created)."""
        if not fresh:
            for chunk in _chunks(sorted(self.removed)):
                marks = ",".join("?" * len(chunk))
                conn.execute(f"DELETE FROM records WHERE paper IN ({marks})", chunk)
                conn.execute(f"DELETE FROM identities WHERE paper IN ({marks})", chunk)
                conn.execute(f"DELETE FROM papers WHERE key IN ({marks})", chunk)
            conn.executemany(
                "DELETE FROM sums WHERE channel = ? AND key = ? AND sub = ?", sorted(self.sum_keys)
            )
            for path in sorted(self.files_gone | set(self.files)):
                conn.execute("DELETE FROM files WHERE path = ?", (path,))
            blocks = [(b,) for b in sorted(self.person_blocks)]
            conn.executemany("DELETE FROM authorships WHERE block = ?", blocks)
            conn.executemany("DELETE FROM persons WHERE block = ?", blocks)
        self.write_entries(conn)
        conn.executemany("INSERT INTO sums VALUES (?, ?, ?, ?, ?)", (r for r in self.sums if r[3]))
        conn.executemany(
            "INSERT INTO files VALUES (?, ?)", ((p, _json(rows)) for p, rows in sorted(self.files.items()))
        )
        conn.executemany("INSERT INTO authorships VALUES (?, ?, ?, ?, ?, ?)", self.authorships)
        conn.executemany("INSERT INTO persons VALUES (?, ?, ?)", self.persons)
        meta = {"format": FORMAT, "generation": generation, "settings": self.settings, "counts": self.counts}
        conn.executemany(
            "INSERT OR REPLACE INTO meta VALUES (?, ?)", ((k, _json(v)) for k, v in sorted(meta.items()))
        )

    def write_entries(self, conn: sqlite3.Connection) -> None:
        """Insert the entries of :attr:`added`, with their records and identity keys."""
        conn.executemany(
            "INSERT INTO papers VALUES (?, ?, ?, ?)",
            ((e.key, e.wanted, len(e.issues), e.dumps()) for e in self.added),
        )
        conn.executemany(
            "INSERT INTO records VALUES (?, ?, ?)",
            ((digest, ordinal, e.key) for e in self.added for _, digest, ordinal, _, _ in e.records),
        )
        conn.executemany(
            "INSERT INTO identities VALUES (?, ?)",
            ((key, e.key) for e in self.added for key in sorted({k for *_, keys in e.records for k in keys})),
        )


def create(path: Path) -> sqlite3.Connection:
    """A new, empty ledger at ``path`` (a file written whole, then renamed into place: no journal)."""
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.executescript(_TABLES)
    conn.execute("BEGIN")
    return conn


class Ledger:
    """A build folder's ledger, as a delta reads it (see the module docstring)."""

    def __init__(self, conn: sqlite3.Connection, meta: dict[str, Any]) -> None:
        self.conn = conn
        self.generation = str(meta["generation"])
        self.settings: dict[str, Any] = dict(meta["settings"])
        self.counts: dict[str, int] = {str(k): int(v) for k, v in meta["counts"].items()}

    @classmethod
    def load(cls, out: Path) -> Ledger | None:
        """The ledger of build folder ``out``; None when there is none or it is damaged."""
        path = out / LEDGER
        if not path.is_file():
            return None
        try:
            conn = sqlite3.connect(str(path), isolation_level=None)
            try:
                meta = {
                    name: json.loads(value) for name, value in conn.execute("SELECT name, value FROM meta")
                }
                if meta.get("format") != FORMAT:
                    conn.close()
                    return None
                return cls(conn, meta)
            except BaseException:
                conn.close()
                raise
        except (sqlite3.Error, ValueError, KeyError, TypeError, AttributeError):
            return None

    def close(self) -> None:
        self.conn.close()

    def entries(self, keys: Iterable[str] | None = None) -> Iterator[Entry]:
        """The entries of ``keys`` (those the ledger has), or all, in key order."""
        if keys is None:
            for key, text in self.conn.execute("SELECT key, entry FROM papers ORDER BY key"):
                yield Entry.loads(key, text)
            return
        rows = self._where_in("SELECT key, entry FROM papers WHERE key", keys)
        yield from sorted((Entry.loads(key, text) for key, text in rows), key=lambda e: e.key)

    @property
    def lines(self) -> dict[str, str]:
        """Every entry, encoded, by key (a dropped paper's too)."""
        return dict(self.conn.execute("SELECT key, entry FROM papers ORDER BY key"))

    def papers_of_files(self, digests: Iterable[str]) -> set[str]:
        """The papers holding a record of a file with one of ``digests``."""
        found: set[str] = set()
        for digest in sorted(set(digests)):
            found.update(
                p for (p,) in self.conn.execute("SELECT paper FROM records WHERE digest = ?", (digest,))
            )
        return found

    def papers_of_keys(self, keys: Iterable[str]) -> set[str]:
        """The papers a record with one of the identity ``keys`` made."""
        return {p for (p,) in self._where_in("SELECT paper FROM identities WHERE key", keys)}

    def records_of(
        self, papers: Iterable[str]
    ) -> dict[str, list[tuple[str, str, int, int, tuple[str, ...]]]]:
        """Where the records of each of ``papers`` lie (see :data:`RecordRow`)."""
        return {e.key: list(e.records) for e in self.entries(papers)}

    def holding(self, paper_keys: Iterable[str]) -> set[str]:
        """The entries that hold or want one of ``paper_keys`` (papers dropped for a key included)."""
        return {k for (k,) in self._where_in("SELECT key FROM papers WHERE wanted", paper_keys)}

    def _where_in(self, select: str, values: Iterable[str]) -> Iterator[tuple[Any, ...]]:
        """The rows of ``select`` (ending in ``WHERE column``) whose column is one of ``values``."""
        for chunk in _chunks(sorted(set(values))):
            yield from self.conn.execute(f"{select} IN ({','.join('?' * len(chunk))})", chunk)

    def with_issues(self) -> Iterator[Entry]:
        """The entries that carry issues, in key order."""
        for key, text in self.conn.execute("SELECT key, entry FROM papers WHERE issues > 0 ORDER BY key"):
            yield Entry.loads(key, text)

    def file_issues(self) -> dict[str, list[IssueRow]]:
        """Each input file's issues, by shown path."""
        return {
            path: [_row(r) for r in json.loads(text)]
            for path, text in self.conn.execute("SELECT * FROM files")
        }

    def authorships(self, blocks: Iterable[str]) -> list[tuple[str, str, int, str, str, str]]:
        """(block, entry key, position, person, name as written, name key) of every authorship in ``blocks``."""
        return [
            (b, p, int(n), k, w, m)
            for b, p, n, k, w, m in self._where_in("SELECT * FROM authorships WHERE block", blocks)
        ]

    def authorships_of(self, papers: Iterable[str]) -> list[tuple[str, str, int, str, str, str]]:
        """The same of every authorship of ``papers``."""
        return [
            (b, p, int(n), k, w, m)
            for b, p, n, k, w, m in self._where_in("SELECT * FROM authorships WHERE paper", papers)
        ]

    def person_keys(self) -> set[str]:
        """The key of every person the persons stage decided."""
        return {k for (k,) in self.conn.execute("SELECT key FROM persons")}

    def persons(self, blocks: Iterable[str]) -> list[tuple[str, str, str]]:
        """(block, person key, the person as JSON) of every person of ``blocks``."""
        return list(self._where_in("SELECT * FROM persons WHERE block", blocks))

    def sums(self, keys: Iterable[tuple[str, str, str]], whole: Iterable[str] = ()) -> Iterator[SumRow]:
        """The sums of ``keys`` (channel, key, sub) and of every channel of ``whole``."""
        for channel in sorted(set(whole)):
            yield from self.conn.execute(
                "SELECT channel, key, sub, n, detail FROM sums WHERE channel = ?", (channel,)
            )
        wanted = sorted(set(keys))
        if not wanted:
            return
        # looked up by the unique index, one row of a temporary table at a time (a list of row values
        # in the query would be a scan of the whole table)
        self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (channel TEXT, key TEXT, sub TEXT)")
        self.conn.execute("DELETE FROM temp.wanted")
        self.conn.executemany("INSERT INTO temp.wanted VALUES (?, ?, ?)", wanted)
        yield from self.conn.execute(
            "SELECT s.channel, s.key, s.sub, s.n, s.detail FROM temp.wanted w JOIN sums s "
            "ON s.channel = w.channel AND s.key = w.key AND s.sub = w.sub"
        )


class Draft:
    """What a build writes into the ledger: a new ledger filled as the build's papers are made (a full
    build: :meth:`new`, :meth:`add`), or a delta's changes, applied to the folder's ledger when the
    build is committed.  :meth:`stage` prepares either so that one step commits it."""

    def __init__(self, changes: Changes, conn: sqlite3.Connection | None = None, path: Path | None = None):
        self.changes = changes
        self._pending: list[Entry] = []
        self.conn = conn
        """A full build's new ledger (a file in ``path``, else in memory), its papers added."""
        self.path = path

    @classmethod
    def new(cls, settings: dict[str, Any], folder: Path | None) -> Draft:
        """An empty ledger for a full build, in a temporary file of ``folder`` (else in memory)."""
        if folder is None:
            conn = sqlite3.connect(":memory:", isolation_level=None)
            conn.executescript(_TABLES)
            conn.execute("BEGIN")
            return cls(Changes(settings), conn)
        from kg.files import TEMP_SUFFIX, temp_prefix

        path = folder / f"{temp_prefix(LEDGER)}{secrets.token_hex(4)}{TEMP_SUFFIX}"
        return cls(Changes(settings), create(path), path)

    def add(self, entry: Entry) -> None:
        """Put a full build's entry in its new ledger (in batches)."""
        self._pending.append(entry)
        if len(self._pending) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the entries added so far."""
        assert self.conn is not None, "a delta's entries are in its changes"
        try:
            Changes(self.changes.settings, added=self._pending).write_entries(self.conn)
        except sqlite3.Error as e:  # a full disk, mostly
            where = self.path.parent / LEDGER if self.path is not None else LEDGER
            raise KgError(f"cannot write the ledger {where}: {e}", code="write-failed") from e
        self._pending = []

    def stage(self, out: Path) -> Staging:
        """Make the ledger ``out`` gets from this build ready to commit in one step (the caller
        names the generation with :meth:`Staging.commit`)."""
        return Staging(self, out)

    def close(self) -> None:
        """Let go of a full build's new ledger (not committed: its file is removed)."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        if self.path is not None:
            self.path.unlink(missing_ok=True)


class Staging:
    """A ledger about to be committed: a full build's new file renamed over ``OUT/ledger.sqlite``, or a
    delta's changes applied to it in one transaction."""

    def __init__(self, draft: Draft, out: Path) -> None:
        self.draft, self.out = draft, out
        self.target = out / LEDGER
        self._conn: sqlite3.Connection | None = None
        self._temp: Path | None = None

    def prepare(self, generation: str) -> None:
        """Write everything but the last step, which :meth:`commit` takes."""
        from kg.files import TEMP_SUFFIX, temp_prefix

        draft = self.draft
        if draft.conn is None:  # a delta: the folder's ledger changed in a transaction left open
            conn = sqlite3.connect(str(self.target), isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            draft.changes.write(conn, generation, fresh=False)
            self._conn = conn
            return
        draft.flush()
        if draft.path is not None and draft.path.parent == self.out:  # the file the build filled
            conn, self._temp = draft.conn, draft.path
            draft.conn = draft.path = None
        else:  # in memory, or committed to another folder already: a copy beside the target
            draft.conn.execute("COMMIT")
            self._temp = self.out / f"{temp_prefix(LEDGER)}{secrets.token_hex(4)}{TEMP_SUFFIX}"
            conn = sqlite3.connect(str(self._temp), isolation_level=None)
            draft.conn.backup(conn)
            draft.conn.execute("BEGIN")
            conn.execute("BEGIN")
        try:
            draft.changes.write(conn, generation, fresh=True)
            conn.executescript(_INDEXES)  # commits the rows first
        finally:
            conn.close()
        fd = os.open(self._temp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def commit(self) -> None:
        if self._conn is not None:
            self._conn.execute("COMMIT")
            self._conn.close()
            self._conn = None
        elif self._temp is not None:
            os.replace(self._temp, self.target)
            self._temp = None

    def discard(self) -> None:
        """Let go of what :meth:`prepare` wrote, and of the build's own ledger file in ``out`` (a build
        whose commit failed is not committed again)."""
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            self._conn.close()
            self._conn = None
        if self._temp is not None:
            self._temp.unlink(missing_ok=True)
            self._temp = None
        if self.draft.path is not None and self.draft.path.parent == self.out:
            self.draft.close()
