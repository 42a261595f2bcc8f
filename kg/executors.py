"""Where extraction runs: in this process, on a local pool of forked workers or on a Dask cluster,
batch by batch, with results and issues in record order whatever the number of workers; and the
process tuning a big build needs (the garbage collector paused, glibc's mmap threshold fixed)."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import gc
import multiprocessing
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.pool import Pool
from pathlib import Path
from typing import Any, cast

from kg.cache import Entries, Extract, dumps_identities, encode_items, loads_identities
from kg.errors import Issue, IssueLog, KgError
from kg.extractors import extract_all, warm
from kg.grouping import Identity, Place
from kg.readers import read_file
from kg.readers.discover import InputFile
from kg.records import Mention, Record


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


def _identities(task: tuple[Path, str, str]) -> bytes:
    """The identity of each record of one file, encoded (``kg.cache.dumps_identities``: compact to
    send back from a worker process, and the file's entry in the cache as it is)."""
    path, shown, key = task
    return dumps_identities(Identity.of(record) for record in read_file(path, IssueLog(), shown, key))


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
        counts: list[int] = []
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
            counts.append(len(batch))
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
        extract.counts = counts
        extract.issues = reported


DASK_CONNECT_TIMEOUT = 30
"""Seconds to wait for a Dask scheduler to answer."""


def _dask_client(address: str) -> Any:
    """A client of the Dask scheduler at ``address`` (the ``dask`` extra must be installed)."""
    try:
        from distributed import Client
    except ImportError as e:
        from kg.extras import install_command

        raise KgError(f"--scheduler needs Dask: {install_command('dask')}", code="missing-dependency") from e
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
