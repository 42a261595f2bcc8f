"""JSON-LD: compact, with a context of the kg prefixes, one node object a line, subjects sorted.

The context is the prefixes of docs/architecture.md (``kg.vocab.PREFIXES``) plus
the data prefixes of the build's base IRI (``paper:``, ``person:`` ...), so
IRIs read as they do in Turtle.  Objects are written per subject as the
sorted triples stream by, so the file is written in constant memory beyond
the sort.  Plain strings are JSON strings; other literals keep their
datatype or language (``{"@value": "2024", "@type": "xsd:gYear"}``).

A large on-disk store (``kg export`` of a big build, more than ``turtle.SORT_LIMIT`` statements) is
written by Oxigraph as expanded JSON-LD (absolute IRIs, no context) in the store's own
deterministic order: the same graph, read back by any JSON-LD processor, at the cost of the store's
dump.

>>> compact("http://purl.org/dc/terms/title", {"dcterms": "http://purl.org/dc/terms/"})
'dcterms:title'
>>> compact("https://example.org/x", {"dcterms": "http://purl.org/dc/terms/"})
'https://example.org/x'
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, BinaryIO

import pyoxigraph as ox

from kg.exporters.built import BuiltGraph, ExportOptions
from kg.exporters.ntriples import dumped_lines, in_store_order, sort_lines
from kg.exporters.turtle import prefixes
from kg.vocab import RDF, XSD

NAME = "jsonld"
SUFFIX = ".jsonld"
VIEW = False
"""It writes the RDF graph, not a view."""


def context(base: str) -> dict[str, str]:
    """The ``@context`` of an export: every prefix, sorted by name."""
    table = prefixes(base)
    return {name: table[name] for name in sorted(table)}


def compact(iri: str, table: dict[str, str]) -> str:
    """``iri`` as ``prefix:local`` with the longest matching namespace of ``table``, else as is."""
    best = ""
    name = ""
    for prefix, namespace in table.items():
        if iri.startswith(namespace) and len(namespace) > len(best):
            best, name = namespace, prefix
    local = iri[len(best) :]
    # JSON-LD reads "p://..." as an absolute IRI, and an empty local name reads as the prefix itself
    if not best or not local or local.startswith("//"):
        return iri
    return f"{name}:{local}"


class Compactor:
    """:func:`compact` for one table, fast: namespaces are looked up where the IRI's last ``/`` or ``#`` cuts it.

    >>> Compactor({"p": "https://x/paper/", "x": "https://x/"})("https://x/paper/a/b")
    'p:a/b'
    """

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table
        self.names = {namespace: name for name, namespace in table.items()}
        self.cache: dict[str, str] = {}

    def __call__(self, iri: str) -> str:
        known = self.cache.get(iri)
        if known is not None:
            return known
        cut = max(iri.rfind("/"), iri.rfind("#")) + 1
        name = self.names.get(iri[:cut]) if cut else None
        local = iri[cut:]
        # every namespace ends in / or #, so a namespace found at the cut is the longest match;
        # otherwise (a namespace that is not the IRI's last segment, or none) the careful way
        result = f"{name}:{local}" if name is not None and local else compact(iri, self.table)
        if len(self.cache) < CACHE:
            self.cache[iri] = result
        return result

    def node(self, term: ox.NamedNode | ox.BlankNode) -> str:
        return self(term.value) if isinstance(term, ox.NamedNode) else f"_:{term.value}"

    def value(self, term: Any) -> Any:
        if isinstance(term, ox.Literal):
            if term.language:
                return {"@value": term.value, "@language": term.language}
            if term.datatype == XSD.string:
                return term.value
            return {"@value": term.value, "@type": self(term.datatype.value)}
        return {"@id": self.node(term)}


CACHE = 100_000
"""IRIs whose compact form is remembered (predicates, classes and concepts repeat; most subjects do not)."""


def _write_node(out: BinaryIO, node: dict[str, Any], first: bool) -> None:
    ordered: dict[str, Any] = {key: node[key] for key in ("@id", "@type") if key in node}
    ordered.update((key, value) for key, value in node.items() if not key.startswith("@"))
    compacted = {
        key: value[0] if isinstance(value, list) and len(value) == 1 else value
        for key, value in ordered.items()
    }
    text = json.dumps(compacted, ensure_ascii=False, separators=(", ", ": "))
    out.write(("    " if first else ",\n    ").encode() + text.encode())


def serialize(store: ox.Store, out: BinaryIO, base: str, on_disk: bool = False) -> None:
    """Write the default graph of ``store`` to ``out`` as compact JSON-LD, sorted by subject; a large
    on-disk store (:func:`kg.exporters.ntriples.in_store_order`) as expanded JSON-LD, written by
    Oxigraph in the store's own order (compacting a million statements in Python cost twice the
    store's own dump)."""
    if in_store_order(store, on_disk):
        store.dump(out, format=ox.RdfFormat.JSON_LD, from_graph=ox.DefaultGraph())
        return
    table = context(base)
    short = Compactor(table)
    head = json.dumps({"@context": table}, ensure_ascii=False, indent=2)
    out.write(head[: -len("\n}")].encode() + b',\n  "@graph": [\n')
    with tempfile.TemporaryFile(prefix="kg-jsonld-") as spool, tempfile.TemporaryFile() as ordered:
        ordered.writelines(sort_lines(dumped_lines(store, spool)))
        ordered.seek(0)
        current: Any = None
        node: dict[str, Any] = {}
        first = True
        for t in ox.parse(ordered, format=ox.RdfFormat.N_TRIPLES):
            if t.subject != current:
                if node:
                    _write_node(out, node, first)
                    first = False
                current = t.subject
                node = {"@id": short.node(t.subject)}
            if t.predicate == RDF.type and not isinstance(t.object, ox.Literal):
                node.setdefault("@type", []).append(short.node(t.object))
            else:
                node.setdefault(short(t.predicate.value), []).append(short.value(t.object))
        if node:
            _write_node(out, node, first)
    out.write(b"\n  ]\n}\n")


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write ``target`` (e.g. ``outputs/export/graph.jsonld``) atomically."""
    from kg.files import write_atomically

    return write_atomically(target, lambda f: serialize(source.store, f, source.base, source.on_disk))
