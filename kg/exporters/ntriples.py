"""N-Triples: one canonical triple a line, lines sorted, streamed from the store (any size).

The store dumps its default graph as canonical N-Triples (Oxigraph writes
each triple one way only), and the lines are sorted as bytes, so the same
graph always gives the same file.  Graphs larger than :data:`CHUNK` lines
are sorted in runs on disk and merged, so memory stays bounded.  A large
on-disk store (``kg export`` of a big build) is written in its own
deterministic order instead, as Turtle is (:func:`in_store_order`).

>>> import io, pyoxigraph as ox
>>> s = ox.Store()
>>> for o in ("b", "a"):
...     s.add(ox.Quad(ox.NamedNode("http://x/s"), ox.NamedNode("http://x/p"), ox.Literal(o)))
>>> out = io.BytesIO()
>>> serialize(s, out)
>>> print(out.getvalue().decode(), end="")
<http://x/s> <http://x/p> "a" .
<http://x/s> <http://x/p> "b" .
"""

from __future__ import annotations

import heapq
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO, BinaryIO

import pyoxigraph as ox

from kg.exporters.built import BuiltGraph, ExportOptions

NAME = "ntriples"
SUFFIX = ".nt"
VIEW = False
"""It writes the RDF graph, not a view."""

CHUNK = 500_000
"""Lines sorted in memory at once; larger graphs are sorted in runs on disk and merged."""


def dumped_lines(store: ox.Store, spool: IO[bytes]) -> Iterator[bytes]:
    """The lines of the default graph as canonical N-Triples (through the temporary file ``spool``)."""
    store.dump(spool, format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
    spool.flush()
    spool.seek(0)
    for line in spool:
        if line.strip():
            yield line if line.endswith(b"\n") else line + b"\n"


def sort_lines(lines: Iterable[bytes], chunk: int = CHUNK) -> Iterator[bytes]:
    """``lines`` sorted as bytes, duplicates dropped; runs of ``chunk`` lines spill to temporary files.

    >>> list(sort_lines([b"c\\n", b"a\\n", b"b\\n", b"a\\n"], chunk=2))
    [b'a\\n', b'b\\n', b'c\\n']
    """
    with ExitStack() as stack:
        runs: list[IO[bytes]] = []
        batch: list[bytes] = []
        for line in lines:
            batch.append(line)
            if len(batch) >= chunk:
                batch.sort()
                run = stack.enter_context(tempfile.TemporaryFile(prefix="kg-sort-"))
                run.writelines(batch)
                run.seek(0)
                runs.append(run)
                batch = []
        batch.sort()
        previous = None
        for line in heapq.merge(batch, *runs) if runs else batch:
            if line != previous:
                yield line
                previous = line


def in_store_order(store: ox.Store, on_disk: bool) -> bool:
    """Whether an export writes the statements in the store's own order instead of sorting them: an
    on-disk store (whose order is deterministic: Oxigraph orders statements by term encodings, which
    depend on the terms only) of more than ``SORT_LIMIT`` statements, as Turtle does."""
    from kg.exporters.turtle import SORT_LIMIT

    return on_disk and len(store) > SORT_LIMIT


def ordered_lines(store: ox.Store, spool: IO[bytes], on_disk: bool = False) -> Iterator[bytes]:
    """The lines of the default graph, sorted (or in the store's order, see :func:`in_store_order`)."""
    lines = dumped_lines(store, spool)
    return lines if in_store_order(store, on_disk) else sort_lines(lines)


def serialize(store: ox.Store, out: BinaryIO, on_disk: bool = False) -> None:
    """Write the default graph of ``store`` to ``out`` as canonical N-Triples, sorted (or in the order
    of a large on-disk store: Oxigraph writes them straight to ``out``)."""
    if in_store_order(store, on_disk):
        store.dump(out, format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
        return
    with tempfile.TemporaryFile(prefix="kg-nt-") as spool:
        for line in sort_lines(dumped_lines(store, spool)):
            out.write(line)


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write ``target`` (e.g. ``outputs/export/graph.nt``) atomically."""
    from kg.files import write_atomically

    return write_atomically(target, lambda f: serialize(source.store, f, source.on_disk))
