"""kg: turn scholarly paper listings into a knowledge graph you can query, look at and export."""

from __future__ import annotations

from collections.abc import Iterable
from os import PathLike
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rdflib

    from kg.build_result import Build
    from kg.errors import IssueLog

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


def build(
    paths: Iterable[str | PathLike[str]] = ("seeds",),
    out: str | PathLike[str] | None = None,
    *,
    thesaurus: str | PathLike[str] | None = None,
    base: str | None = None,
    workers: int = 1,
    log: IssueLog | None = None,
) -> Build:
    """Build the graph of the inputs (files or folders); with ``out``, write the build folder too,
    through the same entry point as ``kg build --out`` (``kg.build_folder.build_into``: its cache
    reused, and a missing input or a folder kg did not build refused with ``UsageError`` before
    anything is read or written).  ``thesaurus`` is a VOSviewer-style thesaurus
    that merges, renames or drops methods and persons (docs/thesaurus.md).  Problems go to ``log``
    (the result's ``log``); nothing is printed.

    >>> import kg
    >>> result = kg.build(["seeds"], "outputs", thesaurus="thesaurus.txt")  # doctest: +SKIP
    >>> result.summary()["papers"]  # doctest: +SKIP
    157
    """
    from pathlib import Path

    from kg.build_folder import build_into
    from kg.errors import IssueLog
    from kg.pipeline import BuildOptions
    from kg.pipeline import build as run
    from kg.vocab import DATA_BASE

    options = BuildOptions(
        base=base or DATA_BASE,
        workers=workers,
        thesaurus=Path(thesaurus) if thesaurus is not None else None,
    )
    inputs, issues = [Path(p) for p in paths], log if log is not None else IssueLog()
    if out is None:
        return run(inputs, options, issues)
    result, _ = build_into(inputs, Path(out), options, issues)
    return result
