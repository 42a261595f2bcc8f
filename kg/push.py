"""Push a built graph into a running SPARQL store over the SPARQL 1.1 Graph Store HTTP Protocol.

The statements are sorted (as N-Triples lines, graph by graph) and cut into numbered batches
of ``batch_size`` triples; each batch is one ``POST`` of ``application/n-triples`` to
``ENDPOINT?default`` (or ``ENDPOINT?graph=IRI``), which adds it to the graph.  After each
accepted batch the progress is written atomically to ``OUT/load-state.json``, so a rerun
after a failure (connection refused, 5xx, timeout) goes on from the next batch.

A batch is idempotent on a store (RDF graphs are sets), so sending again a batch whose
answer was lost is safe: the resumed load may repeat at most the batch that was in flight.
That is also why blank nodes are refused: a blank node label is local to one request body,
so one node cut across two batches would become two (``kg build`` mints IRIs, never blank
nodes).

>>> target_url("http://127.0.0.1:7878/store", None)
'http://127.0.0.1:7878/store?default'
>>> target_url("http://127.0.0.1:7878/store", "https://example.org/g#1")
'http://127.0.0.1:7878/store?graph=https%3A%2F%2Fexample.org%2Fg%231'
"""

from __future__ import annotations

import hashlib
import json
import math
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO
from urllib.parse import quote

import httpx
import pyoxigraph as ox

from kg.errors import KgError
from kg.shards import sorted_lines

STATE_FILE = "load-state.json"
BATCH_SIZE = 10_000
"""Triples per request by default: a few MB of N-Triples, small enough for any server's body limit."""
RETRIES = 5
"""Attempts per batch before giving up."""
BACKOFF = 0.5
"""Seconds before the first retry; doubled after each failed attempt (capped at :data:`BACKOFF_CAP`)."""
BACKOFF_CAP = 10.0
TIMEOUT = 60.0
"""Seconds to wait for the server (connect, send, answer) per request."""
TRANSIENT_STATUS = frozenset({408, 425, 429, 500, 502, 503, 504})
CONTENT_TYPE = "application/n-triples"


def target_url(endpoint: str, graph: str | None) -> str:
    """The Graph Store Protocol URL of ``graph`` (``None``: the default graph) at ``endpoint``."""
    joiner = "&" if "?" in endpoint else "?"
    if graph is None:
        return f"{endpoint}{joiner}default"
    return f"{endpoint}{joiner}graph={quote(graph, safe='')}"


@dataclass(slots=True)
class PushState:
    """What ``OUT/load-state.json`` records: which load, and how far it got."""

    endpoint: str
    graph: str | None
    batch_size: int
    digest: str
    """sha256 of the sorted lines: a rebuilt graph is a different load, started over."""
    triples: int
    batches: int
    done: int = 0
    """Batches accepted by the server, in order (the next to send is ``done + 1``)."""

    def same_load(self, other: PushState) -> bool:
        """Whether ``other`` describes the same graph sent to the same place in the same batches."""
        return (self.endpoint, self.graph, self.batch_size, self.digest, self.triples, self.batches) == (
            other.endpoint,
            other.graph,
            other.batch_size,
            other.digest,
            other.triples,
            other.batches,
        )

    def dumps(self) -> bytes:
        return (json.dumps(asdict(self), indent=2, sort_keys=True) + "\n").encode()

    @classmethod
    def read(cls, path: Path) -> PushState | None:
        """The state in ``path``, or ``None`` when there is none or it is unreadable."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(**data)
        except (OSError, ValueError, TypeError):
            return None


@dataclass(frozen=True, slots=True)
class PushReport:
    """What a load did."""

    triples: int
    batches: int
    first: int
    """The first batch sent in this run (1 unless resumed)."""
    sent: int
    """Batches sent in this run."""
    triples_sent: int
    seconds: float
    note: str = ""
    """Why the load started over or had nothing to do, when it did."""

    @property
    def resumed(self) -> bool:
        return self.first > 1


@dataclass(frozen=True, slots=True)
class Batch:
    number: int
    graph: str | None
    body: bytes
    triples: int


class Spool:
    """The graph's statements, sorted and cut into batches, spooled to a temporary file.

    Sorting once up front gives the batches a stable order (the same graph gives the same
    batches, whatever the store's internal order) and a digest that tells a resumed load
    whether the graph is still the one it was sending.
    """

    def __init__(self, store: ox.Store, target: str | None, batch_size: int) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        self.batch_size = batch_size
        # lives as long as the spool (closed by close() or the with block)
        self.file: IO[bytes] = tempfile.TemporaryFile(prefix="kg-load-")  # noqa: SIM115
        self.graphs: list[tuple[str | None, int]] = []
        """(target graph, number of triples) in sending order."""
        try:
            self.digest = self._spool(store, target)
        except BaseException:
            self.file.close()
            raise
        self.triples = sum(n for _, n in self.graphs)
        self.batches = sum(math.ceil(n / batch_size) for _, n in self.graphs)

    def _spool(self, store: ox.Store, target: str | None) -> str:
        digest = hashlib.sha256()
        graphs = list(store.named_graphs())
        if any(isinstance(g, ox.BlankNode) for g in graphs):
            raise KgError(
                "the dataset has a graph named by a blank node, which has no IRI to load into",
                code="blank-nodes",
            )
        names = sorted(g.value for g in graphs if isinstance(g, ox.NamedNode))
        sources: list[tuple[ox.NamedNode | ox.DefaultGraph, str | None]] = [(ox.DefaultGraph(), target)]
        sources += [(ox.NamedNode(name), name) for name in names]
        for source, goes_to in sources:
            count = 0
            digest.update(f"graph {goes_to}\n".encode())
            for line in sorted_lines(_triple_lines(store, source)):
                self.file.write(line)
                digest.update(line)
                count += 1
            if count:
                self.graphs.append((goes_to, count))
        self.file.flush()
        return digest.hexdigest()

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def batches_from(self, first: int) -> Iterator[Batch]:
        """The batches numbered ``first`` and after (numbered from 1), read back in order."""
        self.file.seek(0)
        number = 0
        for goes_to, count in self.graphs:
            left = count
            while left:
                size = min(self.batch_size, left)
                number += 1
                lines = [self.file.readline() for _ in range(size)]
                left -= size
                if number >= first:
                    yield Batch(number, goes_to, b"".join(lines), size)


def _triple_lines(store: ox.Store, graph: ox.NamedNode | ox.DefaultGraph) -> Iterator[bytes]:
    for quad in store.quads_for_pattern(None, None, None, graph):
        if isinstance(quad.subject, ox.BlankNode) or isinstance(quad.object, ox.BlankNode):
            raise KgError(
                f"the graph has blank nodes ({quad.subject} {quad.predicate} {quad.object}), which cannot be "
                "sent in separate batches: a blank node would become one node per batch; load the "
                "shards with the store's bulk loader instead",
                code="blank-nodes",
            )
        yield f"{quad.subject} {quad.predicate} {quad.object} .\n".encode()


def push(
    store: ox.Store,
    endpoint: str,
    state_path: Path,
    *,
    graph: str | None = None,
    batch_size: int = BATCH_SIZE,
    resume: bool = True,
    retries: int = RETRIES,
    timeout: float = TIMEOUT,
    client: httpx.Client | None = None,
    progress: Callable[[Batch, int], None] | None = None,
) -> PushReport:
    """POST the graph of ``store`` to the Graph Store endpoint ``endpoint`` in numbered batches.

    ``graph`` is the IRI of the graph the default graph goes to (``None``: the default graph;
    named graphs go to their own names).  Progress is kept in ``state_path``; with ``resume``
    a rerun of the same load continues after the last accepted batch.  ``progress(batch,
    total)`` is called after each accepted batch.  Raises ``KgError`` (``load-failed``) when
    the endpoint refuses a batch or stays unreachable for ``retries`` attempts.
    """
    started = time.perf_counter()
    from kg.files import write_bytes

    with Spool(store, graph, batch_size) as spool:
        fresh = PushState(endpoint, graph, batch_size, spool.digest, spool.triples, spool.batches)
        previous = PushState.read(state_path) if resume else None
        note = ""
        state = fresh
        if previous is not None and previous.same_load(fresh):
            state = previous
            if state.done >= state.batches:
                return PushReport(
                    state.triples,
                    state.batches,
                    state.batches + 1,
                    0,
                    0,
                    time.perf_counter() - started,
                    "already loaded (use --no-resume to load again)",
                )
        elif previous is not None:
            note = "the recorded load differs (endpoint, graph, batch size or graph content); starting over"
        write_bytes(state_path, state.dumps())
        first = state.done + 1
        sent = triples_sent = 0
        owned = client is None
        http = client if client is not None else httpx.Client(timeout=httpx.Timeout(timeout))
        try:
            for batch in spool.batches_from(first):
                _post(http, endpoint, batch, state.batches, retries)
                state.done = batch.number
                write_bytes(state_path, state.dumps())
                sent += 1
                triples_sent += batch.triples
                if progress is not None:
                    progress(batch, state.batches)
        finally:
            if owned:
                http.close()
    return PushReport(
        state.triples, state.batches, first, sent, triples_sent, time.perf_counter() - started, note
    )


def _post(http: httpx.Client, endpoint: str, batch: Batch, total: int, retries: int) -> None:
    url = target_url(endpoint, batch.graph)
    where = f"batch {batch.number} of {total}"
    problem = ""
    for attempt in range(1, max(1, retries) + 1):
        try:
            response = http.post(url, content=batch.body, headers={"Content-Type": CONTENT_TYPE})
        except httpx.TimeoutException:
            problem = "timed out"
        except httpx.TransportError as e:
            problem = _transport_problem(e)
        else:
            if response.is_success:
                return
            detail = response.text.strip().replace("\n", " ")[:200]
            problem = f"HTTP {response.status_code}" + (f": {detail}" if detail else "")
            if response.status_code not in TRANSIENT_STATUS:
                raise KgError(
                    f"{endpoint} refused {where} ({problem}); nothing was retried", code="load-failed"
                )
        if attempt < retries:
            time.sleep(min(BACKOFF * 2 ** (attempt - 1), BACKOFF_CAP))
    raise KgError(
        f"{endpoint} did not accept {where} after {retries} attempts ({problem}); "
        f"rerun the same command to resume from batch {batch.number}",
        code="load-failed",
    )


def _transport_problem(e: httpx.TransportError) -> str:
    if isinstance(e, httpx.ConnectError):
        reason = str(e) or "connection failed"
        return "connection refused" if "refused" in reason.lower() else reason
    return f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
