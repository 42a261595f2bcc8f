"""The processes ``kg serve`` runs queries in: each opens the store read-only, cannot open a network
socket (seccomp, where the kernel offers it), and is replaced when a query outlives its time."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import platform
import struct
import sys
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

import anyio.to_thread

from kg.errors import KgError

log = logging.getLogger("kg.server")


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
    store = ox.Store.read_only(store_path)
    conn.send(("ready", sandboxed))
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


class QueryError(Exception):
    """A query the pool could not answer: carries the HTTP status and message."""

    def __init__(self, status: int, message: str, busy: bool = False) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.busy = busy  # no free worker: worth retrying (Retry-After), unlike a query cut at the limit


@dataclass(slots=True)
class QueryPool:
    """A fixed number of worker processes, each with the store open read-only, and a bounded queue."""

    store_path: Path
    size: int
    timeout: float
    queue_timeout: float = 30.0
    max_queue: int = 200
    _idle: asyncio.Queue[_Worker] = field(default_factory=asyncio.Queue)
    _all: set[_Worker] = field(default_factory=set)
    _pending: set[asyncio.Task[None]] = field(default_factory=set)
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
        worker = _Worker(process, parent)
        self._all.add(worker)
        # a worker counts once it has imported pyoxigraph and opened the store (seconds on a busy machine)
        try:
            ready = parent.recv() if parent.poll(120) else None
        except (EOFError, OSError):
            ready = None
        if not (isinstance(ready, tuple) and ready[0] == "ready"):
            self._stop(worker)
            raise KgError(f"query worker could not open {self.store_path}", code="bad-store")
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
        for _ in range(self.size):
            self._idle.put_nowait(await anyio.to_thread.run_sync(self._spawn))

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
            raise QueryError(500, f"query worker failed: {e}") from e
        finally:
            if answered:
                self._idle.put_nowait(worker)
            else:  # still running, dead or abandoned by the client: replace it, in the background
                task = asyncio.get_running_loop().create_task(self._replace(worker))
                self._pending.add(task)
                task.add_done_callback(self._pending.discard)

    async def _replace(self, worker: _Worker) -> None:
        await anyio.to_thread.run_sync(self._stop, worker)
        for attempt in range(1, 6):
            try:
                self._idle.put_nowait(await anyio.to_thread.run_sync(self._spawn))
                return
            except KgError as e:  # keep the pool at its size: a lost worker would shrink it for good
                log.error("cannot replace a query worker (attempt %d): %s", attempt, e)
                await asyncio.sleep(attempt)
