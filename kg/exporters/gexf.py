"""GEXF 1.3: a view (``--view``) for Gephi, with colours, sizes, positions and years for the timeline.

Each node carries its ``label``, its colour (``viz:color`` from the view's
``#rrggbb`` ``color``), ``viz:size`` and ``viz:position`` (``x``, ``y``), and
the years of its papers as an interval (``start`` = ``year_min``, ``end`` =
``year_max``, ``timeformat="integer"``), so Gephi's timeline filters the
network by year.  The other scalar attributes (type, papers, community,
years) are declared typed node attributes; edges carry ``weight``.  Text is
escaped as in GraphML, and nodes and edges are sorted.

>>> rgb("#ff8000"), rgb("orange")
((255, 128, 0), None)
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from kg.exporters.built import BuiltGraph, ExportOptions
from kg.exporters.graphml import (
    edge_attributes,
    format_value,
    key_types,
    node_attributes,
    sorted_edges,
    sorted_nodes,
    xml_text,
)

if TYPE_CHECKING:
    import networkx as nx


NAME = "gexf"
SUFFIX = ".gexf"
VIEW = True
"""It writes a networkx view (``--view``), not the RDF graph."""

VISUAL = frozenset({"label", "name", "color", "size", "x", "y"})
"""Node attributes written as GEXF's own label and ``viz:`` elements, not as data attributes."""

GEXF_TYPES = {"int": "integer", "double": "double", "boolean": "boolean", "string": "string"}
_HEX = re.compile(r"#?([0-9a-fA-F]{6})")


def rgb(color: object) -> tuple[int, int, int] | None:
    """The red, green and blue of a ``#rrggbb`` colour; None for anything else."""
    if not isinstance(color, str):
        return None
    m = _HEX.fullmatch(color.strip())
    if not m:
        return None
    h = m.group(1)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _year(value: Any) -> int | None:
    """A known year (the views write 0 for an unknown one)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def serialize(graph: nx.Graph, out: BinaryIO, name: str = "view") -> None:
    """Write ``graph`` to ``out`` as GEXF 1.3."""
    nodes = sorted_nodes(graph)
    rows = [node_attributes(graph, n) for n in nodes]
    data_rows = [{k: v for k, v in row.items() if k not in VISUAL} for row in rows]
    edges = list(sorted_edges(graph))
    edge_rows = [edge_attributes(data) for _, _, data in edges]
    node_types = key_types(data_rows)
    edge_types = {k: t for k, t in key_types(edge_rows).items() if k != "weight"}
    node_ids = {key: str(i) for i, key in enumerate(node_types)}
    edge_ids = {key: str(i) for i, key in enumerate(edge_types)}
    dynamic = any(_year(g.get("year_min")) is not None or _year(g.get("year_max")) is not None for g in rows)
    write = out.write
    write(
        b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" '
        b'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
        b'xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">\n'
        b"  <meta>\n    <creator>kg</creator>\n"
    )
    write(
        f"    <description>{xml_text(name)} view of a kg knowledge graph</description>\n  </meta>\n".encode()
    )
    edge_kind = "directed" if graph.is_directed() else "undirected"
    time = (
        ' mode="dynamic" timeformat="integer" timerepresentation="interval"' if dynamic else ' mode="static"'
    )
    write(f'  <graph defaultedgetype="{edge_kind}"{time}>\n'.encode())
    for cls, types, ids in (("node", node_types, node_ids), ("edge", edge_types, edge_ids)):
        if not types:
            continue
        write(f'    <attributes class="{cls}" mode="static">\n'.encode())
        for key, t in types.items():
            write(
                f'      <attribute id="{ids[key]}" title="{xml_text(key, True)}" type="{GEXF_TYPES[t]}"/>\n'.encode()
            )
        write(b"    </attributes>\n")
    write(b"    <nodes>\n")
    for node, row, data in zip(nodes, rows, data_rows, strict=True):
        head = f'      <node id="{xml_text(str(node), True)}" label="{xml_text(str(row["label"]), True)}"'
        first, last = _year(row.get("year_min")), _year(row.get("year_max"))
        if dynamic and (first is not None or last is not None):
            head += (
                f' start="{first if first is not None else last}" end="{last if last is not None else first}"'
            )
        parts = [head, ">\n"]
        if data:
            parts.append("        <attvalues>")
            for key, value in data.items():
                text = xml_text(format_value(value, node_types[key]), True)
                parts.append(f'<attvalue for="{node_ids[key]}" value="{text}"/>')
            parts.append("</attvalues>\n")
        color = rgb(row.get("color"))
        if color is not None:
            parts.append(f'        <viz:color r="{color[0]}" g="{color[1]}" b="{color[2]}"/>\n')
        size = _number(row.get("size"))
        if size is not None:
            parts.append(f'        <viz:size value="{size!r}"/>\n')
        x, y = _number(row.get("x")), _number(row.get("y"))
        if x is not None and y is not None:
            parts.append(f'        <viz:position x="{x!r}" y="{y!r}" z="0.0"/>\n')
        parts.append("      </node>\n")
        write("".join(parts).encode())
    write(b"    </nodes>\n    <edges>\n")
    for i, ((u, v, _), row) in enumerate(zip(edges, edge_rows, strict=True)):
        weight = float(row["weight"])
        head = (
            f'      <edge id="{i}" source="{xml_text(str(u), True)}" target="{xml_text(str(v), True)}" '
            f'weight="{weight!r}"'
        )
        extra = {k: v for k, v in row.items() if k != "weight"}
        if not extra:
            write(f"{head}/>\n".encode())
            continue
        values = "".join(
            f'<attvalue for="{edge_ids[k]}" value="{xml_text(format_value(val, edge_types[k]), True)}"/>'
            for k, val in sorted(extra.items())
        )
        write(f"{head}><attvalues>{values}</attvalues></edge>\n".encode())
    write(b"    </edges>\n  </graph>\n</gexf>\n")


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write the view of ``options`` (default: coauthors) to ``target`` atomically."""
    from kg.files import write_atomically

    options = options or ExportOptions()
    graph = source.view(options.view, options.layout)
    return write_atomically(target, lambda f: serialize(graph, f, options.view))
