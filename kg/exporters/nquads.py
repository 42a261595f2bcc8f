"""N-Quads: the graph with its provenance in the named graph ``<base>graph/provenance``, lines sorted.

The provenance graph holds what says where each paper was read from: the
source records (``kg:SourceRecord``, all their triples), the evidence of
method mentions (``kg:Evidence``, all their triples), and the triples
``prov:wasDerivedFrom``, ``kg:mergeReason`` and ``kg:evidence`` of papers.
Everything else is in the default graph; the union of the two graphs is the
built graph.  A triple store that loads the file (Oxigraph, GraphDB, Jena,
Neo4j n10s) can then query or drop the provenance on its own.

>>> provenance_graph("https://w3id.org/kg/id/")
'https://w3id.org/kg/id/graph/provenance'
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pyoxigraph as ox

from kg.exporters.built import BuiltGraph, ExportOptions
from kg.exporters.ntriples import ordered_lines
from kg.vocab import KG, PROV, RDF

NAME = "nquads"
SUFFIX = ".nq"
VIEW = False
"""It writes the RDF graph, not a view."""

PROVENANCE_CLASSES = (KG.SourceRecord, KG.Evidence)
"""Every triple about an instance of these goes into the provenance graph."""

PROVENANCE_PREDICATES = (PROV.wasDerivedFrom, KG.mergeReason, KG.evidence)
"""Every triple with one of these predicates goes into the provenance graph."""


def provenance_graph(base: str) -> str:
    """The IRI of the named graph that holds the provenance of a build with base IRI ``base``."""
    return f"{base}graph/provenance"


def _term(node: ox.NamedNode | ox.BlankNode) -> bytes:
    return str(node).encode()


def quad_lines(store: ox.Store, base: str, spool: BinaryIO, on_disk: bool = False) -> Iterator[bytes]:
    """N-Quads lines in N-Triples order (:func:`kg.exporters.ntriples.ordered_lines`): provenance
    triples with the provenance graph name, the rest as they are."""
    subjects: set[bytes] = set()
    for cls in PROVENANCE_CLASSES:
        for q in store.quads_for_pattern(None, RDF.type, cls, ox.DefaultGraph()):
            if isinstance(q.subject, ox.NamedNode | ox.BlankNode):
                subjects.add(_term(q.subject))
    predicates = {_term(p) for p in PROVENANCE_PREDICATES}
    graph = b" <" + provenance_graph(base).encode() + b"> .\n"
    for line in ordered_lines(store, spool, on_disk):
        subject, _, rest = line.partition(b" ")
        predicate = rest.partition(b" ")[0]
        if subject in subjects or predicate in predicates:
            yield line[: -len(b" .\n")] + graph
        else:
            yield line


def serialize(store: ox.Store, out: BinaryIO, base: str, on_disk: bool = False) -> None:
    """Write ``store`` to ``out`` as N-Quads, provenance in its own named graph, lines in the order of
    the N-Triples export (sorted, or a large on-disk store's own order)."""
    with tempfile.TemporaryFile(prefix="kg-nq-") as spool:
        out.writelines(quad_lines(store, base, spool, on_disk))


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write ``target`` (e.g. ``outputs/export/graph.nq``) atomically."""
    from kg.files import write_atomically

    return write_atomically(target, lambda f: serialize(source.store, f, source.base, source.on_disk))
