"""Turtle: the whole graph with stable prefixes, in a deterministic order."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import pyoxigraph as ox

from kg.store import sorted_triples
from kg.vocab import PREFIXES

if TYPE_CHECKING:
    from kg.pipeline import Build

NAME = "turtle"
SUFFIX = ".ttl"


def prefixes(base: str) -> dict[str, str]:
    """The vocabulary prefixes plus the data prefixes of one base IRI."""
    data = ("area", "authorship", "evidence", "paper", "person", "record", "resource")
    return {**PREFIXES, **{name: f"{base}{name}/" for name in data}, "introduced": f"{base}method/"}


SORT_LIMIT = 200_000
"""Graphs up to this many triples are written sorted by subject IRI (easy to read and diff); larger
ones built in an on-disk store are written in the store's own order, which is also deterministic
(Oxigraph orders statements by term encodings, which depend on the terms only), in Rust, without
holding every triple in Python."""


def serialize(store: ox.Store, out: BinaryIO, base: str, on_disk: bool = False) -> None:
    """Write the default graph of ``store`` as deterministic Turtle, prefixes in alphabetical order.

    ``on_disk`` says ``store`` is an on-disk store, whose own order is deterministic.
    """
    table = prefixes(base)
    for name in sorted(table):
        out.write(f"@prefix {name}: <{table[name]}> .\n".encode())
    body = _SkipPrefixes(out)
    if len(store) <= SORT_LIMIT or not on_disk:
        ox.serialize(sorted_triples(store), body, format=ox.RdfFormat.TURTLE, prefixes=table)  # type: ignore[arg-type]
    else:
        store.dump(body, ox.RdfFormat.TURTLE, from_graph=ox.DefaultGraph(), prefixes=table)  # type: ignore[arg-type]
    body.flush()


class _SkipPrefixes:
    """A writer that drops the serializer's own ``@prefix`` lines (their order is not guaranteed)."""

    def __init__(self, out: BinaryIO) -> None:
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
    """Write the graph of a build to ``out`` (``kg build``'s ``graph.ttl``)."""
    serialize(build.store, out, build.base, build.store_path is not None)


def write(build: Build, target: Path) -> Path:
    """Write ``target`` (e.g. ``outputs/graph.ttl``) atomically."""
    from kg.exporters import write_atomically

    on_disk = build.store_path is not None
    return write_atomically(target, lambda f: serialize(build.store, f, build.base, on_disk))
