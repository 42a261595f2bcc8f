"""The processes ``kg serve`` runs queries in: each opens the store read-only, cannot open a network
socket (seccomp, where the kernel offers it), and is replaced when a query outlives its time.

A build swaps a new store in under ``OUT/store`` while the endpoint runs; a worker keeps the store it
opened (its files stay readable after the build deletes them).  So the pool watches the store it
serves (:func:`store_identity`, every :data:`WATCH_SECONDS`) and, when another one is in place,
starts a full set of workers on it and switches to them all at once: from then on every request
goes to the new graph, and the old workers end as their last queries do.  Each worker says which
store it opened, and a worker of another store than the pool's (one started to replace a worker cut
at the time limit, after a swap) never answers: old and new answers never alternate.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import platform
import signal
import struct
import sys
from collections.abc import Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

import anyio.to_thread

from kg.errors import KgError

log = logging.getLogger("kg.server")

WATCH_SECONDS = 1.0
"""How often the pool looks whether a build swapped another store in."""

GENERATION = "kg-generation"
"""The stamp a build leaves in its store (``kg.store.GENERATION``; not imported: a worker stays light)."""


def store_identity(store: Path | int) -> str:
    """Which store lies at ``store`` (a path, or an open folder's descriptor): its folder's device and
    inode and its build's generation stamp; "" when there is no folder.  Every build's store is a new
    folder, so a swap changes the identity even when the graph is the same."""
    try:
        st = os.fstat(store) if isinstance(store, int) else os.stat(store)
    except OSError:
        return ""
    stamp = ""
    try:
        fd = (
            os.open(GENERATION, os.O_RDONLY, dir_fd=store)
            if isinstance(store, int)
            else os.open(store / GENERATION, os.O_RDONLY)
        )
        try:
            stamp = os.read(fd, 200).decode("ascii", errors="replace").strip()
        finally:
            os.close(fd)
    except OSError:
        pass  # a store without a stamp (built by an older kg) is known by its folder alone
    return f"{st.st_dev}:{st.st_ino}:{stamp}"


def _open_pinned(store_path: str) -> tuple[object, str]:
    """Open the store at ``store_path`` read-only, and say which one it is: opened through a
    descriptor of its folder where ``/proc`` allows, so a swap while it opens cannot mix two stores."""
    import pyoxigraph as ox

    try:
        folder = os.open(store_path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return ox.Store.read_only(store_path), ""  # fails with the store's own message
    pinned = f"/proc/self/fd/{folder}"
    identity = store_identity(folder)
    store = ox.Store.read_only(pinned if os.path.isdir(pinned) else store_path)
    return store, identity


@dataclass(frozen=True, slots=True)
class Answer:
    """What a worker sends back: a serialized result, or an error with its HTTP status."""

    status: int
    body: bytes
    media_type: str
    rows: int = 0
    truncated: bool = False


_SECCOMP_ARCH = {  # machine: (AUDIT_ARCH_*, the socket syscall's number)
    "x86_64": (0xC000003E, 41),
    "aarch64": (0xC00000B7, 198),
}


def forbid_network() -> bool:
    """Make this process unable to open IPv4 or IPv6 sockets (seccomp); False where that is unavailable.

    Oxigraph evaluates ``SERVICE`` with its own HTTP client: the query workers refuse it up front
    (``kg.sparql.check_read_only``), and this filter makes sure a query that slipped past cannot
    reach the network from a worker anyway.  Unix sockets and pipes (the pool's) still work.
    """
    arch = _SECCOMP_ARCH.get(platform.machine())
    if not sys.platform.startswith("linux") or arch is None:
        return False
    audit_arch, nr_socket = arch
    ld, jeq, ret = 0x20, 0x15, 0x06  # BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JEQ|BPF_K, BPF_RET|BPF_K
    allow, deny = 0x7FFF0000, 0x00050000 | 13  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO | EACCES
    program = [  # (code, jump if true, jump if false, k); seccomp_data: nr at 0, arch at 4, args at 16
        (ld, 0, 0, 4),
        (jeq, 0, 6, audit_arch),
        (ld, 0, 0, 0),
        (jeq, 0, 4, nr_socket),
        (ld, 0, 0, 16),
        (jeq, 1, 0, 2),  # AF_INET
        (jeq, 0, 1, 10),  # AF_INET6
        (ret, 0, 0, deny),
        (ret, 0, 0, allow),
    ]
    code = b"".join(struct.pack("HBBI", *line) for line in program)
    buffer = ctypes.create_string_buffer(code, len(code))

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Program(len(program), ctypes.addressof(buffer))
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        # PR_SET_NO_NEW_PRIVS (needed to install a filter unprivileged), then PR_SET_SECCOMP, FILTER
        if libc.prctl(38, 1, 0, 0, 0) != 0:
            return False
        return bool(libc.prctl(22, 2, ctypes.byref(fprog), 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _work(conn: Connection, store_path: str) -> None:
    """Worker process: open the store read-only, then answer (query, formats, cap) jobs until EOF."""
    import pyoxigraph as ox

    from kg.sparql import MEDIA_TYPES, Graph, Solutions, execute, serialize

    sandboxed = forbid_network()
    opened, identity = _open_pinned(store_path)
    assert isinstance(opened, ox.Store)
    store = opened
    conn.send(("ready", sandboxed, identity))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        text, results_format, graph_format, max_rows = job
        try:
            result = execute(store, text, limit=max_rows)
            fmt = graph_format if isinstance(result, Graph) else results_format
            body = serialize(result, fmt)
            if isinstance(result, Solutions):
                rows, truncated = len(result.rows), result.truncated
            elif isinstance(result, Graph):
                rows, truncated = len(result.triples), result.truncated
            else:
                rows, truncated = 1, False
            answer = Answer(200, body, MEDIA_TYPES[fmt], rows, truncated)
        except KgError as e:
            status = 400 if e.code == "bad-query" else 403 if e.code.endswith("-refused") else 500
            answer = Answer(status, (str(e) + "\n").encode(), "text/plain; charset=utf-8")
        conn.send(answer)


@dataclass(slots=True, eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    store: str
    """The identity of the store it opened (:func:`store_identity`)."""


class QueryError(Exception):
    """A query the pool could not answer: carries the HTTP status and message."""

    def __init__(self, status: int, message: str, busy: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.busy = busy  # no free worker: worth retrying (Retry-After), unlike a query cut at the limit


@dataclass(slots=True)
class QueryPool:
    """A fixed number of worker processes, each with the store open read-only, and a bounded queue;
    the workers follow the store a build swaps in (see the module's docstring)."""

    store_path: Path
    size: int
    timeout: float
    queue_timeout: float = 30.0
    max_queue: int = 200
    watch: float = WATCH_SECONDS
    store: str = ""
    """The identity of the store the pool answers from (its workers')."""
    switches: int = 0
    """How many times the pool moved to a newly built store."""
    _idle: asyncio.Queue[_Worker] = field(default_factory=asyncio.Queue)
    _all: set[_Worker] = field(default_factory=set)
    _pending: set[asyncio.Task[object]] = field(default_factory=set)
    _waiting: int = 0
    _warned: bool = False

    def _spawn(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(
            target=_work, args=(child, str(self.store_path)), daemon=True, name="kg-query"
        )
        process.start()
        child.close()
        worker = _Worker(process, parent, "")
        self._all.add(worker)
        # a worker counts once it has imported pyoxigraph and opened the store (seconds on a busy machine)
        try:
            ready = parent.recv() if parent.poll(120) else None
        except (EOFError, OSError):
            ready = None
        if not (isinstance(ready, tuple) and ready[0] == "ready"):
            self._stop(worker)
            raise KgError(f"query worker could not open {self.store_path}", code="bad-store")
        worker.store = ready[2]
        if not ready[1] and not self._warned:
            self._warned = True
            log.warning("query workers run without a network sandbox (seccomp unavailable here)")
        return worker

    def _stop(self, worker: _Worker) -> None:
        self._all.discard(worker)
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(5)

    async def start(self) -> None:
        for _ in range(3):  # a build may swap its store in while the first workers open it
            workers = await self._spawn_all()
            if len({w.store for w in workers}) <= 1:
                break
            for worker in workers:
                await anyio.to_thread.run_sync(self._stop, worker)
        self.store = workers[0].store if workers else ""
        for worker in workers:
            self._idle.put_nowait(worker)
        self._background(self._follow())

    async def _spawn_all(self) -> list[_Worker]:
        """``size`` new workers, started side by side (each waits seconds for its interpreter)."""
        spawned = await asyncio.gather(
            *(anyio.to_thread.run_sync(self._spawn) for _ in range(self.size)), return_exceptions=True
        )
        workers = [w for w in spawned if isinstance(w, _Worker)]
        failed = next((e for e in spawned if isinstance(e, BaseException)), None)
        if failed is not None:
            for worker in workers:
                await anyio.to_thread.run_sync(self._stop, worker)
            raise failed
        return workers

    async def _follow(self) -> None:
        """Move the pool to the store a build swapped in, for as long as the pool runs."""
        passed = ""  # a store the workers could not be moved to: not tried again until it changes
        while True:
            await asyncio.sleep(self.watch)
            found = store_identity(self.store_path)
            if not found or found in (self.store, passed):
                continue
            try:
                workers = await self._spawn_all()
            except (KgError, OSError) as e:  # in the middle of a swap: looked at again shortly
                log.warning("cannot open the new store yet: %s", e)
                continue
            if any(w.store != workers[0].store for w in workers) or workers[0].store == self.store:
                passed = found if workers[0].store == self.store else ""
                for worker in workers:  # swapped again meanwhile: the next look starts over
                    await anyio.to_thread.run_sync(self._stop, worker)
                continue
            self._switch(workers)

    def _switch(self, workers: list[_Worker]) -> None:
        """Answer from ``workers``' store from now on (one step: no request runs in between)."""
        self.store = workers[0].store
        self.switches += 1
        old: list[_Worker] = []
        while not self._idle.empty():
            old.append(self._idle.get_nowait())
        for worker in workers:
            self._idle.put_nowait(worker)
        for worker in old:  # busy old workers are retired when their query ends (see run)
            self._retire(worker)
        log.info("serving the store built since: %s", self.store)

    def _retire(self, worker: _Worker) -> None:
        """Stop a worker in the background."""
        self._background(anyio.to_thread.run_sync(self._stop, worker))

    def _background(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def close(self) -> None:
        for task in list(self._pending):
            task.cancel()
        for worker in list(self._all):
            await anyio.to_thread.run_sync(self._stop, worker)

    async def run(self, text: str, results_format: str, graph_format: str, max_rows: int) -> Answer:
        """Answer one query: wait in the queue for a free worker, then run within the time limit."""
        if self._idle.empty() and self._waiting >= self.max_queue:
            raise QueryError(
                503, f"server busy: {self._waiting} requests already wait for a query worker", busy=True
            )
        self._waiting += 1
        try:
            worker = await asyncio.wait_for(self._idle.get(), self.queue_timeout)
        except TimeoutError:
            raise QueryError(
                503, f"server busy: no free query worker within {self.queue_timeout:g} s", busy=True
            ) from None
        finally:
            self._waiting -= 1
        answered = False
        try:
            worker.conn.send((text, results_format, graph_format, max_rows))
            ready = await anyio.to_thread.run_sync(worker.conn.poll, self.timeout)
            if not ready:
                raise QueryError(503, f"query stopped at the time limit of {self.timeout:g} s")
            answer: Answer = worker.conn.recv()
            answered = True
            return answer
        except (EOFError, OSError) as e:
            raise QueryError(500, f"query worker failed: {_ended(worker, e)}") from e
        finally:
            if answered and worker.store == self.store:
                self._idle.put_nowait(worker)
            elif answered:  # the pool moved to a newer store while this query ran
                self._retire(worker)
            else:  # still running, dead or abandoned by the client: replace it, in the background
                self._background(self._replace(worker))

    async def _replace(self, worker: _Worker) -> None:
        await anyio.to_thread.run_sync(self._stop, worker)
        if worker.store != self.store:
            return  # a worker of a store the pool has left: the new set is complete without it
        for attempt in range(1, 6):
            try:
                fresh = await anyio.to_thread.run_sync(self._spawn)
            except KgError as e:  # keep the pool at its size: a lost worker would shrink it for good
                log.error("cannot replace a query worker (attempt %d): %s", attempt, e)
                await asyncio.sleep(attempt)
                continue
            if fresh.store == self.store:
                self._idle.put_nowait(fresh)
            else:  # a build swapped another store in: the switch starts a full set on it
                await anyio.to_thread.run_sync(self._stop, fresh)
            return


def _ended(worker: _Worker, error: BaseException) -> str:
    """Why a worker stopped answering, for the client: how its process ended when it did."""
    worker.process.join(2)
    code = worker.process.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"the query engine crashed on this query ({name}); other queries are not affected"
    if code is not None:
        return f"the query process ended with exit code {code}"
    return str(error) or type(error).__name__
