"""The one place the stages are wired: read -> extract -> resolve -> assemble -> store.

>>> from kg.errors import IssueLog, KgError
>>> b = build([Path("seeds")], BuildOptions(), IssueLog())  # doctest: +SKIP
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import itertools
import multiprocessing
import os
import shutil
import sys
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any, BinaryIO, cast

import pyoxigraph as ox

from kg import store as stores
from kg.assemble import Namer, assemble, ontology_triples, relabel
from kg.cache import (
    CACHE_DIR,
    MANIFEST,
    Changes,
    Entries,
    Extract,
    FileEntry,
    Manifest,
    cache_name,
    changes,
    dumps_extract,
    dumps_identities,
    encode_items,
    extraction_key,
    keys_name,
    loads_extract,
    loads_identities,
    paper_hash,
    replay,
    resolution_key,
)
from kg.errors import Issue, IssueLog, KgError, UsageError, os_message
from kg.exporters import Hashing, turtle
from kg.extractors import check as check_extractors
from kg.extractors import extract_all, warm
from kg.extractors.subjects import codes
from kg.readers import digest, read_file
from kg.readers import thesaurus as thesauri
from kg.records import Location, Mention, Record
from kg.resolve import Curation, Identity, Paper, Place, Plan, Streaming
from kg.store import STORE_DIR
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
    and persons (``kg build --thesaurus``; see ``kg.resolve.Curation`` and docs/thesaurus.md)."""


@dataclass(frozen=True, slots=True)
class InputFile:
    path: Path
    shown: str


@dataclass(frozen=True, slots=True)
class Step:
    """Where a build is, as its ``progress`` callback hears it."""

    stage: str
    """``identifying`` (the first pass, :class:`kg.resolve.Plan`), ``reading`` (the second: reading,
    extracting and loading the papers) or ``optimizing`` (compacting the store)."""
    file: InputFile | None
    """The file just identified, or the file about to be read (none while optimizing)."""
    done: int
    """Files this stage has finished."""
    total: int
    """Files this stage has in all."""


Progress = Callable[[Step], None]


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


def shown_path(path: Path) -> str:
    """A path as messages and provenance name it: relative to the working folder when inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return path.resolve().as_posix()


OUTPUT_NAMES = ("graph.ttl", "coauthors.html", "topics.html", STORE_DIR, CACHE_DIR, MANIFEST, "export")
"""What kg writes into a build folder (``kg export`` adds ``export/``): never read back as input."""


def discover(paths: Iterable[Path], log: IssueLog, out: Path | None = None) -> list[InputFile]:
    """Input files of the given files and folders (recursive, hidden files skipped), sorted, once each.

    A folder that holds no input file is a ``no-input`` error; kg's own outputs in the build folder
    ``out`` (when it lies among the inputs) are skipped with an ``output-folder`` warning.
    """
    found: dict[str, InputFile] = {}
    skip = _identity(out) if out is not None else None
    for path in paths:
        shown = shown_path(path) if path.exists() else str(path)
        if not path.exists():
            what = (
                "link leads nowhere (dangling or a loop)" if path.is_symlink() else "no such file or folder"
            )
            log.error(Location(shown, 0), "missing-input", what)
        elif path.is_dir():
            listed = False
            reported = len(log.issues)
            for file in _walk(path, log, skip):
                listed = True
                s = shown_path(file)
                found.setdefault(s, InputFile(file, s))
            if not listed and len(log.issues) == reported:  # nothing in it, and nothing said why
                log.error(
                    Location(shown, 0),
                    "no-input",
                    "folder holds no input file (expected paper listings; hidden files are skipped)",
                )
        elif path.is_file():
            found.setdefault(shown, InputFile(path, shown))
        else:
            log.error(Location(shown, 0), "not-a-file", "not a regular file or folder; skipped")
    return [found[k] for k in sorted(found)]


def _identity(folder: Path) -> tuple[int, int] | None:
    try:
        st = folder.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _walk(folder: Path, log: IssueLog, out: tuple[int, int] | None = None) -> Iterator[Path]:
    import errno

    seen: set[tuple[int, int]] = set()

    def onerror(e: OSError) -> None:
        where = shown_path(Path(e.filename)) if e.filename else shown_path(folder)
        log.error(Location(where, 0), "unreadable-folder", f"cannot list folder: {e.strerror or e}")

    for root, dirs, files in os.walk(folder, onerror=onerror, followlinks=True):
        here = Path(root)
        try:
            st = here.stat()
        except OSError as e:  # gone or unreadable since it was listed
            log.error(
                Location(shown_path(here), 0), "unreadable-folder", f"cannot read folder: {e.strerror or e}"
            )
            dirs.clear()
            continue
        if (st.st_dev, st.st_ino) in seen:  # a symlink loop: this folder was walked already
            log.warn(
                Location(shown_path(here), 0), "symlink-loop", "folder reached again through a link; skipped"
            )
            dirs.clear()
            continue
        seen.add((st.st_dev, st.st_ino))
        if out is not None and (st.st_dev, st.st_ino) == out:
            # the build folder lies among the inputs: what kg wrote there is no listing
            ours = sorted(n for n in (*dirs, *files) if n in OUTPUT_NAMES)
            if ours:
                log.warn(
                    Location(shown_path(here), 0),
                    "output-folder",
                    f"kg's own outputs in the output folder not read as input: {', '.join(ours)}",
                )
            dirs[:] = [d for d in dirs if d not in OUTPUT_NAMES]
            files = [f for f in files if f not in OUTPUT_NAMES]
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if name.startswith("."):
                continue
            file = here / name
            at = Location(f"{shown_path(here)}/{name}", 0)  # the link as listed, not where it leads
            try:
                file.stat()
            except OSError as e:
                if e.errno == errno.ELOOP:
                    log.warn(at, "symlink-loop", "link leads back to itself; skipped")
                else:
                    log.error(at, "unreadable-file", f"cannot read file: {e.strerror or e}")
                continue
            if file.is_file():
                yield file
            else:
                # reading a FIFO would block the build forever; a socket or device is no listing either
                log.error(at, "not-a-file", "not a regular file or folder; skipped")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for a stage that only adds long-lived objects.

    A build keeps millions of records, mentions and terms alive and makes almost no reference
    cycles; every full collection walks all of them, so on a big build the collector took a large
    share of the time and grew faster than the input.  Reference counting still frees
    everything else at once; the collector resumes (and catches up) afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


MMAP_THRESHOLD = 1 << 20
"""Blocks of at least this many bytes are given their own mapping by glibc's ``malloc`` and returned
to the system when freed (see :func:`steady_malloc`)."""


@functools.cache
def steady_malloc() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` for this process (once; whether it was set).

    By default glibc raises the threshold to the size of each big block freed, up to 32 MiB.  A
    build frees a big block many times a second (a batch of N-Quads for the store, a worker's
    pickled results), so soon every block under 32 MiB comes from the heap, where the freed ones
    leave holes that are not given back: the process grew with the build.  Fixed, a big block that
    no free space in the heap fits is mapped, and unmapped when freed, instead of growing the heap;
    the heap keeps the small ones, which fit each other's holes, and the peak resident set falls,
    most on big builds (the figures: docs/build-speed.md).  A threshold
    the user set (``MALLOC_MMAP_THRESHOLD_``) is left alone, and so are other C libraries.
    """
    if not sys.platform.startswith("linux") or "MALLOC_MMAP_THRESHOLD_" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own C library
    except (OSError, AttributeError):  # no C library to ask, or one without mallopt
        return False
    m_mmap_threshold = -3  # <malloc.h>; a C library that ignores it (musl) returns 0
    return bool(mallopt(m_mmap_threshold, MMAP_THRESHOLD))


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
    tally = {"read": 0, "reused": 0}
    accepted: list[tuple[InputFile, str, os.stat_result]] = []
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

    def records(extraction: Extraction) -> Iterator[tuple[Place, Record, list[Mention]]]:
        """The second pass: every record with its mentions (read and extracted, or from the cache)."""
        for done, (item, key, st) in enumerate(accepted):
            if progress is not None:
                progress(Step("reading", item, done, len(accepted)))
            cached = (
                _cached(options.cache, item.shown, key, manifest.extraction)
                if reuse and options.cache is not None
                else None
            )
            items: Iterable[tuple[Record, list[Mention]]]
            if cached is not None:
                replay(cached, log)
                tally["reused"] += 1
                items = cached.items
                cached.items = []
            else:
                extract = Extract()
                items = extraction.stream(item, key, log, extract)
                tally["read"] += 1
            source = None
            ordinal = 0
            for record, mentions in _draining(items):
                source = source or record.source
                yield (key, ordinal), record, mentions
                ordinal += 1
            _unchanged(item, st)  # every file: its papers were planned from it as it was then
            if cached is None:
                fresh[item.shown] = dumps_extract(extract, source)
            manifest.files[item.shown] = FileEntry(key, st.st_size, st.st_mtime_ns, ordinal)

    def observe(paper: Paper) -> None:
        manifest.papers[paper.key] = paper_hash(paper)

    graph = stores.on_disk(options.store) if options.store is not None else stores.memory()
    namer = Namer(options.base)
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
            identities = extraction.identify(accepted, remembered, fresh_keys, progress)
            plan = Plan.of(identities)
            identified = time.perf_counter()
            streaming = Streaming(plan, log, records(extraction), observe, curation)
            del plan
            renamed = curation.labels if curation is not None else {}
            quads = itertools.chain(
                relabel(ontology_triples(), renamed) if options.taxonomies else (),
                assemble(streaming, namer, codes().values()),
            )
            if stream is None:
                stores.load(graph, quads)
            else:
                with open(stream, "wb") as f:
                    # hashed as it is written: graph.ttl's SHA-256 is the build's generation, and
                    # the file is then renamed into place, never read again
                    hashing = Hashing(f)
                    sink = cast(BinaryIO, hashing)
                    if stores.STREAMED:
                        # the loader reads graph.ttl's own text as it is written: the quads are
                        # serialized once, not also as N-Quads for the loader
                        with stores.Loader(graph, ox.RdfFormat.TURTLE) as loader:
                            turtle.write_stream(quads, loader.tee(sink), options.base)
                    else:
                        with stores.Loader(graph) as loader:
                            turtle.write_stream(loader.loading(quads), sink, options.base)
                    f.flush()
                    os.fsync(f.fileno())
                    streamed_sha256 = hashing.digest.hexdigest()
        # counted once: an on-disk store counts by reading its index, which takes seconds on a big graph
        triples = len(graph)
        if stream is not None and triples <= turtle.SORT_LIMIT:  # small: graph.ttl is written sorted
            stream.unlink()
            stream = None
        loaded = time.perf_counter()
        if options.store is not None:
            if progress is not None:
                progress(Step("optimizing", None, len(accepted), len(accepted)))
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
    counts = streaming.counts()
    manifest.papers = dict(sorted(manifest.papers.items()))
    read, reused = tally["read"], tally["reused"]
    timings = {
        "identify": identified - started,
        "read+extract+assemble": loaded - identified,
        "optimize": optimized - loaded,
    }
    return Build(
        timings=timings,
        store=graph,
        counts=counts,
        log=log,
        base=options.base,
        files=files,
        files_read=read,
        files_reused=reused,
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


BATCH = 256
"""Records per extraction batch (the unit of work sent to a worker process)."""


BatchResult = tuple[list[list[Mention]], list[Issue], bytes]
"""What a batch gives: the mentions of each record, the extractors' issues, and the batch's records
with their mentions encoded for the cache (``kg.cache.encode_items``)."""


def _worker_started() -> None:
    """In a forked worker: keep the collector off the objects inherited from the build (frozen:
    never scanned, never copied by touching), and on for the worker's own."""
    gc.freeze()
    gc.enable()


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


def _identities(task: tuple[Path, str, str]) -> bytes:
    """The identity of each record of one file, encoded (``kg.cache.dumps_identities``: compact to
    send back from a worker process, and the file's entry in the cache as it is)."""
    path, shown, key = task
    return dumps_identities(Identity.of(record) for record in read_file(path, IssueLog(), shown, key))


def _known_keys(cache: Path, extraction: str) -> Callable[[str, str], list[Identity] | None]:
    """The cached record identities of a file (by its shown path and SHA-256), when the cache has a
    readable entry: a rebuild's first pass takes them instead of reading the file again."""

    def known(shown: str, key: str) -> list[Identity] | None:
        path = cache / CACHE_DIR / keys_name(shown, key, extraction)
        try:
            return loads_identities(path.read_bytes(), shown, key)
        except (OSError, ValueError, KeyError, TypeError, EOFError):
            return None  # missing or damaged: the file is read again

    return known


def _extract_batch(names: tuple[str, ...] | None, batch: list[Record]) -> BatchResult:
    """Run the extractors over a batch of records (in a worker process or in this one)."""
    log = IssueLog()
    mentions = [list(extract_all(record, log, names)) for record in batch]
    return mentions, log.issues, encode_items(zip(batch, mentions, strict=True))


class Extraction:
    """Reads files and extracts their records, in batches, on ``workers`` processes.

    Results and issues come back in record order whatever the number of
    workers, so a parallel build is the same as a sequential one: the issues
    a reader reports while producing a batch are reported just before the
    issues the extractors report for that batch.
    """

    def __init__(self, names: tuple[str, ...] | None, workers: int = 1, scheduler: str | None = None) -> None:
        self.names = names
        self.workers = max(1, workers)
        self._pool: Pool | None = None
        self._client: Any = None
        if scheduler is not None:
            self._client = _dask_client(scheduler)
            self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        elif self.workers > 1:
            warm(names)  # build matchers once, before fork, so workers share them
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._pool = context.Pool(self.workers, initializer=_worker_started)

    def __enter__(self) -> Extraction:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
        if self._client is not None:
            self._client.close()

    def _submit(self, batch: list[Record]) -> Callable[[], BatchResult]:
        """Start extracting a batch elsewhere; the returned function waits for the result."""
        if self._client is not None:
            future = self._client.submit(_extract_batch, self.names, batch, pure=False)
            return lambda: cast(BatchResult, future.result())
        assert self._pool is not None
        result = self._pool.apply_async(_extract_batch, (self.names, batch))
        return result.get

    def identify(
        self,
        files: list[tuple[InputFile, str, os.stat_result]],
        known: Callable[[str, str], list[Identity] | None] | None = None,
        fresh: Entries | None = None,
        progress: Progress | None = None,
    ) -> Iterator[tuple[Place, Identity]]:
        """The first pass: every record of ``files`` (with their SHA-256) by its place and identity.

        A file's identities come from ``known`` (the cache) when it has them, else from reading the
        file, on the workers when there are local ones; those read are encoded into ``fresh`` by
        shown path, for the cache.  Issues are left to the second pass, which reads the files again
        and reports them.
        """
        cached = [known(item.shown, key) if known is not None else None for item, key, _ in files]
        tasks = [
            (item.path, item.shown, key)
            for (item, key, _), ids in zip(files, cached, strict=True)
            if ids is None
        ]
        found = self._pool.imap(_identities, tasks) if self._pool is not None else map(_identities, tasks)
        for done, ((item, key, _), identities) in enumerate(zip(files, cached, strict=True)):
            if identities is None:
                blob = next(found)
                identities = loads_identities(blob, item.shown, key)
                if fresh is not None:
                    fresh[item.shown] = blob
            if progress is not None:
                progress(Step("identifying", item, done + 1, len(files)))
            for ordinal, identity in enumerate(identities):
                yield (key, ordinal), identity

    def read(self, item: InputFile, key: str, log: IssueLog) -> Extract:
        """Records of one file with their mentions, and the file's issues (also reported to ``log``)."""
        extract = Extract()
        extract.items = list(self.stream(item, key, log, extract))
        return extract

    def stream(
        self, item: InputFile, key: str, log: IssueLog, extract: Extract
    ) -> Iterator[tuple[Record, list[Mention]]]:
        """Records of one file with their mentions, batch by batch as they are extracted (a big file's
        records are not all held); once they are all out, ``extract`` has the file's issues (also
        reported to ``log``) and its items encoded for the cache."""
        reading = IssueLog()
        records = read_file(item.path, reading, item.shown, key)
        pending: deque[tuple[list[Record], list[Issue], Callable[[], BatchResult]]] = deque()
        limit = 2 * self.workers
        encoded: list[bytes] = []
        reported: list[Issue] = []

        def report(issues: Iterable[Issue]) -> None:
            for issue in issues:
                log.report(issue.at, issue.severity, issue.code, issue.message)
                reported.append(log.issues[-1])

        def settle(
            batch: list[Record], read_issues: list[Issue], result: BatchResult
        ) -> Iterator[tuple[Record, list[Mention]]]:
            mentions, issues, piece = result
            encoded.append(piece)
            # in line order, as a reader and extractors running record by record would report them
            report(sorted([*read_issues, *issues], key=lambda i: i.at.line))
            yield from zip(batch, mentions, strict=True)

        for batch in _batches(records):
            read_issues = reading.issues
            reading.issues = []
            if self._pool is None and self._client is None:
                yield from settle(batch, read_issues, _extract_batch(self.names, batch))
                continue
            pending.append((batch, read_issues, self._submit(batch)))
            while len(pending) >= limit:
                done = pending.popleft()
                yield from settle(done[0], done[1], done[2]())
        while pending:
            done = pending.popleft()
            yield from settle(done[0], done[1], done[2]())
        report(reading.issues)  # reported after the last record (e.g. a count check)
        extract.encoded = encoded
        extract.issues = reported


DASK_CONNECT_TIMEOUT = 30
"""Seconds to wait for a Dask scheduler to answer."""


def _dask_client(address: str) -> Any:
    """A client of the Dask scheduler at ``address`` (the ``dask`` extra must be installed)."""
    try:
        from distributed import Client
    except ImportError as e:
        raise KgError("--scheduler needs Dask: pip install 'kg[dask]'", code="missing-dependency") from e
    try:
        return Client(address, timeout=DASK_CONNECT_TIMEOUT)  # type: ignore[no-untyped-call]
    except OSError as e:
        raise KgError(
            f"cannot reach the Dask scheduler at {address}: {e}", code="scheduler-unreachable"
        ) from e


def _batches(records: Iterator[Record]) -> Iterator[list[Record]]:
    batch: list[Record] = []
    for record in records:
        batch.append(record)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _cached(out: Path, shown: str, key: str, extraction: str) -> Extract | None:
    """The cached extract of one file, when the cache has a readable one."""
    path = out / CACHE_DIR / cache_name(shown, key, extraction)
    try:
        _, extract = loads_extract(path.read_bytes())
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None  # a missing or damaged cache entry only means reading the file again
    return extract


def check_inputs(paths: Iterable[Path]) -> None:
    """Refuse paths that do not exist, as ``cp`` does, before anything is read or written.

    Raises :class:`~kg.errors.UsageError` (``missing-input``) naming the first.
    (:func:`build` itself reports a missing path as an error and goes on with the others.)
    """
    for path in paths:
        if not path.exists():
            what = "link leads nowhere (dangling or a loop)" if path.is_symlink() else "no such file or folder"
            raise UsageError(
                f"{what} (expected an input file or folder)", Location(str(path), 0), code="missing-input"
            )


def check_out(out: Path) -> None:
    """Refuse a build folder that holds what a build replaces (a ``graph.ttl``, a ``store/``, a
    ``cache/`` ...) but that kg did not build: a wrong ``--out`` never overwrites someone's files.

    A folder is kg's when its manifest reads or its store carries a build's generation stamp;
    a new, empty or unrelated folder is fine (a build only writes ``OUTPUT_NAMES`` there).
    Raises :class:`~kg.errors.UsageError` (``not-a-build-folder``).
    """
    try:
        present = sorted(n for n in OUTPUT_NAMES if n != "export" and os.path.lexists(out / n))
    except OSError:
        return  # not listable: writing there fails with its own message
    if not present or Manifest.load(out).extraction or stores.generation(out) is not None:
        return
    raise UsageError(
        f"folder holds {', '.join(present)} but kg did not build it; a build would replace them "
        "(expected a new or empty folder, or one kg built: choose another --out)",
        Location(shown_path(out), 0),
        code="not-a-build-folder",
    )


def held_papers(out: Path) -> int | None:
    """How many papers the build in ``out`` holds: 0 when none, None when it cannot tell (a
    damaged manifest beside a graph) and so must assume some."""
    previous = Manifest.load(out)
    if previous.papers or previous.extraction:
        return len(previous.papers)
    return None if any(os.path.lexists(out / n) for n in ("graph.ttl", STORE_DIR)) else 0


_UNREADABLE = ("unreadable-file", "unreadable-folder")


def check_replace(result: Build, out: Path) -> None:
    """Refuse to replace the build in ``out`` with one that lost its inputs rather than read them.

    A build that read no record at all, or could not read a file the previous build read
    (``unreadable-file``, ``unreadable-folder``: a permission or a disk going wrong, not a file
    removed), leaves ``out`` as it was; the refused build is discarded and ``KgError``
    (``outputs-kept``) says why.  A file removed, or one that now fails to decode, is a change
    the build takes (and reports).
    """
    unreadable = sorted({i.at.path for i in result.log.issues if i.code in _UNREADABLE})
    if result.counts.get("records", 0) > 0 and not unreadable:
        return  # the common case: no manifest to read
    held = held_papers(out)
    reason = ""
    if result.counts.get("records", 0) == 0 and held != 0:
        kept = "the previous build" if held is None else f"its {held} papers"
        reason = f"build read no records; {shown_path(out)} keeps {kept} (expected at least one record)"
    elif unreadable:
        previous = Manifest.load(out).files
        lost = [
            f for f in sorted(previous) if any(f == u or f.startswith(u.rstrip("/") + "/") for u in unreadable)
        ]
        if lost:
            reason = (
                f"{len(lost)} file(s) the previous build read cannot be read now (first: {lost[0]}); "
                f"{shown_path(out)} keeps the previous build (expected them readable, or removed)"
            )
    if not reason:
        return
    discard_build(result, out)
    raise KgError(reason, Location(shown_path(out), 0), code="outputs-kept")


def discard_build(result: Build, out: Path) -> None:
    """Drop a build that will not be written into ``out``: its staging store there (see
    :func:`kg.store.staging`; a store elsewhere is the caller's) and its spilled cache entries."""
    at = result.store_path
    result.store = stores.memory()  # the last handle on the staging store
    if at is not None and at.parent == out and at.name != STORE_DIR:
        shutil.rmtree(at, ignore_errors=True)
        result.store_path = None
        result.turtle = None
    result.fresh.close()
    result.fresh_keys.close()


def write_outputs(result: Build, out: Path) -> list[Path]:
    """Write the outputs of a build into ``out``: each of ``BUILD_OUTPUTS``, the persisted ``store/``,
    the cache and the manifest, so that a failure or a kill at any point leaves a usable folder.

    Everything is first written beside its final name (synced temporary files, cache entries,
    the staging store, stamped with the build's generation: the SHA-256 of the new graph.ttl);
    nothing the previous build wrote has changed yet, so a full disk or a read-only folder
    leaves it whole.  Then come the renames, each atomic: the store is swapped in, then
    graph.ttl, the pages and last the manifest (which records the generation too) are renamed
    over theirs.  Last, the old store and stale cache entries are removed.  A build killed in
    between leaves every file complete, from one build or the other; which ones are new shows
    in the generations (:func:`kg.store.generation`, ``Manifest.generation``), and the next
    build removes the leftovers (:func:`kg.store.clean`) and writes everything again.
    """
    with collector_paused():
        return _write_outputs(result, out)


def _write_outputs(result: Build, out: Path) -> list[Path]:
    try:
        check_out(out)
    except UsageError:
        discard_build(result, out)
        raise
    check_replace(result, out)
    from kg.exporters import (
        BUILD_OUTPUTS,
        PAGES_APART,
        PagesApart,
        Staged,
        adopt,
        commit,
        discard,
        stage,
        sync_folder,
    )

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise KgError(f"cannot create output folder {out}: {os_message(e)}", code="write-failed") from e
    # a build's own staging store is moved in place; any other store is copied
    at = result.store_path
    built_at = at if at is not None and at.parent == out and at.name != STORE_DIR else None
    stores.clean(out)
    staged: list[Staged] = []
    old: Path | None = None
    swapped = False
    apart = (
        [name for name in BUILD_OUTPUTS if name.endswith(".html")]
        if at is not None and result.triples >= PAGES_APART
        else []
    )
    try:
        with PagesApart(at, out, apart) if at is not None and apart else contextlib.nullcontext() as pages:
            for name, serialize in BUILD_OUTPUTS.items():
                if name in apart:
                    continue
                started = time.perf_counter()
                if name == "graph.ttl" and result.turtle is not None:
                    # moved out of the staging store before the store is swapped in
                    staged.append(adopt(result.turtle, out / name, result.turtle_sha256))
                    result.turtle = None
                else:
                    staged.append(stage(out / name, functools.partial(serialize, result)))
                result.timings[name] = time.perf_counter() - started
            generation = next(item.sha256 for item in staged if item.target.name == "graph.ttl")
            started = time.perf_counter()
            write_cache(result, out)  # while the pages are drawn apart
            result.timings["cache"] = time.perf_counter() - started
            if pages is not None:
                for name, (page, seconds) in zip(apart, pages.staged(), strict=True):
                    staged.append(page)
                    result.timings[name] = seconds
        result.manifest.generation = generation
        staged.append(stage(out / MANIFEST, lambda f: f.write(result.manifest.dumps())))  # renamed last
        started = time.perf_counter()
        fresh = stores.prepare(result.store, out, built_at, generation)
        if built_at is not None:
            result.store = stores.memory()  # the last handle on the staging store: closed before it moves
        old = stores.swap(fresh, out)
        swapped = True
        for item in staged:
            commit(item)
        sync_folder(out)
    except BaseException as e:
        for item in staged:
            discard(item)
        if not swapped and built_at is not None:
            # a failed build's store is deleted: hold none of its files open (the frames' locals would)
            traceback.clear_frames(e.__traceback__)
            result.store = stores.memory()
            shutil.rmtree(built_at, ignore_errors=True)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        raise
    if built_at is not None or at == out / STORE_DIR:  # the store the build holds was moved or replaced
        result.store = stores.open_store(out)
        result.store_path = out / STORE_DIR
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    prune_cache(result, out)
    result.timings["store"] = time.perf_counter() - started
    return [out / name for name in BUILD_OUTPUTS] + [out / STORE_DIR]


def write_cache(result: Build, out: Path) -> None:
    """Write the cache entries of freshly read files (before the new manifest names them).

    Entries are named by file path, content and extraction key, so an entry the previous
    manifest names is never changed, only written again with the same content.
    """
    from kg.exporters import sweep, write_bytes

    folder = out / CACHE_DIR
    sweep(folder)
    extraction = result.manifest.extraction
    for entries, name in ((result.fresh, cache_name), (result.fresh_keys, keys_name)):
        for shown, blob in entries.items():
            entry = result.manifest.files.get(shown)
            if entry is not None:
                write_bytes(folder / name(shown, entry.digest, extraction), blob)


def prune_cache(result: Build, out: Path) -> None:
    """Remove the cache entries the manifest no longer names (after it was written; best effort)."""
    folder = out / CACHE_DIR
    extraction = result.manifest.extraction
    keep = {
        name(shown, entry.digest, extraction)
        for shown, entry in result.manifest.files.items()
        for name in (cache_name, keys_name)
    }
    try:
        stale = [e for e in folder.iterdir() if e.name not in keep and not e.name.startswith(".")]
    except OSError:
        return
    for entry in stale:
        with contextlib.suppress(OSError):  # a stale entry only takes space: the next build tries again
            entry.unlink(missing_ok=True)
