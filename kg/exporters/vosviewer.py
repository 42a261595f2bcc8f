"""VOSviewer JSON: a view (``--view``) as a map for VOSviewer and VOSviewer Online.

The file follows VOSviewer's JSON format (``network.items``, ``network.links``,
``config``, ``info``).  Items are numbered 1..n in the order of their node
ids (VOSviewer's desktop version expects numbers); each has ``label``, a
``description`` (HTML, escaped) naming its IRI, type and years, ``url`` (the
view's arXiv or GitHub page, else the node's IRI), ``cluster`` (the view's ``community`` + 1,
VOSviewer counts clusters from 1 to 1000), ``x``/``y`` when the view has a
layout, ``weights`` (``Documents``: papers, ``Links``, ``Total link
strength``) and ``scores`` (``Avg. pub. year``: the mean publication year of
its papers, read from the graph; the middle of ``year_min``..``year_max``
when the graph has no papers for it).  Links carry the edge ``weight`` as
``strength``.

>>> cluster(0), cluster(None), cluster(5000)
(1, None, 1000)
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from kg.exporters.built import BuiltGraph, ExportOptions
from kg.exporters.graphml import FORBIDDEN, edge_attributes, node_attributes, sorted_edges, sorted_nodes
from kg.vocab import DCTERMS, FABIO, KG, SCHEMA

if TYPE_CHECKING:
    import networkx as nx


NAME = "vosviewer"
SUFFIX = ".vosviewer.json"
VIEW = True
"""It writes a networkx view (``--view``), not the RDF graph."""

TERMS = {
    "coauthors": ("author", "authors", "co-authorship link", "co-authorship links", "Papers together"),
    "topics": ("topic", "topics", "co-occurrence link", "co-occurrence links", "Papers together"),
    "papers": ("node", "nodes", "link", "links", "Link strength"),
}


def cluster(community: Any) -> int | None:
    """VOSviewer's cluster number (1 to 1000) of a view's community (0, 1, ...)."""
    if not isinstance(community, int) or isinstance(community, bool):
        return None
    return min(max(community + 1, 1), 1000)


def mean_years(store: ox.Store) -> dict[str, float]:
    """The mean publication year of the papers of each thing papers point to (and of each paper)."""
    links = (DCTERMS.creator, DCTERMS.subject, KG.area, SCHEMA.mentions, KG.introduces, SCHEMA.codeRepository)
    year = FABIO.hasPublicationYear.value
    totals: dict[str, tuple[float, int]] = {}
    # one plain join per link: a UNION of them joined with the years is evaluated per paper by
    # Oxigraph (quadratic: far too slow on a big graph)
    queries = [
        "SELECT ?x (SUM(?year) AS ?sum) (COUNT(?year) AS ?n) WHERE { "
        f"?p <{link.value}> ?x . ?p <{year}> ?y . "
        "BIND(<http://www.w3.org/2001/XMLSchema#integer>(STR(?y)) AS ?year) } GROUP BY ?x"
        for link in links
    ]
    queries.append(
        "SELECT ?x (SUM(?year) AS ?sum) (COUNT(?year) AS ?n) WHERE { "
        f"?x <{year}> ?y . BIND(<http://www.w3.org/2001/XMLSchema#integer>(STR(?y)) AS ?year) }} GROUP BY ?x"
    )
    for query in queries:
        solutions = store.query(query)
        assert isinstance(solutions, ox.QuerySolutions)
        for row in solutions:
            x, total, count = row["x"], row["sum"], row["n"]
            if x is None or total is None or count is None or int(count.value) == 0:
                continue
            before = totals.get(x.value, (0.0, 0))
            totals[x.value] = (before[0] + float(total.value), before[1] + int(count.value))
    return {x: round(total / count, 2) for x, (total, count) in totals.items()}


def _year(value: Any) -> int | None:
    """A known year (the views write 0 for an unknown one)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _text(value: object) -> str:
    return FORBIDDEN.sub("", str(value))


def network(graph: nx.Graph, view: str, means: dict[str, float]) -> dict[str, Any]:
    """The VOSviewer JSON document of ``graph``."""
    nodes = sorted_nodes(graph)
    number = {node: i for i, node in enumerate(nodes, start=1)}
    links = []
    degree: dict[Any, int] = dict.fromkeys(nodes, 0)
    strength: dict[Any, float] = dict.fromkeys(nodes, 0.0)
    for u, v, data in sorted_edges(graph):
        weight = float(edge_attributes(data)["weight"])
        links.append({"source_id": number[u], "target_id": number[v], "strength": weight})
        for end in (u, v):
            degree[end] += 1
            strength[end] += weight
    items = []
    for node in nodes:
        row = node_attributes(graph, node)
        item: dict[str, Any] = {"id": number[node], "label": _text(row["label"])}
        first, last = _year(row.get("year_min")), _year(row.get("year_max"))
        parts = [f"<b>{html.escape(_text(row['label']))}</b>", html.escape(_text(node))]
        if "type" in row:
            parts.append(html.escape(_text(row["type"])))
        if first is not None and last is not None:
            parts.append(f"{first}–{last}" if first != last else str(first))
        item["description"] = "<br>".join(parts)
        page = row.get("url")  # the view's arXiv or GitHub page, else the node's IRI
        for url in (page, node):
            if isinstance(url, str) and url.startswith(("http://", "https://")):
                item["url"] = url
                break
        number_of_cluster = cluster(row.get("community"))
        if number_of_cluster is not None:
            item["cluster"] = number_of_cluster
        x, y = row.get("x"), row.get("y")
        if isinstance(x, int | float) and isinstance(y, int | float):
            item["x"], item["y"] = float(x), float(y)
        papers = row.get("papers")
        item["weights"] = {
            "Documents": papers if isinstance(papers, int) and not isinstance(papers, bool) else 0,
            "Links": degree[node],
            "Total link strength": strength[node],
        }
        mean = means.get(str(node))
        if mean is None and first is not None and last is not None:
            mean = (first + last) / 2
        if mean is not None:
            item["scores"] = {"Avg. pub. year": mean}
        items.append(item)
    one, many, link, links_word, link_strength = TERMS.get(view, TERMS["papers"])
    return {
        "network": {"items": items, "links": links},
        "config": {
            "terminology": {
                "item": one,
                "items": many,
                "link": link,
                "links": links_word,
                "link_strength": link_strength,
                "total_link_strength": f"Total {link_strength[0].lower()}{link_strength[1:]}",
            },
            "parameters": {"item_size": 1, "item_color": 1, "score_colors": "Viridis"},
        },
        "info": {"title": f"kg {view} network", "description": f"The {view} view of a kg knowledge graph."},
    }


def serialize(graph: nx.Graph, out: Any, view: str, means: dict[str, float]) -> None:
    """Write the VOSviewer JSON of ``graph`` to the binary file ``out``."""
    document = network(graph, view, means)
    out.write(json.dumps(document, ensure_ascii=False, indent=1).encode() + b"\n")


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write the view of ``options`` (default: coauthors) to ``target`` atomically."""
    from kg.files import write_atomically

    options = options or ExportOptions()
    graph = source.view(options.view, options.layout)
    means = mean_years(source.store)
    return write_atomically(target, lambda f: serialize(graph, f, options.view, means))
