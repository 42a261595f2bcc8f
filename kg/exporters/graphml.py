"""GraphML: a view (``--view``) for Gephi, Cytoscape, yEd and igraph, with typed attributes and weights.

Written by hand, streaming, instead of ``nx.write_graphml`` (which rejects
lists and None and can leave a 0-byte file behind).  Every node has its
label twice: ``label`` (what Gephi shows) and ``name`` (what Cytoscape
shows).  Each attribute key is declared with one type over the whole view:
``int`` for whole numbers (years, paper counts), ``double`` for reals (edge
``weight``, ``x``, ``y``, ``size`` are always ``double``), ``boolean``,
``string`` otherwise; lists are joined with ``; ``; a None or non-finite
value is left out, never written as ``None``.  Text is XML-escaped and the
characters XML 1.0 forbids (control characters, lone surrogates) are
removed.  Nodes and edges are written sorted, so a view always gives the
same bytes.

>>> xml_text('a < b & "c"\\x07 😀', quote=True)
'a &lt; b &amp; &quot;c&quot; 😀'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from kg.exporters.built import BuiltGraph, ExportOptions

if TYPE_CHECKING:
    import networkx as nx


NAME = "graphml"
SUFFIX = ".graphml"
VIEW = True
"""It writes a networkx view (``--view``), not the RDF graph."""

FORBIDDEN = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
"""Characters XML 1.0 does not allow in a document, even escaped."""

REAL_KEYS = frozenset({"weight", "x", "y", "size"})
"""Attributes that are always declared ``double`` (so a view with whole-number weights stays ``double``)."""

_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_ATTRIBUTE_ESCAPES = {**_ESCAPES, '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"}
_TEXT = re.compile("[&<>\r]")
_ATTRIBUTE = re.compile('[&<>"\n\r\t]')


def xml_text(value: str, quote: bool = False) -> str:
    """``value`` safe inside XML text (or, with ``quote``, a double-quoted attribute); forbidden chars dropped.

    >>> xml_text("line\\nbreak", quote=True)
    'line&#10;break'
    """
    value = FORBIDDEN.sub("", value)
    if quote:
        return _ATTRIBUTE.sub(lambda m: _ATTRIBUTE_ESCAPES[m.group()], value)
    return _TEXT.sub(lambda m: _ESCAPES.get(m.group(), "&#13;"), value)


def scalar(value: Any) -> bool | int | float | str | None:
    """A scalar a graph file can hold: lists joined with ``; ``, None and NaN left out (None).

    >>> scalar(["a", "b"]), scalar(float("nan")), scalar(3), scalar({"y", "x"})
    ('a; b', None, 3, 'x; y')
    """
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, set | frozenset):
        return "; ".join(sorted(str(v) for v in value))
    if isinstance(value, list | tuple):
        return "; ".join(str(v) for v in value)
    if hasattr(value, "item"):  # a numpy scalar
        return scalar(value.item())
    return str(value)


def value_type(values: Iterable[bool | int | float | str]) -> str:
    """The one GraphML type that holds every value: boolean, int, double or string.

    >>> value_type([1, 2]), value_type([1, 2.5]), value_type([True]), value_type([1, "a"])
    ('int', 'double', 'boolean', 'string')
    """
    kinds = {type(v) for v in values}
    if kinds <= {bool}:
        return "boolean"
    if kinds <= {int}:
        return "int"
    if kinds <= {int, float}:
        return "double"
    return "string"


def format_value(value: bool | int | float | str, kind: str) -> str:
    """The text of ``value`` as a value of type ``kind``."""
    if kind == "boolean":
        return "true" if value else "false"
    if kind == "double":
        return repr(float(value))
    return str(value)


def node_attributes(graph: nx.Graph, node: Any) -> dict[str, bool | int | float | str]:
    """The scalar attributes of ``node``, with its label (the node id when the view has none) as ``label`` and ``name``."""
    data = {key: scalar(value) for key, value in graph.nodes[node].items()}
    attributes = {key: value for key, value in data.items() if value is not None}
    label = attributes.get("label")
    attributes["label"] = label if isinstance(label, str) and label else str(node)
    attributes["name"] = attributes["label"]
    return dict(sorted(attributes.items()))


def edge_attributes(data: dict[str, Any]) -> dict[str, bool | int | float | str]:
    """The scalar attributes of an edge, ``weight`` 1.0 when the view gives none."""
    attributes = {key: scalar(value) for key, value in data.items()}
    kept = {key: value for key, value in attributes.items() if value is not None}
    if not isinstance(kept.get("weight"), int | float) or isinstance(kept.get("weight"), bool):
        kept["weight"] = 1.0
    return kept


def sorted_nodes(graph: nx.Graph) -> list[Any]:
    """The nodes of ``graph`` in a stable order (by their id as text)."""
    return sorted(graph.nodes, key=str)


def sorted_edges(graph: nx.Graph) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """The edges of ``graph`` in a stable order; an undirected edge runs from the smaller id."""
    edges = []
    for u, v, data in graph.edges(data=True):
        if not graph.is_directed() and str(v) < str(u):
            u, v = v, u
        edges.append((str(u), str(v), u, v, data))
    edges.sort(key=lambda e: (e[0], e[1]))
    for _, _, u, v, data in edges:
        yield u, v, data


def key_types(rows: Iterable[dict[str, bool | int | float | str]]) -> dict[str, str]:
    """Each attribute name of ``rows`` with its type, names sorted."""
    seen: dict[str, list[bool | int | float | str]] = {}
    for row in rows:
        for key, value in row.items():
            seen.setdefault(key, []).append(value)
    types = {}
    for key in sorted(seen):
        kind = value_type(seen[key])
        types[key] = "double" if key in REAL_KEYS and kind in ("int", "double") else kind
    return types


def serialize(graph: nx.Graph, out: BinaryIO, name: str = "view") -> None:
    """Write ``graph`` to ``out`` as GraphML."""
    nodes = sorted_nodes(graph)
    node_rows = [node_attributes(graph, n) for n in nodes]
    edges = list(sorted_edges(graph))
    edge_rows = [edge_attributes(data) for _, _, data in edges]
    node_types, edge_types = key_types(node_rows), key_types(edge_rows)
    node_ids = {key: f"n_{key}" for key in node_types}
    edge_ids = {key: f"e_{key}" for key in edge_types}
    write = out.write
    write(
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
        b'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        b'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
        b'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n'
    )
    for kind, types, ids in (("node", node_types, node_ids), ("edge", edge_types, edge_ids)):
        for key, t in types.items():
            write(
                f'  <key id="{xml_text(ids[key], True)}" for="{kind}" attr.name="{xml_text(key, True)}" '
                f'attr.type="{t}"/>\n'.encode()
            )
    direction = "directed" if graph.is_directed() else "undirected"
    write(f'  <graph id="{xml_text(name, True)}" edgedefault="{direction}">\n'.encode())
    for node, row in zip(nodes, node_rows, strict=True):
        parts = [f'    <node id="{xml_text(str(node), True)}">']
        for key, value in row.items():
            text = xml_text(format_value(value, node_types[key]))
            parts.append(f'<data key="{xml_text(node_ids[key], True)}">{text}</data>')
        parts.append("</node>\n")
        write("".join(parts).encode())
    for (u, v, _), row in zip(edges, edge_rows, strict=True):
        parts = [f'    <edge source="{xml_text(str(u), True)}" target="{xml_text(str(v), True)}">']
        for key in sorted(row):
            text = xml_text(format_value(row[key], edge_types[key]))
            parts.append(f'<data key="{xml_text(edge_ids[key], True)}">{text}</data>')
        parts.append("</edge>\n")
        write("".join(parts).encode())
    write(b"  </graph>\n</graphml>\n")


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write the view of ``options`` (default: coauthors) to ``target`` atomically."""
    from kg.files import write_atomically

    options = options or ExportOptions()
    graph = source.view(options.view, options.layout)
    return write_atomically(target, lambda f: serialize(graph, f, options.view))
