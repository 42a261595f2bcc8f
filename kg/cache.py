"""Incremental builds: a manifest of input files and a cache of what was read from each.

``kg build --out DIR`` keeps ``DIR/manifest.json`` (every input file with its
size, modification time and SHA-256, and a hash of every built paper) and
``DIR/cache/`` (the records, mentions and issues read from each file, as gzip'd
JSON).  A rebuild reads and extracts only files that are new or changed; the
others come from the cache, so the graph is the same as a full rebuild's, and
the issues of unchanged files are reported again.  The cache is tied to the kg
version and to the shipped taxonomies: when either changes, everything is read
afresh.  ``--full`` ignores the cache.

What a build resolves with is keyed apart (:func:`resolution_key`, the manifest's
``resolution``): the user's thesaurus applies after extraction, so a changed
thesaurus re-resolves every paper (resolution always runs over every record, the
cached ones too) without reading or extracting any file again.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import IO, Any

from kg import __version__
from kg.errors import Issue, IssueLog
from kg.grouping import Identity
from kg.layout import CACHE as CACHE_DIR
from kg.layout import MANIFEST
from kg.records import Location, Mention, Record, SourceFile, Span
from kg.resolve import Paper
from kg.vocab import ontology_path

FORMAT = 1


def extraction_key(extractors: Iterable[str]) -> str:
    """What cached extraction results depend on: kg's version, the extractors run, and the code and
    data that make records and mentions (the readers' and extractors' modules, the vocabularies), so
    that a changed reader or extractor never leaves a rebuild with the mentions of the old one."""
    h = hashlib.sha256(f"{FORMAT}:{__version__}:{','.join(extractors)}".encode())
    h.update(_extraction_code().encode())
    return h.hexdigest()[:20]


@lru_cache(maxsize=1)
def _extraction_code() -> str:
    """A digest of the readers' and extractors' source files and of the shipped vocabularies."""
    package = Path(__file__).resolve().parent
    files = sorted(
        [*(package / "readers").rglob("*.py"), *(package / "extractors").rglob("*.py"), package / "records.py"]
    ) + sorted(ontology_path("").glob("*.ttl"))
    h = hashlib.sha256()
    for path in files:
        h.update(path.name.encode() + b"\0")
        with contextlib.suppress(OSError):
            h.update(path.read_bytes())
    return h.hexdigest()


def resolution_key(thesaurus_digest: str) -> str:
    """What resolution depends on beyond the extracted mentions: the user's thesaurus (its SHA-256;
    ``""`` without one).  Recorded in the manifest, so that a build folder says what it was resolved
    with; it is not part of :func:`extraction_key`, as a changed thesaurus changes no extraction
    (cached mentions stay good, and every build resolves all of them again).

    >>> resolution_key(""), len(resolution_key("ab" * 32))
    ('', 20)
    """
    if not thesaurus_digest:
        return ""
    return hashlib.sha256(f"{FORMAT}:thesaurus:{thesaurus_digest}".encode()).hexdigest()[:20]


@dataclass(slots=True)
class FileEntry:
    """One input file as the manifest remembers it."""

    digest: str
    size: int
    mtime_ns: int
    records: int


@dataclass(slots=True)
class Extract:
    """What one file gave: its records with their mentions, and its issues."""

    items: list[tuple[Record, list[Mention]]] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)
    encoded: list[bytes] | None = None
    """The items already encoded for the cache, batch by batch, when workers did it (:func:`encode_items`)."""
    counts: list[int] | None = None
    """Items in each of ``encoded`` (the entry's index of its pieces, see :func:`loads_items`)."""


@dataclass(slots=True)
class Manifest:
    extraction: str = ""
    files: dict[str, FileEntry] = field(default_factory=dict)
    papers: dict[str, str] = field(default_factory=dict)
    generation: str = ""
    """The SHA-256 of the graph.ttl of the build this manifest completed (its store has the same stamp)."""
    resolution: str = ""
    """What the build resolved with (:func:`resolution_key`: the user's thesaurus); ``""`` without one."""

    @classmethod
    def load(cls, out: Path) -> Manifest:
        """The manifest of a build folder (empty when there is none or it is unreadable)."""
        path = out / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            files = {k: FileEntry(**v) for k, v in data["files"].items()}
            return cls(
                str(data["extraction"]),
                files,
                dict(data["papers"]),
                str(data.get("generation", "")),
                str(data.get("resolution", "")),
            )
        except (OSError, ValueError, KeyError, TypeError):
            return cls()

    def dumps(self) -> bytes:
        data = {
            "format": FORMAT,
            "extraction": self.extraction,
            "generation": self.generation,
            "resolution": self.resolution,
            "files": {k: vars_of(v) for k, v in sorted(self.files.items())},
            "papers": dict(sorted(self.papers.items())),
        }
        return (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


class Entries(Mapping[str, bytes]):
    """Cache entries of the files a build read, by shown path, until the build's outputs are written.

    With a ``folder``, each entry is spilled as it is added to an unnamed temporary file there
    (nothing is left behind if the process dies), so a big build holds none of them: they grow with
    the input.  Without one they are held in memory.
    """

    def __init__(self, folder: Path | None = None) -> None:
        self._folder = folder
        self._file: IO[bytes] | None = None
        self._memory: dict[str, bytes] = {}
        self._spilled: dict[str, tuple[int, int]] = {}

    def __setitem__(self, shown: str, blob: bytes) -> None:
        if self._folder is None:
            self._memory[shown] = blob
            return
        if self._file is None:  # open while the build's result holds it (or :meth:`close`)
            self._file = tempfile.TemporaryFile(dir=self._folder)  # noqa: SIM115
        offset = self._file.seek(0, os.SEEK_END)
        self._file.write(blob)
        self._spilled[shown] = (offset, len(blob))

    def __getitem__(self, shown: str) -> bytes:
        if shown in self._memory:
            return self._memory[shown]
        offset, size = self._spilled[shown]
        assert self._file is not None  # entries are spilled only with a file
        self._file.seek(offset)
        return self._file.read(size)

    def __iter__(self) -> Iterator[str]:
        yield from self._memory
        yield from self._spilled

    def __len__(self) -> int:
        return len(self._memory) + len(self._spilled)

    def close(self) -> None:
        """Let go of the spilled entries (a failed build: its frames may outlive it, and an open
        file keeps the space it takes and its file system busy)."""
        if self._file is not None:
            self._file.close()
            self._file = None
        self._memory.clear()
        self._spilled.clear()


def vars_of(entry: FileEntry) -> dict[str, Any]:
    return {f.name: getattr(entry, f.name) for f in fields(entry)}


def cache_name(shown: str, digest: str, extraction: str) -> str:
    """Cache entries are per (path, content, extraction key): records carry their file's path, and an
    entry is never rewritten with other content (an interrupted build cannot change what the manifest
    of the previous one names)."""
    return hashlib.sha256(f"{shown}\0{digest}\0{extraction}".encode()).hexdigest()[:32] + ".json.gz"


def keys_name(shown: str, digest: str, extraction: str) -> str:
    """The entry beside a file's cache entry that holds its records' identities (see
    :func:`dumps_identities`)."""
    return cache_name(shown, digest, extraction).removesuffix(".json.gz") + ".keys.json.gz"


def dumps_identities(identities: Iterable[Identity]) -> bytes:
    """One file's record identities (the first pass's result, :class:`kg.resolve.Identity`) as gzip'd
    JSON, ``[[line, [key, ...]], ...]``: what a rebuild's first pass takes instead of reading an
    unchanged file again.  The path and record keys follow from the file's name and SHA-256."""
    rows = [[i.at.line, list(i.keys)] for i in identities]
    return gzip.compress(json.dumps(rows, ensure_ascii=False, separators=(",", ":")).encode(), 1, mtime=0)


def loads_identities(blob: bytes, shown: str, digest: str) -> list[Identity]:
    """The identities :func:`dumps_identities` wrote, of the file ``shown`` with SHA-256 ``digest``.

    Raises ``ValueError`` (or ``OSError``, ``EOFError``, ``TypeError``) on a damaged entry.
    """
    rows = json.loads(gzip.decompress(blob))
    if not isinstance(rows, list):
        raise ValueError("not a list of identities")
    prefix = digest[:16]
    out: list[Identity] = []
    for line, keys in rows:
        if (
            not isinstance(line, int)
            or not isinstance(keys, list)
            or not all(isinstance(k, str) for k in keys)
        ):
            raise ValueError("not an identity row")
        out.append(Identity(Location(shown, line), f"{prefix}-{line}", tuple(keys)))
    return out


def identities_of(out: Path, extraction: str) -> Callable[[str, str], list[Identity] | None]:
    """The cached record identities of a file (by its shown path and SHA-256), when the cache of build
    folder ``out`` has a readable entry: a first pass takes them instead of reading the file again."""

    def known(shown: str, key: str) -> list[Identity] | None:
        path = out / CACHE_DIR / keys_name(shown, key, extraction)
        try:
            return loads_identities(path.read_bytes(), shown, key)
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            return None  # missing or damaged: the file is read again

    return known


def paper_hash(paper: Paper) -> str:
    """A fingerprint of what a paper says (not where it was read), to tell updated papers."""
    content = (
        paper.title.text if paper.title else None,
        paper.abstract.text if paper.abstract else None,
        paper.year.text if paper.year else None,
        [(a.person, a.position, a.written, a.affiliations) for a in paper.authors],
        paper.subjects,
        paper.primary_subject,
        paper.areas,
        sorted({(m.kind, m.key) for m in paper.mentions}),
        paper.identifiers,
        (paper.published, paper.updated, paper.journal_ref, paper.comment, paper.venue, paper.links),
        len(paper.sources),
    )
    return hashlib.sha256(repr(content).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class Changes:
    added: int
    removed: int
    updated: int
    unchanged: int

    def __str__(self) -> str:
        return f"{self.added} papers added, {self.removed} removed, {self.updated} updated, {self.unchanged} unchanged"


def changes(before: dict[str, str], after: dict[str, str]) -> Changes:
    """Papers added, removed and updated between two manifests.

    >>> str(changes({"a": "1", "b": "2"}, {"b": "3", "c": "4"}))
    '1 papers added, 1 removed, 1 updated, 0 unchanged'
    """
    added = len(after.keys() - before.keys())
    removed = len(before.keys() - after.keys())
    common = after.keys() & before.keys()
    updated = sum(1 for k in common if before[k] != after[k])
    return Changes(added, removed, updated, len(common) - updated)


# --- (de)serialization of one file's extract -------------------------------------------------


def _span(s: Span | None) -> list[Any] | None:
    return None if s is None else [s.text, s.at.line]


def _unspan(v: list[Any] | None, path: str) -> Span | None:
    return None if v is None else Span(str(v[0]), Location(path, int(v[1])))


def _spans(v: list[Any], path: str) -> tuple[Span, ...]:
    return tuple(Span(str(t), Location(path, int(n))) for t, n in v)


_SPANS, _AFFILIATIONS, _TUPLES = 0, 1, 2
_ENCODED_FIELDS = tuple(
    (f.name, _AFFILIATIONS if f.name == "affiliations" else _TUPLES if f.default == () else _SPANS)
    for f in fields(Record)
    if f.name not in ("reader", "source", "at", "authors_complete")
)
"""The fields :func:`encode_record` writes, in order, by how (found once: ``fields()`` builds its
answer anew at every call, and encoding called it for each of a big build's records)."""


def encode_record(r: Record) -> dict[str, Any]:
    out: dict[str, Any] = {"reader": r.reader, "line": r.at.line, "authors_complete": r.authors_complete}
    for name, how in _ENCODED_FIELDS:
        value = getattr(r, name)
        if how == _SPANS:
            out[name] = None if value is None else [value.text, value.at.line]
        elif how == _TUPLES:
            out[name] = [[s.text, s.at.line] for s in value]
        else:
            out[name] = [[i, [s.text, s.at.line]] for i, s in value]
    return out


def decode_record(d: dict[str, Any], source: SourceFile) -> Record:
    path = source.path
    kwargs: dict[str, Any] = {}
    for f in fields(Record):
        if f.name in ("reader", "source", "at", "authors_complete") or f.name not in d:
            continue
        value = d[f.name]
        if f.name == "affiliations":
            kwargs[f.name] = tuple((int(i), _unspan(s, path)) for i, s in value)
        elif isinstance(value, list) and (not value or isinstance(value[0], list)):
            kwargs[f.name] = _spans(value, path)
        else:
            kwargs[f.name] = _unspan(value, path)
    return Record(
        reader=str(d["reader"]),
        source=source,
        at=Location(path, int(d["line"])),
        authors_complete=bool(d["authors_complete"]),
        **kwargs,
    )


def encode_mention(m: Mention) -> list[Any]:
    return [m.kind, m.key, m.text, m.at.line, m.extractor, m.position, m.detail]


def decode_mention(v: list[Any], path: str) -> Mention:
    kind, key, text, line, extractor, position, detail = v
    return Mention(
        kind, key, text, Location(path, int(line)), extractor, int(position), tuple((a, b) for a, b in detail)
    )


def encode_items(items: Iterable[tuple[Record, list[Mention]]]) -> bytes:
    """Records with their mentions as one gzip member holding the JSON of the items, comma-separated
    and without brackets: a piece of a cache entry's ``items`` list (see :func:`dumps_extract`).

    Extraction workers encode their batches this way, so the build's own process only joins them.
    """
    text = json.dumps(
        [[encode_record(r), [encode_mention(m) for m in ms]] for r, ms in items],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return gzip.compress(text[1:-1].encode("utf-8"), compresslevel=1, mtime=0)


def dumps_extract(extract: Extract, source: SourceFile | None) -> bytes:
    """A cache entry: gzip'd JSON of the file's source, items and issues.

    Pieces the workers encoded (``extract.encoded``, see :func:`encode_items`) are joined as
    they are: gzip members concatenated decompress to their texts concatenated.  The first member
    also holds an index of the pieces (``pieces``: items, offset and length of each after the first
    member), so that a delta build decodes only the pieces holding the records it wants.
    """
    issues = [[i.at.path, i.at.line, i.severity, i.code, i.message] for i in extract.issues]
    if extract.encoded:
        pieces, counts = extract.encoded, extract.counts
    else:
        pieces, counts = ([encode_items(extract.items)], [len(extract.items)]) if extract.items else ([], [])

    def member(text: str) -> bytes:
        return gzip.compress(text.encode("utf-8"), compresslevel=1, mtime=0)

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    comma = member(",")
    body: list[bytes] = []
    index: list[list[int]] = []  # items, offset after the first member, length: of each piece
    offset = 0
    for i, piece in enumerate(pieces):
        if i:
            body.append(comma)
            offset += len(comma)
        body.append(piece)
        index.append([counts[i] if counts is not None else 0, offset, len(piece)])
        offset += len(piece)
    head: dict[str, Any] = {"source": [source.path, source.digest, source.reader] if source else None}
    if counts is not None and len(counts) == len(pieces):
        head["pieces"] = index
    members = [member(dumps(head)[:-1] + ',"items":['), *body, member(f'],"issues":{dumps(issues)}}}')]
    return b"".join(members)


def loads_extract(blob: bytes) -> tuple[SourceFile | None, Extract]:
    data = json.loads(gzip.decompress(blob))
    source = SourceFile(*data["source"]) if data["source"] else None
    extract = Extract()
    if source is not None:
        for rd, ms in data["items"]:
            extract.items.append((decode_record(rd, source), [decode_mention(m, source.path) for m in ms]))
    for path, line, severity, code, message in data["issues"]:
        extract.issues.append(Issue(Location(path, int(line)), severity, code, message))
    return source, extract


def loads_items(blob: bytes, ordinals: set[int]) -> list[tuple[int, Record, list[Mention]]] | None:
    """Only the items ``ordinals`` of a cache entry (by their index in the file), decoded: a delta
    build wants a few records of a big file.  With the entry's index of pieces only the pieces that
    hold them are decompressed and parsed.  None when the entry has no source."""
    first = zlib.decompressobj(wbits=31)  # the first gzip member: the head, with the index
    text = first.decompress(blob).decode("utf-8")
    head = json.loads(text.removesuffix(',"items":[') + "}") if first.eof and text.endswith('"items":[') else {}
    items: dict[int, Any] = {}
    if "pieces" in head:
        start = 0
        for count, offset, length in head["pieces"]:
            if any(start <= i < start + count for i in ordinals):
                text = gzip.decompress(first.unused_data[offset : offset + length]).decode("utf-8")
                items.update(enumerate(json.loads("[" + text + "]"), start))
            start += count
    else:  # an entry without an index: read it whole
        head = json.loads(gzip.decompress(blob))
        items = dict(enumerate(head["items"]))
    if not head["source"]:
        return None
    source = SourceFile(*head["source"])
    return [
        (i, decode_record(items[i][0], source), [decode_mention(m, source.path) for m in items[i][1]])
        for i in sorted(ordinals)
        if i in items
    ]


def replay(extract: Extract, log: IssueLog) -> None:
    """Report a cached file's issues again, as a fresh read would."""
    for issue in extract.issues:
        log.report(issue.at, issue.severity, issue.code, issue.message)
