"""Exporters: the formats other tools read, each written atomically (``kg.files``).

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

from pathlib import Path
from types import ModuleType

from kg.errors import KgError, unknown
from kg.exporters import csvfolder, gexf, graphml, jsonld, nquads, ntriples, turtle, vosviewer
from kg.exporters.source import ExportOptions, Source
from kg.files import sweep, write_atomically

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


def exporter(name: str) -> ModuleType:
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
    if name == csvfolder.NAME:
        return out / EXPORT_DIR / "csv"
    stem = view if name in VIEW_EXPORTERS else "graph"
    return out / EXPORT_DIR / f"{stem}{module.SUFFIX}"


def export(name: str, source: Source, target: Path, options: ExportOptions | None = None) -> Path:
    """Export ``source`` in the format ``name`` to ``target`` (atomically); returns ``target``."""
    module = exporter(name)
    sweep(target.parent, target.name)  # what an export killed before left here
    if name == turtle.NAME:  # turtle.py writes from a Build; its serializer takes the store and base
        return write_atomically(
            target, lambda f: turtle.serialize(source.store, f, source.base, source.on_disk)
        )
    written: Path = module.export(source, target, options or ExportOptions())
    return written
