"""Where the graph lives: an embedded Oxigraph store, in memory or on disk under ``DIR/store/``.

Triples are streamed into the store through its bulk loader in batches; the
on-disk store of a build is written beside the old one and swapped in only
when complete, so a failed build leaves the previous store usable.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path

import pyoxigraph as ox

from kg.errors import KgError

STORE_DIR = "store"
BATCH = 100_000


def memory() -> ox.Store:
    """A fresh in-memory store."""
    return ox.Store()


def load(store: ox.Store, triples: Iterable[ox.Triple]) -> int:
    """Bulk-load triples into the default graph in batches; returns how many were given."""
    count = 0
    iterator = iter(triples)
    while True:
        batch = [
            ox.Quad(t.subject, t.predicate, t.object, ox.DefaultGraph()) for t in islice(iterator, BATCH)
        ]
        if not batch:
            return count
        store.bulk_extend(batch)
        count += len(batch)


def sorted_triples(store: ox.Store) -> list[ox.Triple]:
    """All triples of the default graph in a stable order (subject, predicate, object)."""
    quads = store.quads_for_pattern(None, None, None, ox.DefaultGraph())
    triples = [ox.Triple(q.subject, q.predicate, q.object) for q in quads]
    triples.sort(key=_order)
    return triples


def _order(t: ox.Triple) -> tuple[str, str, int, str]:
    o = t.object
    kind = 0 if isinstance(o, ox.NamedNode) else 1
    return (str(t.subject), str(t.predicate), kind, str(o))


def persist(store: ox.Store, out: Path) -> Path:
    """Copy a built store to ``out/store`` atomically (build beside, then swap); returns the path."""
    target = out / STORE_DIR
    fresh = out / f".{STORE_DIR}.new-{os.getpid()}"
    old = out / f".{STORE_DIR}.old-{os.getpid()}"
    for leftover in (fresh, old):
        if leftover.exists():
            shutil.rmtree(leftover)
    try:
        disk = ox.Store(str(fresh))
        disk.bulk_extend(iter_quads(store))
        disk.flush()
        del disk
        if target.exists():
            target.rename(old)
        fresh.rename(target)
    except OSError as e:
        shutil.rmtree(fresh, ignore_errors=True)
        raise KgError(f"cannot write the store under {out}: {e.strerror or e}", code="write-failed") from e
    shutil.rmtree(old, ignore_errors=True)
    return target


def iter_quads(store: ox.Store) -> Iterator[ox.Quad]:
    yield from store.quads_for_pattern(None, None, None, None)


def open_store(out: Path, read_only: bool = True) -> ox.Store:
    """The persisted store of a build folder."""
    path = out / STORE_DIR
    if not path.is_dir():
        raise KgError(f"no built graph in {out} (run 'kg build --out {out}' first)", code="no-store")
    try:
        return ox.Store.read_only(str(path)) if read_only else ox.Store(str(path))
    except OSError as e:
        raise KgError(f"cannot open the store {path}: {e}", code="bad-store") from e
