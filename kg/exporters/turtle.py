"""Turtle: the whole graph with stable prefixes, in a deterministic order."""

from __future__ import annotations

import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Protocol

import pyoxigraph as ox

from kg.exporters.built import BuiltGraph, ExportOptions
from kg.store import sorted_triples
from kg.vocab import PREFIXES

if TYPE_CHECKING:
    from kg.build_result import Build

CHUNK = 1 << 20
"""Bytes copied at once."""

NAME = "turtle"
SUFFIX = ".ttl"
VIEW = False
"""It writes the RDF graph, not a view."""


def prefixes(base: str) -> dict[str, str]:
    """The vocabulary prefixes plus the data prefixes of one base IRI."""
    data = ("area", "authorship", "evidence", "paper", "person", "record", "resource")
    return {**PREFIXES, **{name: f"{base}{name}/" for name in data}, "introduced": f"{base}method/"}


SORT_LIMIT = 200_000
"""Graphs up to this many triples are written sorted by subject IRI (easy to read and diff).  A larger
graph is written in a deterministic order without holding every triple in Python: a build's
``graph.ttl`` in the order the assembler made the triples (written while they were loaded, see
:func:`write_stream`), an export from a store in the store's own order (Oxigraph orders statements
by term encodings, which depend on the terms only)."""

STREAM = "graph.ttl.part"
"""The file in a build's staging store folder that holds its ``graph.ttl`` while it is assembled
(Oxigraph ignores files that are not its own; ``kg.build_folder.write_outputs`` moves it out)."""


def serialize(store: ox.Store, out: BinaryIO, base: str, on_disk: bool = False) -> None:
    """Write the default graph of ``store`` as deterministic Turtle, prefixes in alphabetical order.

    ``on_disk`` says ``store`` is an on-disk store, whose own order is deterministic.
    """
    if len(store) <= SORT_LIMIT or not on_disk:
        write_stream(sorted_triples(store), out, base)
        return
    with _body(out, base) as (body, table):
        store.dump(body, ox.RdfFormat.TURTLE, from_graph=ox.DefaultGraph(), prefixes=table)  # type: ignore[arg-type]


class Sink(Protocol):
    """Where Turtle is written: a binary file, or anything with its ``write`` and ``flush``
    (``kg.store.Loader.tee``: a file and the store's loader)."""

    def write(self, data: bytes, /) -> int: ...

    def flush(self) -> None: ...


def write_stream(quads: Iterable[ox.Quad | ox.Triple], out: Sink, base: str) -> None:
    """Write statements of the default graph as Turtle in the order given, prefixes first in
    alphabetical order: the way a build writes ``graph.ttl`` while it loads the store (in Rust;
    dumping an on-disk store decodes every term from disk and is many times slower)."""
    with _body(out, base) as (body, table):
        ox.serialize(quads, body, format=ox.RdfFormat.TURTLE, prefixes=table)  # type: ignore[arg-type]


@contextmanager
def _body(out: Sink, base: str) -> Iterator[tuple[_SkipPrefixes, dict[str, str]]]:
    """Write the prefixes of ``base`` in alphabetical order, then give a writer for the statements
    (which drops a serializer's own prefix lines) and the prefix table to abbreviate with."""
    table = prefixes(base)
    for name in sorted(table):
        out.write(f"@prefix {name}: <{table[name]}> .\n".encode())
    body = _SkipPrefixes(out)
    yield body, table
    body.flush()


class _SkipPrefixes:
    """A writer that drops the serializer's own ``@prefix`` lines (their order is not guaranteed)."""

    def __init__(self, out: Sink) -> None:
        self._out = out
        self._head = True
        self._pending = b""

    def write(self, data: bytes) -> int:
        if not self._head:
            return self._out.write(data)
        self._pending += data
        while self._head and b"\n" in self._pending:
            line, _, rest = self._pending.partition(b"\n")
            if line.startswith(b"@prefix ") or not line:
                self._pending = rest
                continue
            self._head = False
            self._out.write(self._pending)
            self._pending = b""
        return len(data)

    def flush(self) -> None:
        if self._pending:
            self._out.write(self._pending)
            self._pending = b""
        self._out.flush()


def serialize_build(build: Build, out: BinaryIO) -> None:
    """Write the graph of a build to ``out`` (``kg build``'s ``graph.ttl``): the Turtle the build
    wrote while it loaded its store when it did (see :data:`STREAM`), else from the store."""
    if build.turtle is not None:
        with open(build.turtle, "rb") as f:
            shutil.copyfileobj(f, out, CHUNK)
        return
    serialize(build.store, out, build.base, build.store_path is not None)


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write ``target`` (e.g. ``outputs/export/graph.ttl``) atomically."""
    from kg.files import write_atomically

    return write_atomically(target, lambda f: serialize(source.store, f, source.base, source.on_disk))
