"""kg: turn scholarly paper listings into a knowledge graph you can query, look at and export."""

from __future__ import annotations

from os import PathLike
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rdflib

__version__ = "0.1.0"


def open(out: str | PathLike[str] = "outputs", read_only: bool = True) -> rdflib.Graph:
    """The graph of a build folder as an ``rdflib.Graph`` over its Oxigraph store (``OUT/store/``, oxrdflib).

    Read-only by default, so a running ``kg serve`` or another reader can share the store;
    ``graph.query(...)`` runs SPARQL in Oxigraph, not in rdflib's Python engine, with the
    prefixes ``kg query`` predeclares bound (``kg:``, ``foaf:``, ``dcterms:``, ``schema:``, ...).

    >>> import kg
    >>> graph = kg.open("outputs")  # doctest: +SKIP
    >>> len(graph) > 0  # doctest: +SKIP
    True
    """
    from pathlib import Path

    import pyoxigraph as ox
    import rdflib
    from oxrdflib import OxigraphStore
    from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

    from kg.store import open_store
    from kg.vocab import PREFIXES

    store: ox.Store = open_store(Path(out), read_only=read_only)
    graph = rdflib.Graph(store=OxigraphStore(store=store), identifier=DATASET_DEFAULT_GRAPH_ID)
    # the prefixes ``kg query`` predeclares (``kg:`` among them), so the same query text runs here
    for name, iri in PREFIXES.items():
        graph.bind(name, iri, override=True, replace=True)
    return graph
