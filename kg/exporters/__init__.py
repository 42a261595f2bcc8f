"""Exporters: the only place that writes files; every file is written atomically.

``EXPORTERS`` is the table; adding a format is one module with ``NAME``,
``SUFFIX``, a one-line docstring, ``write(build, target)`` and
``export(source, target, options)`` (a :class:`~kg.exporters.source.Source`
is a built graph, in memory or persisted) plus one line here.

>>> default_target(Path("outputs"), "graphml", "topics").as_posix()
'outputs/export/topics.graphml'
>>> default_target(Path("outputs"), "ntriples", "coauthors").as_posix()
'outputs/export/graph.nt'
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, BinaryIO

from kg import viz
from kg.errors import KgError
from kg.exporters import csvfolder, gexf, graphml, jsonld, nquads, ntriples, turtle, vosviewer
from kg.exporters.source import ExportOptions, Source

if TYPE_CHECKING:
    from kg.pipeline import Build

EXPORTERS: dict[str, ModuleType] = {
    turtle.NAME: turtle,
    ntriples.NAME: ntriples,
    nquads.NAME: nquads,
    jsonld.NAME: jsonld,
    graphml.NAME: graphml,
    gexf.NAME: gexf,
    csvfolder.NAME: csvfolder,
    vosviewer.NAME: vosviewer,
}

VIEW_EXPORTERS = frozenset({graphml.NAME, gexf.NAME, csvfolder.NAME, vosviewer.NAME})
"""Exporters that write a networkx view (``--view``) rather than the RDF graph."""

EXPORT_DIR = "export"

BUILD_OUTPUTS: dict[str, Callable[[Build, Path], Path]] = {
    "graph.ttl": turtle.write,
    "coauthors.html": viz.write_coauthors,
    "topics.html": viz.write_topics,
}
"""What ``kg build`` writes into its output folder besides the store: file name -> writer."""


def exporter(name: str) -> ModuleType:
    """The exporter called ``name``; an unknown name lists the choices."""
    try:
        return EXPORTERS[name]
    except KeyError:
        raise KgError(
            f"unknown exporter {name!r}; choose from: {', '.join(sorted(EXPORTERS))}", code="unknown-exporter"
        ) from None


def default_target(out: Path, name: str, view: str) -> Path:
    """Where ``kg export NAME`` writes by default: ``OUT/export/graph.<ext>`` for RDF,
    ``OUT/export/<view>.<ext>`` for views, ``OUT/export/csv/`` for CSV."""
    module = exporter(name)
    if name == csvfolder.NAME:
        return out / EXPORT_DIR / "csv"
    stem = view if name in VIEW_EXPORTERS else "graph"
    return out / EXPORT_DIR / f"{stem}{module.SUFFIX}"


def export(name: str, source: Source, target: Path, options: ExportOptions | None = None) -> Path:
    """Export ``source`` in the format ``name`` to ``target`` (atomically); returns ``target``."""
    module = exporter(name)
    if name == turtle.NAME:  # turtle.py writes from a Build; its serializer takes the store and base
        return write_atomically(
            target, lambda f: turtle.serialize(source.store, f, source.base, source.on_disk)
        )
    written: Path = module.export(source, target, options or ExportOptions())
    return written


@contextmanager
def atomic(target: Path) -> Iterator[BinaryIO]:
    """A binary file that appears at ``target`` complete or not at all (temp file + ``os.replace``)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(target: Path, data: bytes) -> Path:
    """Write ``data`` to ``target`` atomically."""
    return write_atomically(target, lambda f: f.write(data))


def write_atomically(target: Path, write: Callable[[BinaryIO], object]) -> Path:
    """Write ``target`` with ``write(f)``; an OSError becomes a KgError naming the file."""
    try:
        with atomic(target) as f:
            write(f)
    except OSError as e:
        raise KgError(f"cannot write {target}: {e.strerror or e}", code="write-failed") from e
    return target
