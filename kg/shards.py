"""Shards: the graph as sorted, gzip-compressed N-Quads files that other triple stores bulk-load.

``kg build --shards DIR`` writes ``DIR/part-00000.nq.gz``, ``DIR/part-00001.nq.gz``, ... (at
most ``shard_size`` lines each) and ``DIR/MANIFEST.json`` (each shard's name, line count,
size and sha256, and the total).  Lines are canonical N-Quads (Oxigraph writes each term one
way only), one statement a line, sorted as bytes across all shards, and gzip headers carry no
time or name, so the same graph always gives byte-identical shards.  Graphs larger than
``run_size`` lines are sorted in runs on disk and merged, so memory stays bounded.  The
folder appears complete or not at all (written beside, then renamed).

>>> import gzip, tempfile, pyoxigraph as ox
>>> store = ox.Store()
>>> for o in ("b", 'say "hi"\\n'):
...     store.add(ox.Quad(ox.NamedNode("http://x/s"), ox.NamedNode("http://x/p"), ox.Literal(o)))
>>> with tempfile.TemporaryDirectory() as tmp:
...     paths = write_shards(store, Path(tmp) / "shards")
...     print([p.name for p in paths])
...     print(gzip.decompress(paths[0].read_bytes()).decode(), end="")
['part-00000.nq.gz', 'MANIFEST.json']
<http://x/s> <http://x/p> "b" .
<http://x/s> <http://x/p> "say \\"hi\\"\\n" .
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

import pyoxigraph as ox

from kg.errors import KgError, os_message

SHARD_SIZE = 1_000_000
"""Lines per shard by default (tens of MB compressed for a scholarly graph)."""

RUN_SIZE = 1_000_000
"""Lines sorted in memory at once; more are sorted in runs on disk and merged."""

WRITE_CHUNK = 10_000
"""Lines joined into one write to the compressor."""

MANIFEST = "MANIFEST.json"
COMPRESS_LEVEL = 6
"""gzip level: 9 costs about three times the time of 6 for a few per cent smaller shards."""


def shard_name(index: int) -> str:
    """The file name of the shard numbered ``index`` (from 0).

    >>> shard_name(0), shard_name(12)
    ('part-00000.nq.gz', 'part-00012.nq.gz')
    """
    return f"part-{index:05d}.nq.gz"


def quad_line(quad: ox.Quad) -> bytes:
    """One N-Quads line (``str(quad)`` is N-Quads without the final `` .``).

    >>> quad_line(ox.Quad(ox.NamedNode("http://x/s"), ox.NamedNode("http://x/p"), ox.Literal("é\\\\")))
    b'<http://x/s> <http://x/p> "\\xc3\\xa9\\\\\\\\" .\\n'
    """
    return f"{quad} .\n".encode()


def quad_lines(store: ox.Store) -> Iterator[bytes]:
    """Every statement of ``store`` (all graphs) as an N-Quads line, in the store's order."""
    for quad in store.quads_for_pattern(None, None, None, None):
        yield quad_line(quad)


def sorted_lines(lines: Iterable[bytes], run_size: int = RUN_SIZE) -> Iterator[bytes]:
    """``lines`` sorted as bytes; runs of ``run_size`` lines spill to temporary files, merged lazily.

    The external sort is N-Triples export's (``kg.exporters.ntriples.sort_lines``).

    >>> list(sorted_lines([b"c\\n", b"a\\n", b"b\\n"], run_size=2))
    [b'a\\n', b'b\\n', b'c\\n']
    """
    from kg.exporters.ntriples import sort_lines

    if run_size < 1:
        raise ValueError(f"run_size must be at least 1, not {run_size}")
    return sort_lines(lines, chunk=run_size)


def write_shards(
    store: ox.Store, folder: Path, *, shard_size: int = SHARD_SIZE, run_size: int = RUN_SIZE
) -> list[Path]:
    """Write ``store`` as sorted gzip N-Quads shards and a manifest into ``folder``, atomically.

    Returns the shard paths, then the manifest's.  A folder already at ``folder`` is replaced
    only once the new one is complete; on failure it is left as it was and nothing partial
    remains.  Raises ``KgError`` (``write-failed``) when the folder cannot be written.
    """
    if shard_size < 1:
        raise ValueError(f"shard_size must be at least 1, not {shard_size}")
    from kg.files import TEMP_SUFFIX, make_parent, remove, replace_folder, sweep, sync_folder, temp_prefix

    folder = Path(folder)
    parent = folder.parent
    staging = parent / f"{temp_prefix(folder.name)}new{TEMP_SUFFIX}"
    try:
        make_parent(folder)
        sweep(parent, folder.name)  # what a killed build left
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        entries = _write_parts(sorted_lines(quad_lines(store), run_size), staging, shard_size)
        manifest = {
            "format": "application/n-quads",
            "compression": "gzip",
            "order": "lines sorted as UTF-8 bytes, across all shards",
            "total": sum(int(e["lines"]) for e in entries),
            "shards": entries,
        }
        data = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
        _write_file(staging / MANIFEST, data)
        sync_folder(staging)
        old = replace_folder(staging, folder)  # the previous shards are left as they were on failure
    except OSError as e:
        shutil.rmtree(staging, ignore_errors=True)
        raise KgError(f"cannot write shards to {folder}: {os_message(e)}", code="write-failed") from e
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if old is not None:
        remove(old)
    return [folder / str(e["name"]) for e in entries] + [folder / MANIFEST]


def _write_parts(lines: Iterator[bytes], folder: Path, shard_size: int) -> list[dict[str, str | int]]:
    entries: list[dict[str, str | int]] = []
    line = next(lines, None)
    while line is not None:
        name = shard_name(len(entries))
        path = folder / name
        count = 0
        with open(path, "wb") as raw:
            # no file name and mtime 0 in the gzip header: the same lines give the same bytes
            with gzip.GzipFile(
                filename="", mode="wb", fileobj=raw, compresslevel=COMPRESS_LEVEL, mtime=0
            ) as gz:
                chunk: list[bytes] = []
                while line is not None and count < shard_size:
                    chunk.append(line)
                    count += 1
                    if len(chunk) >= WRITE_CHUNK:
                        gz.write(b"".join(chunk))  # one compress call per chunk, not per line
                        chunk = []
                    line = next(lines, None)
                gz.write(b"".join(chunk))
            raw.flush()
            os.fsync(raw.fileno())
        entries.append({"name": name, "lines": count, "bytes": path.stat().st_size, "sha256": _sha256(path)})
    return entries


def _write_file(path: Path, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(folder: Path) -> dict[str, object]:
    """The manifest of a shard folder; ``KgError`` (``bad-shards``) when missing or unreadable."""
    try:
        data: dict[str, object] = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise KgError(f"no readable {MANIFEST} in {folder}: {e}", code="bad-shards") from e
    return data


def check_shards(folder: Path) -> int:
    """Check every shard of ``folder`` against its manifest (size, sha256); returns the total lines.

    Raises ``KgError`` (``bad-shards``) naming the first shard that differs.
    """
    manifest = read_manifest(folder)
    shards = manifest.get("shards")
    if not isinstance(shards, list):
        raise KgError(f"{folder / MANIFEST}: no list of shards", code="bad-shards")
    total = 0
    for entry in shards:
        path = folder / str(entry["name"])
        if not path.is_file() or _sha256(path) != entry["sha256"]:
            raise KgError(f"{path}: missing or not the shard the manifest names", code="bad-shards")
        total += int(entry["lines"])
    if total != manifest.get("total"):
        raise KgError(f"{folder / MANIFEST}: shard lines do not add up to the total", code="bad-shards")
    return total
