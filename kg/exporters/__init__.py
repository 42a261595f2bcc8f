"""Exporters: the formats other tools read, each written atomically (``kg.files``).

``EXPORTERS`` is the table; adding a format is one module that is an :class:`Exporter` (``NAME``,
``SUFFIX``, ``VIEW``, a one-line docstring and ``export(source, target, options)``; a
:class:`~kg.exporters.built.BuiltGraph` is a built graph, in memory or persisted) plus one line here.

>>> default_target(Path("outputs"), "graphml", "topics").as_posix()
'outputs/export/topics.graphml'
>>> default_target(Path("outputs"), "ntriples", "coauthors").as_posix()
'outputs/export/graph.nt'
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Protocol

from kg.errors import KgError, UsageError, unknown
from kg.exporters import csvfolder, gexf, graphml, jsonld, nquads, ntriples, turtle, vosviewer
from kg.exporters.built import BuiltGraph, ExportOptions
from kg.files import sweep
from kg.layout import CACHE, EXPORT, GRAPH, LEDGER, MANIFEST, STORE


class Exporter(Protocol):
    """What an exporter module has (modules are checked against it where the table is typed)."""

    NAME: str
    """The format's name, as ``kg export NAME`` takes it."""
    SUFFIX: str
    """The file's suffix (``.ttl``); ``""`` for a folder (``csv/``)."""
    VIEW: bool
    """It writes a networkx view (``--view``), not the RDF graph."""

    def export(self, source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
        """Write ``source`` to ``target`` atomically; returns ``target``."""
        ...


EXPORTERS: dict[str, Exporter] = {
    turtle.NAME: turtle,
    ntriples.NAME: ntriples,
    nquads.NAME: nquads,
    jsonld.NAME: jsonld,
    graphml.NAME: graphml,
    gexf.NAME: gexf,
    csvfolder.NAME: csvfolder,
    vosviewer.NAME: vosviewer,
}

VIEW_EXPORTERS = frozenset(name for name, module in EXPORTERS.items() if module.VIEW)
"""Exporters that write a networkx view (``--view``) rather than the RDF graph."""

EXPORT_DIR = EXPORT


def exporter(name: str) -> Exporter:
    """The exporter called ``name``; an unknown name lists the choices."""
    try:
        return EXPORTERS[name]
    except KeyError:
        raise KgError(
            unknown("exporter", name, sorted(EXPORTERS)), code="unknown-exporter"
        ) from None


def default_target(out: Path, name: str, view: str) -> Path:
    """Where ``kg export NAME`` writes by default: ``OUT/export/graph.<ext>`` for RDF,
    ``OUT/export/<view>.<ext>`` for views, ``OUT/export/csv/`` for CSV."""
    module = exporter(name)
    if not module.SUFFIX:  # a folder
        return out / EXPORT_DIR / name
    stem = view if module.VIEW else "graph"
    return out / EXPORT_DIR / f"{stem}{module.SUFFIX}"


BUILD_OWNED = (GRAPH, STORE, CACHE, MANIFEST, LEDGER)
"""What a build folder's identity rests on (``graph.ttl``'s SHA-256 is the generation its store and
manifest name; a delta reads the store, manifest, ledger and cache): never an export's target."""


def check_target(target: Path) -> None:
    """Refuse to write an export over a build's own file (``kg export turtle --output OUT/graph.ttl``
    would leave a graph.ttl whose hash is no longer the build's generation); exports go beside it.

    Raises :class:`~kg.errors.UsageError` (``build-owned``).
    """
    folder = target.parent
    if target.name in BUILD_OWNED and any(os.path.lexists(folder / n) for n in (MANIFEST, STORE)):
        raise UsageError(
            f"{target} is the build's own {target.name}, which the build's identity checks rest on "
            f"(expected a target beside it, e.g. the default {folder / EXPORT_DIR / target.name})",
            code="build-owned",
        )


def export(name: str, source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Export ``source`` in the format ``name`` to ``target`` (atomically); returns ``target``."""
    module = exporter(name)
    check_target(target)
    sweep(target.parent, target.name)  # what an export killed before left here
    return module.export(source, target, options or ExportOptions())
