"""The one place the stages are wired: read -> extract -> resolve -> assemble -> store.

>>> from kg.errors import IssueLog, KgError
>>> b = build([Path("seeds")], BuildOptions(), IssueLog())  # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import os
import shutil
import time
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, cast

import pyoxigraph as ox

from kg import store as stores
from kg.assemble import Namer, assemble, check_kinds, ontology_triples, relabel
from kg.cache import (
    CACHE_DIR,
    Changes,
    Entries,
    Extract,
    FileEntry,
    Manifest,
    cache_name,
    changes,
    dumps_extract,
    extraction_key,
    loads_extract,
    paper_hash,
    replay,
    resolution_key,
)
from kg.curation import Curation
from kg.errors import IssueLog, KgError, os_message
from kg.executors import Extraction, Progress, Step, _known_keys, collector_paused, steady_malloc
from kg.exporters import turtle
from kg.extractors import EXTRACTORS
from kg.extractors import check as check_extractors
from kg.extractors.subjects import codes
from kg.files import Hashing
from kg.ledger import PAPER_CODES, Entry, Ledger, row
from kg.readers import digest
from kg.readers import thesaurus as thesauri
from kg.readers.discover import InputFile, discover, shown_path
from kg.records import Location, Mention, Record
from kg.resolve import Area, Paper, Place, Plan, Streaming
from kg.vocab import DATA_BASE

DEFAULT_INPUT = Path("seeds")
DEFAULT_OUT = Path("outputs")


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What a build reads and how it names things."""

    base: str = DATA_BASE
    extractors: tuple[str, ...] | None = None
    """Names of the extractors to run (default: all of ``EXTRACTORS``)."""
    taxonomies: bool = True
    """Include the shipped taxonomies (arXiv subjects, methods) whole, not only the concepts papers use."""
    cache: Path | None = None
    """A previous build folder whose manifest and cache let unchanged files skip reading (incremental)."""
    full: bool = False
    """Ignore the cache: read and extract every file again."""
    workers: int = 1
    """Processes that run the extractors (``kg build --workers``; 1 runs them in this process)."""
    store: Path | None = None
    """Assemble the graph in an on-disk store here (see ``kg.store.staging``); default: in memory."""
    scheduler: str | None = None
    """Address of a Dask distributed scheduler (``tcp://host:port``) to run the extractors on."""
    thesaurus: Path | None = None
    """A VOSviewer-style thesaurus (``label<TAB>replace by``) that merges, renames or drops methods
    and persons (``kg build --thesaurus``; see ``kg.curation.Curation`` and docs/thesaurus.md)."""


@dataclass(slots=True)
class Build:
    """The result of a build: the graph in its store, what was read, and what went wrong."""

    store: ox.Store
    counts: dict[str, int]
    """What was resolved: records, papers, persons, coauthor pairs (see ``Resolution.counts``; the
    papers themselves are used up by assembly, and ``manifest.papers`` lists their keys in order)."""
    log: IssueLog
    base: str
    files: list[InputFile] = field(default_factory=list)
    files_read: int = 0
    files_reused: int = 0
    triples: int = 0
    seconds: float = 0.0
    manifest: Manifest = field(default_factory=Manifest)
    fresh: Entries = field(default_factory=Entries)
    """Cache entries of the files read in this build (see ``kg.cache.dumps_extract``; written to the
    cache with the outputs).  Encoded as each file is read, so the records and mentions a paper
    does not keep are freed once the papers are resolved, and spilled to disk by a build with an
    on-disk store."""
    fresh_keys: Entries = field(default_factory=Entries)
    """The record identities of the files whose first pass read them in this build (see
    ``kg.cache.dumps_identities``), for the cache: a rebuild's first pass takes them instead."""
    changes: Changes | None = None
    store_path: Path | None = None
    """Where the store lies on disk, when it was assembled there."""
    turtle: Path | None = None
    """The build's graph.ttl, when it was written while the store was loaded (see
    ``kg.exporters.turtle.STREAM``; ``write_outputs`` renames it into place)."""
    turtle_sha256: str = ""
    """The SHA-256 of ``turtle``, hashed as it was written."""
    timings: dict[str, float] = field(default_factory=dict)
    """Seconds spent per stage (read+extract, resolve, assemble, and each output written)."""
    ledger: Ledger | None = None
    """What each paper gave to the shared nodes (``kg.ledger``), written beside the manifest so that
    the next build can be a delta; None when the build cannot be one's base (a thesaurus)."""
    lazy: tuple[str, ...] = ()
    """Outputs of ``kg.build_pages.BUILD_OUTPUTS`` a delta build of a big graph does not rewrite
    (removed from the build folder: ``kg export`` and ``kg viz`` make them from the store)."""
    generation: str = ""
    """The generation of a build whose graph.ttl is not written (``lazy``); else graph.ttl's SHA-256."""
    delta: dict[str, int] | None = None
    """What a delta build did (papers re-made, triples deleted and inserted); None for a full build."""
    full_because: str = ""
    """Why ``kg build`` built in full rather than as a delta (see ``kg.delta.rebuild``)."""

    def summary(self) -> dict[str, int]:
        """The figures a build reports."""
        return {
            "files": len(self.files),
            "files_failed": len(self.log.failed_files),
            "files_read": self.files_read,
            "files_reused": self.files_reused,
            "records": self.counts["records"],
            "papers": self.counts["papers"],
            "persons": self.counts["persons"],
            "coauthor_pairs": self.counts["coauthor_pairs"],
            "triples": self.triples,
        }


def build(
    paths: Iterable[Path],
    options: BuildOptions | None = None,
    log: IssueLog | None = None,
    progress: Progress | None = None,
) -> Build:
    """Read every input, extract, resolve and assemble the graph into an in-memory store.

    ``progress`` hears of every file as the first pass has identified it and as the second pass
    starts reading it, and of the store's compaction (:class:`Step`)."""
    options = options or BuildOptions()
    steady_malloc()
    spill = options.store.parent if options.store is not None else None  # beside the store
    fresh, fresh_keys = Entries(spill), Entries(spill)
    with collector_paused():
        try:
            return _build(paths, options, log, progress, fresh, fresh_keys)
        except BaseException:
            fresh.close()
            fresh_keys.close()
            raise


def _build(
    paths: Iterable[Path],
    options: BuildOptions,
    log: IssueLog | None,
    progress: Progress | None,
    fresh: Entries,
    fresh_keys: Entries,
) -> Build:
    log = log if log is not None else IssueLog()
    started = time.perf_counter()
    extractors = check_extractors(options.extractors or None)  # an unknown name is an error, not ignored
    check_kinds({name: EXTRACTORS[name].KINDS for name in extractors})
    if options.store is not None:
        _make_room(options.store)
    files = discover(paths, log, options.cache)
    previous = Manifest.load(options.cache) if options.cache is not None else Manifest()
    # the thesaurus is read once, before the inputs, and applied where identity is decided
    thesaurus = (
        thesauri.read(options.thesaurus, log, shown_path(options.thesaurus))
        if options.thesaurus is not None
        else None
    )
    curation = Curation.of(thesaurus) if thesaurus is not None else None
    manifest = Manifest(
        extraction=extraction_key(extractors),
        resolution=resolution_key(thesaurus.digest if thesaurus is not None else ""),
    )
    reuse = previous.extraction == manifest.extraction and options.cache is not None and not options.full
    reading = _Reading(_accepted(files, previous, reuse, log), options, manifest, reuse, log, progress, fresh)
    if curation is None:
        reading.ledger = Ledger(settings(options, manifest.extraction))
    graph = stores.on_disk(options.store) if options.store is not None else stores.memory()
    # an on-disk store is a big graph's: its graph.ttl is written as the triples are loaded
    stream = options.store / turtle.STREAM if options.store is not None else None
    streamed_sha256 = ""
    extraction = Extraction(options.extractors, options.workers, options.scheduler)
    try:
        with extraction:
            # first pass: which records make each paper, from their identity keys alone; then the
            # papers are made, assembled and loaded while the records are read and extracted, and
            # only records waiting for the others of their paper are held
            remembered = (
                _known_keys(options.cache, manifest.extraction)
                if reuse and options.cache is not None
                else None
            )
            identities = extraction.identify(reading.accepted, remembered, fresh_keys, progress)
            plan = Plan.of(identities)
            identified = time.perf_counter()
            streaming = Streaming(
                plan, log, reading.records(extraction), reading.observe, curation, reading.drop
            )
            reading.areas = streaming.areas
            del plan
            renamed = curation.labels if curation is not None else {}
            quads = itertools.chain(
                relabel(ontology_triples(), renamed) if options.taxonomies else (),
                assemble(streaming, Namer(options.base), codes().values()),
            )
            if stream is None:
                stores.load(graph, quads)
            else:
                streamed_sha256 = _load_writing_turtle(graph, quads, stream, options.base)
        # counted once: an on-disk store counts by reading its index, which takes seconds on a big graph
        triples = len(graph)
        if stream is not None and triples <= turtle.SORT_LIMIT:  # small: graph.ttl is written sorted
            stream.unlink()
            stream = None
        loaded = time.perf_counter()
        if options.store is not None:
            if progress is not None:
                progress(Step("optimizing", None, len(reading.accepted), len(reading.accepted)))
            # the bulk loader leaves many small sorted files; compacted, an index lookup costs a fraction
            # of what it did (the compaction is repaid by the pages and every query)
            graph.optimize()
    except OSError as e:  # the on-disk store's disk is full or went read-only
        traceback.clear_frames(e.__traceback__)  # the frames' locals hold the store (and its files) open
        del graph
        if options.store is not None:
            shutil.rmtree(options.store, ignore_errors=True)
        where = options.store and stores.shown(options.store)
        raise KgError(f"cannot write the store {where}: {os_message(e)}", code="write-failed") from e
    optimized = time.perf_counter()
    manifest.papers = dict(sorted(manifest.papers.items()))
    counts = streaming.counts()
    ledger = reading.ledger
    if ledger is not None:
        ledger.counts = {**counts, "triples": triples}
    return Build(
        ledger=ledger,
        timings={
            "identify": identified - started,
            "read+extract+assemble": loaded - identified,
            "optimize": optimized - loaded,
        },
        store=graph,
        counts=counts,
        log=log,
        base=options.base,
        files=files,
        files_read=reading.read,
        files_reused=reading.reused,
        triples=triples,
        seconds=time.perf_counter() - started,
        manifest=manifest,
        fresh=fresh,
        fresh_keys=fresh_keys,
        changes=changes(previous.papers, manifest.papers),
        store_path=options.store,
        turtle=stream,
        turtle_sha256=streamed_sha256,
    )


def settings(options: BuildOptions, extraction: str) -> dict[str, object]:
    """What a build's graph depends on besides its inputs: a delta needs the same (``kg.ledger``)."""
    return {"base": options.base, "taxonomies": options.taxonomies, "extraction": extraction}


Accepted = tuple[InputFile, str, os.stat_result]
"""An input file a build reads: the file, its SHA-256 and its state when it was first looked at."""


def _accepted(files: list[InputFile], previous: Manifest, reuse: bool, log: IssueLog) -> list[Accepted]:
    """The files to read, each with its SHA-256 (taken from the previous manifest when the file's size
    and time are unchanged and the cache is reused); an unreadable file or a second copy of one is
    said and skipped."""
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
        if key in digests:
            log.warn(Location(item.shown, 1), "duplicate-file", f"same content as {digests[key]}; skipped")
            continue
        digests[key] = item.shown
        accepted.append((item, key, st))
    return accepted


@dataclass
class _Reading:
    """The second pass of a build: every record of the accepted files with its mentions, read and
    extracted or taken from the cache; it fills the new manifest (files, papers) and the fresh cache
    entries, and counts the files read and reused."""

    accepted: list[Accepted]
    options: BuildOptions
    manifest: Manifest
    reuse: bool
    log: IssueLog
    progress: Progress | None
    fresh: Entries
    read: int = 0
    reused: int = 0
    ledger: Ledger | None = None
    areas: dict[str, Area] = field(default_factory=dict)
    """The resolution's areas (what a paper's ledger entry names its areas by)."""
    _mark: int = 0

    def records(self, extraction: Extraction) -> Iterator[tuple[Place, Record, list[Mention]]]:
        """Each record by its place (file SHA-256, ordinal), with its mentions."""
        cache = self.options.cache
        for done, (item, key, st) in enumerate(self.accepted):
            if self.progress is not None:
                self.progress(Step("reading", item, done, len(self.accepted)))
            cached = (
                _cached(cache, item.shown, key, self.manifest.extraction)
                if self.reuse and cache is not None
                else None
            )
            items: Iterable[tuple[Record, list[Mention]]]
            if cached is not None:
                replay(cached, self.log)
                self.reused += 1
                items = cached.items
                cached.items = []
            else:
                extract = Extract()
                items = extraction.stream(item, key, self.log, extract)
                self.read += 1
            source = None
            ordinal = 0
            for record, mentions in _draining(items):
                source = source or record.source
                yield (key, ordinal), record, mentions
                ordinal += 1
            _unchanged(item, st)  # every file: its papers were planned from it as it was then
            if cached is None:
                self.fresh[item.shown] = dumps_extract(extract, source)
            if self.ledger is not None:
                self.ledger.files[item.shown] = [row(i) for i in (extract if cached is None else cached).issues]
            self.manifest.files[item.shown] = FileEntry(key, st.st_size, st.st_mtime_ns, ordinal)

    def observe(self, paper: Paper) -> None:
        """A paper made: the manifest remembers its hash (what a rebuild compares)."""
        self.manifest.papers[paper.key] = paper_hash(paper)
        self._enter(paper, dropped=False)

    def drop(self, paper: Paper) -> None:
        """A paper dropped for its key (``paper-key-collision``): the ledger keeps what it named."""
        self._enter(paper, dropped=True)

    def _enter(self, paper: Paper, dropped: bool) -> None:
        if self.ledger is not None:
            issues = self.log.issues
            own = [i for i in issues[self._mark :] if i.code in PAPER_CODES]
            self._mark = len(issues)
            self.ledger.add(Entry.of(paper, self.areas, own, dropped))


def _load_writing_turtle(graph: ox.Store, quads: Iterable[ox.Quad], stream: Path, base: str) -> str:
    """Load ``quads`` into the on-disk store ``graph`` while writing them as Turtle to ``stream``
    (the build's graph.ttl, renamed into place later and never read again); its SHA-256."""
    with open(stream, "wb") as f:
        # hashed as it is written: graph.ttl's SHA-256 is the build's generation
        hashing = Hashing(f)
        sink = cast(BinaryIO, hashing)
        if stores.STREAMED:
            # the loader reads graph.ttl's own text as it is written: the quads are serialized once,
            # not also as N-Quads for the loader
            with stores.Loader(graph, ox.RdfFormat.TURTLE) as loader:
                turtle.write_stream(quads, loader.tee(sink), base)
        else:
            with stores.Loader(graph) as loader:
                turtle.write_stream(loader.loading(quads), sink, base)
        f.flush()
        os.fsync(f.fileno())
        return hashing.digest.hexdigest()


def _make_room(store: Path) -> None:
    """Before reading anything: remove what killed builds left beside the store (it may be large),
    and fail now, not after extraction, when the store's folder cannot be written."""
    try:
        store.parent.mkdir(parents=True, exist_ok=True)
        stores.clean(store.parent)
        store.mkdir(exist_ok=True)
    except OSError as e:
        where = stores.shown(store)
        raise KgError(f"cannot write the store {where}: {os_message(e)}", code="write-failed") from e


def _unchanged(item: InputFile, before: os.stat_result) -> None:
    """Stop the build if a file read twice (see :class:`kg.resolve.Plan`) changed in between: its
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


def _draining(items: Iterable[tuple[Record, list[Mention]]]) -> Iterator[tuple[Record, list[Mention]]]:
    """``items``, a list of them let go one by one as they are handed out."""
    if not isinstance(items, list):
        yield from items
        return
    items.reverse()
    while items:
        yield items.pop()


def _cached(out: Path, shown: str, key: str, extraction: str) -> Extract | None:
    """The cached extract of one file, when the cache has a readable one."""
    path = out / CACHE_DIR / cache_name(shown, key, extraction)
    try:
        _, extract = loads_extract(path.read_bytes())
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None  # a missing or damaged cache entry only means reading the file again
    return extract


