"""Where the graph lives: an embedded Oxigraph store, in memory or on disk under ``DIR/store/``.

Triples are streamed into the store through its bulk loader in batches; the
on-disk store of a build is assembled beside the old one (:func:`staging`),
stamped with the build's generation (:data:`GENERATION`) and swapped in only
when complete, in one atomic step where the system allows it
(:func:`kg.exporters.replace_folder`), so a failed or killed build leaves the
previous store usable.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import shutil
import threading
import traceback
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import BinaryIO

import pyoxigraph as ox

from kg.errors import KgError, os_message
from kg.layout import STORE

STORE_DIR = STORE
"""The store's folder in a build folder (named by ``kg.layout``)."""

BATCH = 100_000
GENERATION = "kg-generation"
"""A file in the store folder naming the build that wrote it: the SHA-256 of that build's graph.ttl
(Oxigraph ignores files that are not its own)."""


def memory() -> ox.Store:
    """A fresh in-memory store."""
    return ox.Store()


def on_disk(path: Path) -> ox.Store:
    """A fresh store on disk at ``path`` (a leftover there is removed first)."""
    try:
        if path.exists():
            shutil.rmtree(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return ox.Store(str(path))
    except OSError as e:
        shutil.rmtree(path, ignore_errors=True)
        raise KgError(f"cannot write the store {shown(path)}: {os_message(e)}", code="write-failed") from e


def shown(path: Path) -> Path:
    """A store as messages name it: a staging store (see :func:`staging`) by the store it becomes."""
    return path.parent / STORE_DIR if path.name.startswith(f".{STORE_DIR}.") else path


def staging(out: Path) -> Path:
    """Where a build of ``out`` assembles its on-disk store before it is swapped in (a new name each
    time: a store a failed build of this process still holds open is never in the way)."""
    from kg.files import TEMP_SUFFIX, temp_prefix

    return out / f"{temp_prefix(STORE_DIR)}new{secrets.token_hex(4)}{TEMP_SUFFIX}"


def clean(out: Path) -> None:
    """Tidy a build folder after a killed build: remove its temporary files and staging stores
    (those of processes still running are kept), and put back a store it had moved aside."""
    from kg.files import process_alive, sweep

    target = out / STORE_DIR
    # the names earlier versions of kg gave their staging and set-aside stores
    for legacy in sorted(out.glob(f".{STORE_DIR}.old-*")) + sorted(out.glob(f".{STORE_DIR}.new-*")):
        pid = legacy.name.rpartition("-")[2]
        if not pid.isdigit() or process_alive(int(pid)):
            continue
        if legacy.name.startswith(f".{STORE_DIR}.old-") and not target.exists() and legacy.is_dir():
            try:
                legacy.rename(target)
                continue
            except OSError:
                pass
        shutil.rmtree(legacy, ignore_errors=True)
    sweep(out)


def load(store: ox.Store, quads: Iterable[ox.Quad]) -> int:
    """Bulk-load quads in batches (the assembler's are all in the default graph); returns how many."""
    count = 0
    for batch in _batches(quads):
        store.bulk_extend(batch)
        count += len(batch)
    return count


class Loader:
    """Bulk-loads batches of quads into a store on threads of its own, so the bulk loader works
    while the caller makes the next batch (loading in the caller's thread took a quarter of a big
    build's critical path).

    Each batch is handed over as N-Quads text (Oxigraph writes it in Rust, fast).
    Where the system names a pipe's end as a path (``/dev/fd``), the batches are one stream: a
    thread writes them to a pipe and one call of the store's bulk loader reads it to the end,
    without holding Python's global lock, in batches of its own (a million quads, one per core at
    a time: its memory stops growing at about a million quads, however many follow).  One call
    loads faster and with less CPU than calls of 100,000 (``benchmarks/bulk_load.py --stream``;
    the figures are in docs/build-speed.md), and a blank node is one node throughout.
    Elsewhere each batch is a call of its own, and a batch with a blank node is handed over as
    quads (a parser names each document's blank nodes anew).

    A loader can take text instead (``text=``, :meth:`write`, :meth:`tee`): a build hands it the
    Turtle of graph.ttl as the serializer writes it, so each quad is serialized once, which saves the
    main thread time, and Oxigraph parses the Turtle about as fast as N-Quads.

    At most :data:`PENDING` batches wait.  An error of the loader (a full disk) is raised in the
    caller's thread at its next :meth:`put` or on leaving the ``with`` block; leaving it early (an
    error of the caller) ends the stream where it is (the loader loads what it has read) and drops
    the batches still waiting.
    """

    PENDING = 2
    CHUNK = 8 << 20
    """Bytes of text (:meth:`write`) gathered before they are handed to the loader thread."""

    def __init__(self, store: ox.Store, text: ox.RdfFormat = ox.RdfFormat.N_QUADS) -> None:
        self._store: ox.Store | None = store
        self._format = text
        self._text = bytearray()
        self._queue: queue.Queue[list[ox.Quad] | bytes | None] = queue.Queue(self.PENDING)
        self._error: BaseException | None = None
        self._stop = threading.Event()
        self._pipe: tuple[int, int] | None = None  # made on entering, so that leaving closes it
        self._thread = threading.Thread(target=self._run, name="kg-loader", daemon=True)
        self._sink = threading.Thread(target=self._drain_pipe, name="kg-bulk-load", daemon=True)

    def __enter__(self) -> Loader:
        if STREAMED:
            self._pipe = _pipe()
            self._sink.start()
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            self._stop.set()
        elif self._text and self._error is None:  # the rest of the text (an error is raised below)
            self._queue.put(bytes(self._text))
        self._text = bytearray()
        self._queue.put(None)
        self._thread.join()
        if self._pipe is not None:
            self._sink.join()
        # a failed build's frames keep this loader (as a local): it must not keep the store open
        self._store = None
        if kind is None:
            self._raise()
        elif self._error is not None:  # the caller's own error goes on; this one would hold the store
            # open (its frames hold this loader) until the cyclic collector found it
            traceback.clear_frames(self._error.__traceback__)
            self._error = None

    def loading(self, quads: Iterable[ox.Quad]) -> Iterator[ox.Quad]:
        """``quads`` again, each batch of them handed to the loader as it is passed on (so a
        serializer can write what is being loaded in the same pass)."""
        for batch in _batches(quads):
            self.put(batch)
            yield from batch

    def write(self, data: bytes) -> int:
        """Load text of the loader's format (``text``), as a file is written: a document in as many
        pieces as the caller likes (streamed, the pieces are one document; elsewhere, the text is
        loaded once it is all written, since a piece may end anywhere).  Not mixed with :meth:`put`."""
        self._text += data
        if STREAMED and len(self._text) >= self.CHUNK:
            self._hand_over()
        return len(data)

    def tee(self, file: BinaryIO) -> _Tee:
        """A writer that writes to ``file`` and loads what it writes (see :meth:`write`)."""
        return _Tee(file, self)

    def _hand_over(self) -> None:
        self._raise()
        data, self._text = bytes(self._text), bytearray()
        self._queue.put(data)

    def put(self, batch: list[ox.Quad]) -> None:
        self._raise()
        data = ox.serialize(batch, format=ox.RdfFormat.N_QUADS)
        assert data is not None  # written to no file: returned
        self._queue.put(batch if self._pipe is None and b"_:" in data else data)

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _run(self) -> None:
        try:
            while (item := self._queue.get()) is not None:
                if self._error is not None or self._stop.is_set():
                    continue  # drain: the caller stops at its next put
                try:
                    self._load(item)
                except Exception as e:  # noqa: BLE001 - raised in the caller's thread, not lost in this one
                    self._error = self._error or e
        finally:
            if self._pipe is not None:
                os.close(self._pipe[1])  # the end of the stream: the bulk loader loads what it read

    def _load(self, item: list[ox.Quad] | bytes) -> None:
        assert self._store is not None  # until the thread has ended
        if self._pipe is not None:
            assert isinstance(item, bytes)
            try:
                _write_all(self._pipe[1], item)
            except BrokenPipeError:
                if self._error is None:  # the bulk loader stopped reading without an error
                    raise
            return
        if isinstance(item, bytes):
            self._store.bulk_load(item, self._format)
        else:
            self._store.bulk_extend(item)

    def _drain_pipe(self) -> None:
        """The one bulk load of a streamed loader: reads the pipe until it is closed."""
        assert self._pipe is not None and self._store is not None
        read_end = self._pipe[0]
        try:
            self._store.bulk_load(path=f"/dev/fd/{read_end}", format=self._format)
        except Exception as e:  # noqa: BLE001 - raised in the caller's thread, not lost in this one
            self._error = self._error or e
        finally:
            os.close(read_end)  # a write still waiting fails (a broken pipe) instead of blocking


class _Tee:
    """Writes to a file and to a loader (:meth:`Loader.tee`)."""

    def __init__(self, file: BinaryIO, loader: Loader) -> None:
        self._file = file
        self._loader = loader

    def write(self, data: bytes) -> int:
        self._file.write(data)
        return self._loader.write(data)

    def flush(self) -> None:
        self._file.flush()


STREAMED = os.name == "posix" and os.path.isdir("/dev/fd")
"""Whether a :class:`Loader` streams its batches to one bulk load through a pipe."""


def _pipe() -> tuple[int, int]:
    import fcntl  # POSIX only, as streaming is

    read_end, write_end = os.pipe()
    if hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux: fewer, larger hand-overs (1 MiB is allowed to anyone)
        # under a lower per-user limit the default size works, with more hand-overs
        with contextlib.suppress(OSError):
            fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, 1 << 20)
    return read_end, write_end


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _batches(quads: Iterable[ox.Quad]) -> Iterator[list[ox.Quad]]:
    iterator = iter(quads)
    while batch := list(islice(iterator, BATCH)):
        yield batch


def sorted_triples(store: ox.Store) -> list[ox.Triple]:
    """All triples of the default graph in a stable order (subject, predicate, object)."""
    quads = list(store.quads_for_pattern(None, None, None, ox.DefaultGraph()))
    quads.sort(key=_order)
    return [q.triple for q in quads]


def _order(t: ox.Quad) -> tuple[str, str, int, str]:
    o = t.object
    kind = 0 if isinstance(o, ox.NamedNode) else 1
    return (str(t.subject), str(t.predicate), kind, str(o))


def prepare(store: ox.Store, out: Path, built_at: Path | None, generation: str) -> Path:
    """The complete store folder of a build, ready to swap in: flushed (an in-memory store is
    copied to :func:`staging` first) and stamped with ``generation``; returns its path.

    The caller must drop every handle on a store built at ``built_at`` before it is moved.
    """
    fresh = built_at if built_at is not None else staging(out)
    try:
        if built_at is None:
            disk = on_disk(fresh)
            disk.bulk_extend(iter_quads(store))
            disk.flush()
            del disk
        else:
            store.flush()
        with open(fresh / GENERATION, "w", encoding="ascii") as f:
            f.write(generation + "\n")
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        shutil.rmtree(fresh, ignore_errors=True)
        raise KgError(
            f"cannot write the store {out / STORE_DIR}: {os_message(e)}", code="write-failed"
        ) from e
    return fresh


def swap(fresh: Path, out: Path) -> Path | None:
    """Put the store folder ``fresh`` at ``out/store`` in one step; returns where the old one now lies."""
    from kg.files import replace_folder

    try:
        return replace_folder(fresh, out / STORE_DIR)
    except OSError as e:
        shutil.rmtree(fresh, ignore_errors=True)
        raise KgError(
            f"cannot write the store {out / STORE_DIR}: {os_message(e)}", code="write-failed"
        ) from e


def persist(store: ox.Store, out: Path, built_at: Path | None = None, generation: str = "") -> Path:
    """Put a built store at ``out/store`` atomically (assembled beside, then swapped in); returns the path.

    ``built_at`` is where the store already lies on disk (see :func:`staging`; the caller must
    hold no other handle on it); an in-memory store is copied to disk first.
    """
    clean(out)
    old = swap(prepare(store, out, built_at, generation), out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return out / STORE_DIR


def generation(out: Path) -> str | None:
    """The generation of the store of build folder ``out`` (the SHA-256 of the graph.ttl it was built
    with), or None for a store without a stamp."""
    try:
        return (located(out) / GENERATION).read_text(encoding="ascii").strip() or None
    except (OSError, ValueError):
        return None


def located(out: Path) -> Path:
    """The store folder of build folder ``out``: ``out/store``, or, when a killed build left it renamed
    aside (only where folders cannot be exchanged atomically, see :func:`kg.exporters.replace_folder`),
    that folder until the next build puts it back."""
    path = out / STORE_DIR
    if not path.is_dir():
        aside = sorted(out.glob(f".{STORE_DIR}.*-old.tmp")) + sorted(out.glob(f".{STORE_DIR}.old-*"))
        return next((p for p in aside if p.is_dir()), path)
    return path


def iter_quads(store: ox.Store) -> Iterator[ox.Quad]:
    yield from store.quads_for_pattern(None, None, None, None)


def open_store(out: Path, read_only: bool = True) -> ox.Store:
    """The persisted store of a build folder (see :func:`located`)."""
    path = located(out) if read_only else out / STORE_DIR
    if not path.is_dir():
        raise KgError(f"no built graph in {out} (run 'kg build --out {out}' first)", code="no-store")
    try:
        return ox.Store.read_only(str(path)) if read_only else ox.Store(str(path))
    except OSError as e:
        raise KgError(f"cannot open the store {path}: {os_message(e)}", code="bad-store") from e


def pairs(store: ox.Store, predicate: ox.NamedNode) -> list[tuple[str, str]]:
    """(subject, object) lexical values of every statement of one predicate.

    Callers join such scans in Python: one scan of a property costs far less than a query that looks
    up a second property row by row (an index lookup each).  A SELECT of the two terms, not
    ``quads_for_pattern``: a quad also hands over its predicate and graph, each read out of the
    store's dictionary (the figures: docs/build-speed.md).
    """
    solutions = store.query(f"SELECT ?s ?o WHERE {{ ?s <{predicate.value}> ?o }}")
    assert isinstance(solutions, ox.QuerySolutions)
    return [
        (s.value, o.value)
        for s, o in solutions
        if not isinstance(s, ox.Triple) and not isinstance(o, ox.Triple)
    ]
