"""Interactive HTML pages of views: one self-contained file, offline, deterministic.

The page inlines vis-network (shipped inside the pyvis package) and our own
script and style from ``kg/templates/``; nothing is loaded from the network (a
Content-Security-Policy forbids it), no ``lib/`` folder is written and no
browser is opened.  Node data goes into the page as JSON inside a
``<script type="application/json">`` element with ``<``, ``>`` and ``&``
escaped, and the page's script puts text into the DOM with ``textContent``
only, so a title such as ``<script>alert(1)</script>`` shows as text.

The same graph (and seed) gives a byte-identical page.

>>> import networkx as nx
>>> from kg.project import decorate
>>> g = decorate(nx.Graph([("a", "b")]))
>>> page = render(g, title="<b>two</b>")
>>> "&lt;b&gt;two&lt;/b&gt;" in page and "<b>two" not in page
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Mapping
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO
from urllib.parse import quote

import networkx as nx

from kg import __version__
from kg.errors import KgError
from kg.html import inline_script, json_for_html

if TYPE_CHECKING:
    from kg.node_papers import NodePapers

PHYSICS_LIMIT = 300
"""Above this many nodes the page starts with physics off (positions come from Python)."""

LABEL_LIMIT = 40
"""Labels drawn on the canvas are cut to this many characters (details and search use the whole label)."""

LEGEND_COMMUNITIES = 12

_TEMPLATES = "templates"


@lru_cache(maxsize=1)
def _vis_js() -> str:
    """vis-network's script as pyvis ships it (the newest ``vis-*`` folder of pyvis's templates)."""
    lib = resources.files("pyvis") / "templates" / "lib"
    versions = sorted(
        (entry for entry in lib.iterdir() if entry.name.startswith("vis-")),
        key=lambda e: tuple(int(p) for p in e.name[4:].split(".") if p.isdigit()),
    )
    if not versions:
        raise KgError("pyvis ships no vis-network script; reinstall pyvis", code="missing-asset")
    script = (versions[-1] / "vis-network.min.js").read_text(encoding="utf-8")
    return inline_script(script)


def _asset(name: str) -> str:
    return (resources.files("kg") / _TEMPLATES / name).read_text(encoding="utf-8")


def _short(label: str) -> str:
    return label if len(label) <= LABEL_LIMIT else label[: LABEL_LIMIT - 1].rstrip() + "…"


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(float(value), 4)


def site_pages(graph: nx.Graph, site: Path) -> dict[Hashable, str]:
    """The pages ``kg site`` wrote in the folder ``site`` for nodes of ``graph``: node -> the page's
    path in that folder (percent-encoded), for the nodes that have one.

    >>> import tempfile
    >>> g = nx.Graph(); g.add_node("p", iri="https://w3id.org/kg/id/person/ann", type="person")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     (Path(d) / "person").mkdir(); _ = (Path(d) / "person" / "ann.html").write_text("")
    ...     site_pages(g, Path(d))
    {'p': 'person/ann.html'}
    """
    pages: dict[Hashable, str] = {}
    for node, data in graph.nodes(data=True):
        found = site_page(str(data.get("iri") or ""), str(data.get("type", "")), site)
        if found:
            pages[node] = found
    return pages


def site_page(iri: str, kind: str, site: Path) -> str:
    """The page ``kg site`` wrote in ``site`` for the entity ``iri`` of ``kind`` (its path in that folder,
    percent-encoded), or ``""`` when it wrote none."""
    from kg.site.entities import kinds, slug

    if not iri or kind not in kinds():
        return ""
    name = slug(iri, kind)
    return f"{kind}/{quote(name)}.html" if (site / kind / f"{name}.html").is_file() else ""


def link_views(site: Path) -> int:
    """Link the nodes of the view pages beside a site written to a folder ``site/`` (where a view page
    looks for it) to their site pages: the views ``kg build`` wrote before the site was there; returns
    the pages linked."""
    from kg.site import SITE_DIR

    if site.name != SITE_DIR:
        return 0
    return sum(1 for page in sorted(site.parent.glob("*.html")) if link_to_site(page, site))


_DATA = re.compile(r'(<script type="application/json" id="kg-data">)(.*?)(</script>)', re.DOTALL)


def link_to_site(page: Path, site: Path) -> int:
    """Give the nodes of a view page drawn before the site was written (the pages ``kg build`` writes
    beside its graph) a link to their page in ``site``, in place; returns the nodes linked (0 for a
    file that is no view page)."""
    import json

    from kg.files import write_atomically

    try:
        text = page.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return 0
    found = _DATA.search(text)
    if found is None:
        return 0
    try:
        data = json.loads(found.group(2))
    except ValueError:
        return 0
    linked = 0
    for node in data.get("nodes", []):
        node["site"] = site_page(str(node.get("iri", "")), str(node.get("type", "")), site)
        linked += bool(node["site"])
    updated = text[: found.start(2)] + json_for_html(data) + text[found.end(2) :]
    if updated != text:
        encoded = updated.encode("utf-8")

        def put(f: BinaryIO) -> None:
            f.write(encoded)

        write_atomically(page, put)
    return linked


def page_data(
    graph: nx.Graph, papers: NodePapers | None = None, pages: Mapping[Hashable, str] | None = None
) -> dict[str, Any]:
    """What the page's script reads: nodes, edges, legend, and (when given) each node's papers
    (:func:`kg.node_papers.node_papers`) and site page (:func:`site_pages`).

    Built with pyvis's ``Network`` lists."""
    from pyvis.network import Network

    # in_line: pyvis's "local" default would write a lib/ folder; the lists are filled directly
    # because add_node checks for duplicates in quadratic time
    net = Network(cdn_resources="in_line")
    index = {n: i for i, n in enumerate(graph)}
    net.nodes = [
        {
            "id": index[n],
            "label": str(d.get("label", n)),
            "short": _short(str(d.get("label", n))),
            "type": str(d.get("type", "person")),
            "iri": str(d.get("iri", "")),
            "url": str(d.get("url", "")),
            "papers": int(d.get("papers", 0)),
            "year_min": int(d.get("year_min", 0)),
            "year_max": int(d.get("year_max", 0)),
            "community": int(d.get("community", 0)),
            "color": str(d.get("color", "#4e79a7")),
            "size": float(d.get("size", 10.0)),
            "x": float(d.get("x", 0.0)),
            "y": float(d.get("y", 0.0)),
            "focus": bool(d.get("focus", False)),
            "year_mean": float(papers.mean_year.get(n, 0.0)) if papers else 0.0,
            "listed": list(papers.listed.get(n, ())) if papers else [],
            "site": (pages or {}).get(n, ""),
        }
        for n, d in graph.nodes(data=True)
    ]
    weights = [float(w) for _, _, w in graph.edges(data="weight", default=1.0)]
    top = max(weights, default=1.0) or 1.0
    low = min(weights, default=1.0)
    span = top - low
    net.edges = [
        {
            "from": index[u],
            "to": index[v],
            "weight": _number(w),
            "width": round(1 + 4 * math.sqrt((float(w) - low) / span), 2) if span > 0 else 1.5,
        }
        for u, v, w in graph.edges(data="weight", default=1.0)
    ]
    members: dict[int, list[dict[str, Any]]] = {}
    for node in net.nodes:
        members.setdefault(node["community"], []).append(node)
    ranked = sorted(members.items(), key=lambda item: (-len(item[1]), item[0]))
    communities = [
        {
            "community": c,
            "color": group[0]["color"],
            "count": len(group),
            "example": _short(max(group, key=lambda n: (n["papers"], -n["id"]))["label"]),
        }
        for c, group in ranked[:LEGEND_COMMUNITIES]
    ]
    years = [y for node in net.nodes for y in (node["year_min"], node["year_max"]) if y]
    present = {node["type"] for node in net.nodes}
    order = ("person", "paper", "subject", "method", "repository", "area")
    size_by = str(graph.graph.get("size_by", "papers"))
    sizes = [node["papers"] for node in net.nodes] if size_by == "papers" else [d for _, d in graph.degree()]
    counting = graph.graph.get("counting")
    means = [node["year_mean"] for node in net.nodes if node["year_mean"]]
    return {
        "papers": [[p.title, p.year, p.url] for p in papers.papers] if papers else [],
        "mean_min": min(means, default=0.0),
        "mean_max": max(means, default=0.0),
        "nodes": net.nodes,
        "edges": net.edges,
        "communities": communities,
        "communities_more": max(0, len(ranked) - LEGEND_COMMUNITIES),
        "types": [t for t in order if t in present] + sorted(present - set(order)),
        "year_min": min(years, default=0),
        "year_max": max(years, default=0),
        "size_legend": (
            f"area grows with {'papers' if size_by == 'papers' else 'links (degree)'}: "
            f"{min(sizes, default=0)} to {max(sizes, default=0)}"
        ),
        "weight_legend": (
            "thickness grows with weight"
            + (f" ({counting} counting of joint papers)" if counting else "")
            + f": up to {_number(top)}"
        ),
        "seed": int(graph.graph.get("seed", 0)),
        "physics_limit": PHYSICS_LIMIT,
    }


def notice(graph: nx.Graph) -> str:
    """What a view left out (``kg.drawing.limit``), in words; ``""`` when nothing was.

    >>> notice(nx.Graph(nodes_total=5000, omitted_nodes=3000, omitted_edges=12000))
    'This view has 5,000 nodes; showing the 2,000 with the most papers and links, leaving out 3,000 nodes and 12,000 links (raise --max-nodes to see more).'
    >>> notice(nx.Graph([(1, 2)], nodes_total=2, omitted_nodes=0, edges_total=9, omitted_edges=8, edges_cut=8))
    "This view's 2 nodes share 9 links; showing the strongest 1 (each node's strongest, then the heaviest), leaving out 8 (raise --max-edges to see more)."
    """
    omitted = int(graph.graph.get("omitted_nodes", 0))
    cut = int(graph.graph.get("edges_cut", 0))
    parts = []
    if omitted:
        total = int(graph.graph.get("nodes_total", 0))
        edges = int(graph.graph.get("omitted_edges", 0)) - cut
        parts.append(
            f"This view has {total:,} nodes; showing the {total - omitted:,} with the most papers and links, "
            f"leaving out {omitted:,} nodes and {edges:,} links (raise --max-nodes to see more)."
        )
    if cut:
        shown = graph.number_of_edges()
        nodes = graph.number_of_nodes()
        whose = f"The {nodes:,} shown" if omitted else f"This view's {nodes:,} nodes"
        parts.append(
            f"{whose} share {shown + cut:,} links; showing the strongest {shown:,} (each node's strongest, "
            f"then the heaviest), leaving out {cut:,} (raise --max-edges to see more)."
        )
    generic = int(graph.graph.get("generic_left_out", 0))
    if generic:
        parts.append(
            f"{generic:,} generic concepts (kg:generic: umbrella terms) are left out (--generic shows them)."
        )
    return " ".join(parts)


def summary(graph: nx.Graph) -> str:
    """One line about the view: its size and the options that shaped it."""
    g = graph.graph
    parts = [f"{graph.number_of_nodes():,} nodes", f"{graph.number_of_edges():,} links"]
    if "communities" in g:
        parts.append(
            f"{g['communities']} communities (Louvain, resolution {g.get('resolution')}, seed {g.get('seed')})"
        )
    if g.get("view") == "coauthors":
        parts.append(
            f"{g.get('counting')} counting, papers with more than {g.get('max_authors')} authors left out"
        )
        if g.get("within_label"):
            parts.insert(0, f"the people of the {g.get('within_papers', 0):,} papers of {g['within_label']}")
    if g.get("view") == "ego":
        parts.append(f"depth {g.get('depth')}")
    return " · ".join(parts)


def render(
    graph: nx.Graph,
    *,
    title: str | None = None,
    papers: NodePapers | None = None,
    pages: Mapping[Hashable, str] | None = None,
) -> str:
    """The whole page of a decorated view (see ``kg.drawing.decorate``) as a string; ``papers`` and
    ``pages`` as in :func:`page_data`."""
    from jinja2 import Environment, select_autoescape

    env = Environment(
        autoescape=select_autoescape(default=True, default_for_string=True), keep_trailing_newline=True
    )
    template = env.from_string(_asset("view.html"))
    view = str(graph.graph.get("view", "graph"))
    return template.render(
        title=title or f"kg · {view}",
        summary=summary(graph),
        notice=notice(graph),
        version=__version__,
        css=_asset("view.css"),
        vis_js=_vis_js(),
        page_js=inline_script(_asset("view.js")),
        data=json_for_html(page_data(graph, papers, pages)),
    )


def write(
    graph: nx.Graph, target: Path, *, title: str | None = None, papers: NodePapers | None = None
) -> Path:
    """Write the page of a decorated view to ``target`` atomically; returns ``target``.

    When ``kg site`` wrote a site beside it (``site/`` in the same folder), the details panel links
    each node that has a page there."""
    from kg.files import write_atomically
    from kg.site import SITE_DIR

    site = target.parent / SITE_DIR
    pages = site_pages(graph, site) if site.is_dir() else None
    page = render(graph, title=title, papers=papers, pages=pages).encode("utf-8")

    def put(f: BinaryIO) -> None:
        f.write(page)

    return write_atomically(target, put)
