"""What an export reads: a built graph (its Oxigraph store and base IRI) and the networkx views of it.

``kg build`` exports from the in-memory store of a :class:`~kg.pipeline.Build`;
``kg export`` from the persisted store of a build folder (``DIR/store/``).
Both go through one :class:`BuiltGraph`, so every exporter has one entry point,
``export(source, target, options)``.

>>> import pyoxigraph as ox
>>> s = BuiltGraph(ox.Store())
>>> s.base
'https://w3id.org/kg/id/'
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from kg.errors import KgError, UsageError, unknown
from kg.vocab import DATA_BASE, SCHEMA

if TYPE_CHECKING:
    import networkx as nx

    from kg.build_result import Build

def views() -> tuple[str, ...]:
    """The networkx views graph formats (GraphML, GEXF, VOSviewer, ``edges.csv``) can be made from:
    those of ``kg.project.VIEWS`` computed whole from the store."""
    from kg.project import VIEWS

    return tuple(name for name, view in VIEWS.items() if view.whole)

DEFAULT_VIEW = "coauthors"


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """How to export: which view graph formats show, and whether CSV files start with a BOM."""

    view: str = DEFAULT_VIEW
    bom: bool = False
    """Start CSV files with a UTF-8 byte order mark (Excel on Windows needs it to detect UTF-8)."""
    layout: bool = False
    """Graph formats: add Louvain communities, colours, sizes and positions (as ``kg viz`` draws the
    view). Off by default: Gephi, Cytoscape, igraph and VOSviewer cluster and lay out a graph
    themselves, and on a large view these are most of an export's cost."""


@dataclass(slots=True)
class BuiltGraph:
    """A built graph to export: its store, its base IRI, and its views (computed once, when asked)."""

    store: ox.Store
    base: str = DATA_BASE
    views: dict[str, nx.Graph] = field(default_factory=dict)
    """Views computed so far, by name; a name with ``+layout`` is the decorated one."""
    on_disk: bool = False
    """The store is on disk, so its own statement order is deterministic (no sort needed)."""

    @classmethod
    def of(cls, build: Build) -> BuiltGraph:
        """The source of a build (in memory, or on disk when it was assembled there)."""
        return cls(build.store, build.base, on_disk=build.store_path is not None)

    @classmethod
    def open(cls, out: Path, base: str | None = None) -> BuiltGraph:
        """The source of a persisted build folder (``out/store/``); the base IRI is read from the data."""
        from kg.store import open_store

        store = open_store(out)
        return cls(store, base or guess_base(store), on_disk=True)

    def view(self, name: str, layout: bool = False) -> nx.Graph:
        """The networkx view called ``name`` (``kg.project``), computed on first use; with ``layout``,
        decorated with communities, colours, sizes and positions."""
        key = f"{name}+layout" if layout else name
        if key not in self.views:
            if name not in views():
                raise UsageError(unknown("view", name, views()), code="unknown-view")
            self.views[key] = _project(self.store, name, layout)
        return self.views[key]


def _project(store: ox.Store, name: str, layout: bool) -> nx.Graph:
    """The whole view (exports are not cut to a drawing's size), decorated only with ``layout``."""
    try:
        from kg import project
    except ImportError as e:
        raise KgError(f"views are not available in this version ({e})", code="no-views") from e
    options: Any = project.ViewOptions(max_nodes=sys.maxsize, max_edges=None)
    graph: nx.Graph = project.view(store, name, options, decorated=layout)
    return graph


def guess_base(store: ox.Store) -> str:
    """The base IRI of the built data in ``store``: the part of a paper IRI before ``paper/``.

    >>> s = ox.Store()
    >>> s.add(ox.Quad(ox.NamedNode("https://example.org/kg/paper/a-1"), ox.NamedNode(
    ...     "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"), SCHEMA.ScholarlyArticle))
    >>> guess_base(s)
    'https://example.org/kg/'
    """
    rdf_type = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
    for quad in store.quads_for_pattern(None, rdf_type, SCHEMA.ScholarlyArticle, None):
        if not isinstance(quad.subject, ox.NamedNode):
            continue
        head, sep, _ = quad.subject.value.rpartition("paper/")
        if sep:
            return head
    return DATA_BASE
