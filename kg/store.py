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


def on_disk(path: Path) -> ox.Store:
    """A fresh store on disk at ``path`` (a leftover there is removed first)."""
    try:
        if path.exists():
            shutil.rmtree(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        return ox.Store(str(path))
    except OSError as e:
        raise KgError(f"cannot create a store at {path}: {e}", code="write-failed") from e


def staging(out: Path) -> Path:
    """Where a build of ``out`` assembles its on-disk store before it is swapped in."""
    return out / f".{STORE_DIR}.new-{os.getpid()}"


def load(store: ox.Store, quads: Iterable[ox.Quad]) -> int:
    """Bulk-load quads in batches (the assembler's are all in the default graph); returns how many."""
    count = 0
    iterator = iter(quads)
    while batch := list(islice(iterator, BATCH)):
        store.bulk_extend(batch)
        count += len(batch)
    return count


def sorted_triples(store: ox.Store) -> list[ox.Triple]:
    """All triples of the default graph in a stable order (subject, predicate, object)."""
    quads = list(store.quads_for_pattern(None, None, None, ox.DefaultGraph()))
    quads.sort(key=_order)
    return [q.triple for q in quads]


def _order(t: ox.Quad) -> tuple[str, str, int, str]:
    o = t.object
    kind = 0 if isinstance(o, ox.NamedNode) else 1
    return (str(t.subject), str(t.predicate), kind, str(o))


def persist(store: ox.Store, out: Path, built_at: Path | None = None) -> Path:
    """Put a built store at ``out/store`` atomically (assembled beside, then swapped in); returns the path.

    ``built_at`` is where the store already lies on disk (see :func:`staging`); an in-memory
    store is copied to disk first.
    """
    target = out / STORE_DIR
    fresh = built_at if built_at is not None else staging(out)
    old = out / f".{STORE_DIR}.old-{os.getpid()}"
    for leftover in out.glob(f".{STORE_DIR}.*"):
        if leftover != fresh:
            shutil.rmtree(leftover, ignore_errors=True)
    try:
        if built_at is None:
            disk = on_disk(fresh)
            disk.bulk_extend(iter_quads(store))
            disk.flush()
            del disk
        else:
            store.flush()
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
