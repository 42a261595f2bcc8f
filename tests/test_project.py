"""Views (kg/project.py): computed from RDF, weighted as documented, deterministic, GraphML-safe."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

import networkx as nx
import pyoxigraph as ox
import pytest

from kg import drawing, project
from kg.errors import KgError
from kg.pipeline import Build
from kg.vocab import ARXIV_BASE, DATA_BASE, DCTERMS, FABIO, FOAF, METHOD_BASE, RDF, SCHEMA, SKOS, XSD


@dataclass(frozen=True)
class P:
    """A hand-made paper: key, title, year, author names, subject codes, method slugs, repository."""

    key: str
    title: str = ""
    year: int = 0
    authors: Sequence[str] = ()
    subjects: Sequence[str] = ()
    methods: Sequence[str] = ()
    repo: str = ""
    identifiers: Sequence[str] = field(default_factory=tuple)


def person_iri(name: str) -> str:
    return f"{DATA_BASE}person/{quote(name.lower().replace(' ', '_'), safe='')}"


def paper_iri(key: str) -> str:
    return f"{DATA_BASE}paper/{key}"


def small_store(papers: Sequence[P]) -> ox.Store:
    """A store holding just these papers, stated with the vocabulary the assembler uses."""
    store = ox.Store()
    quads: list[ox.Quad] = []

    def add(s: ox.NamedNode, p: ox.NamedNode, o: ox.NamedNode | ox.Literal) -> None:
        quads.append(ox.Quad(s, p, o, ox.DefaultGraph()))

    for paper in papers:
        node = ox.NamedNode(paper_iri(paper.key))
        add(node, RDF.type, SCHEMA.ScholarlyArticle)
        if paper.title:
            add(node, DCTERMS.title, ox.Literal(paper.title))
        if paper.year:
            add(node, FABIO.hasPublicationYear, ox.Literal(str(paper.year), datatype=XSD.gYear))
        for identifier in paper.identifiers:
            add(node, DCTERMS.identifier, ox.Literal(identifier))
        for name in paper.authors:
            person = ox.NamedNode(person_iri(name))
            add(node, DCTERMS.creator, person)
            add(person, RDF.type, FOAF.Person)
            add(person, FOAF.name, ox.Literal(name))
        for code in paper.subjects:
            concept = ox.NamedNode(ARXIV_BASE + code)
            add(node, DCTERMS.subject, concept)
            add(concept, SKOS.notation, ox.Literal(code))
            add(concept, SKOS.prefLabel, ox.Literal(f"Subject {code}", language="en"))
        for slug in paper.methods:
            concept = ox.NamedNode(METHOD_BASE + slug)
            add(node, SCHEMA.mentions, concept)
            add(concept, SKOS.prefLabel, ox.Literal(slug.upper(), language="en"))
        if paper.repo:
            repo = ox.NamedNode(paper.repo)
            add(node, SCHEMA.codeRepository, repo)
            add(repo, SCHEMA.name, ox.Literal(paper.repo.removeprefix("https://github.com/")))
    store.bulk_extend(quads)
    return store


TEAM = [
    P("p1", "One", 2020, ["Ann", "Bob", "Cy"], ["cs.LG"], ["adam", "dropout"]),
    P("p2", "Two", 2022, ["Ann", "Bob"], ["cs.LG", "stat.ML"], ["adam"]),
    P("p3", "Three", 0, ["Ann", "Bob", "Cy", "Dee"], ["cs.CV"], []),
    P("p4", "Solo", 2019, ["Eve"], [], ["dropout"], repo="https://github.com/eve/solo"),
]


def weights(graph: nx.Graph) -> dict[tuple[str, str], float]:
    """Edge weights keyed by sorted pairs of labels."""
    label = graph.nodes
    out: dict[tuple[str, str], float] = {}
    for u, v, w in graph.edges(data="weight"):
        a, b = sorted((label[u]["label"], label[v]["label"]))
        out[a, b] = w
    return out


def test_full_counting_counts_joint_papers() -> None:
    g = project.coauthors(small_store(TEAM))
    assert weights(g) == {
        ("Ann", "Bob"): 3.0,
        ("Ann", "Cy"): 2.0,
        ("Bob", "Cy"): 2.0,
        ("Ann", "Dee"): 1.0,
        ("Bob", "Dee"): 1.0,
        ("Cy", "Dee"): 1.0,
    }
    assert g.nodes[person_iri("Ann")]["papers"] == 3
    assert g.nodes[person_iri("Eve")]["papers"] == 1  # a lone author is a node without links


def test_fractional_counting_gives_each_paper_one_over_n_minus_one() -> None:
    g = project.coauthors(small_store(TEAM), counting="fractional")
    # p1 has 3 authors: 1/2 per pair; p2 has 2: 1 per pair; p3 has 4: 1/3 per pair
    got = weights(g)
    assert got[("Ann", "Bob")] == pytest.approx(1 / 2 + 1 + 1 / 3)
    assert got[("Ann", "Cy")] == pytest.approx(1 / 2 + 1 / 3)
    assert got[("Cy", "Dee")] == pytest.approx(1 / 3)
    # every author's links from one paper sum to 1
    only_p3 = project.coauthors(small_store([TEAM[2]]), counting="fractional")
    for node in only_p3:
        assert only_p3.degree(node, weight="weight") == pytest.approx(1.0)


def test_author_cap_leaves_big_papers_out_of_the_edges_but_not_the_counts() -> None:
    g = project.coauthors(small_store(TEAM), max_authors=3)
    got = weights(g)
    assert got[("Ann", "Bob")] == 2.0  # p3 (4 authors) no longer counts
    assert ("Ann", "Dee") not in got and ("Cy", "Dee") not in got
    assert g.nodes[person_iri("Ann")]["papers"] == 3
    assert g.nodes[person_iri("Dee")]["papers"] == 1
    assert g.graph["papers_over_max_authors"] == 1


def test_min_papers_leaves_out_occasional_authors() -> None:
    g = project.coauthors(small_store(TEAM), min_papers=2)
    assert sorted(g.nodes[n]["label"] for n in g) == ["Ann", "Bob", "Cy"]
    assert weights(g)[("Ann", "Bob")] == 3.0


def test_unknown_counting_is_refused() -> None:
    with pytest.raises(KgError, match="choose from: full, fractional"):
        project.coauthors(small_store(TEAM), counting="half")  # type: ignore[arg-type]


def test_year_range_and_zero_when_unknown() -> None:
    g = project.coauthors(small_store(TEAM))
    ann, dee = g.nodes[person_iri("Ann")], g.nodes[person_iri("Dee")]
    assert (ann["year_min"], ann["year_max"]) == (2020, 2022)
    assert (dee["year_min"], dee["year_max"]) == (0, 0)  # p3 has no year


def test_topics_link_methods_and_subjects_by_co_occurrence() -> None:
    g = project.topics(small_store(TEAM))
    types = {g.nodes[n]["label"]: g.nodes[n]["type"] for n in g}
    assert types == {
        "ADAM": "method",
        "DROPOUT": "method",
        "Subject cs.LG (cs.LG)": "subject",
        "Subject stat.ML (stat.ML)": "subject",
        "Subject cs.CV (cs.CV)": "subject",
    }
    got = weights(g)
    assert got[("ADAM", "Subject cs.LG (cs.LG)")] == 2.0
    assert got[("ADAM", "DROPOUT")] == 1.0
    assert g.nodes[METHOD_BASE + "dropout"]["papers"] == 2
    assert g.nodes[METHOD_BASE + "dropout"]["year_min"] == 2019


def test_topics_min_occurrences() -> None:
    g = project.topics(small_store(TEAM), min_occurrences=2)
    assert sorted(g.nodes[n]["label"] for n in g) == ["ADAM", "DROPOUT", "Subject cs.LG (cs.LG)"]


def test_papers_view_is_typed_and_links_out() -> None:
    store = small_store(
        [*TEAM, P("arxiv-2401.00001", "On arXiv", 2024, ["Ann"], identifiers=["arxiv:2401.00001"])]
    )
    g = project.papers(store)
    kinds = {d["type"] for _, d in g.nodes(data=True)}
    assert kinds == {"paper", "person", "subject", "method", "repository"}
    assert g.nodes["https://github.com/eve/solo"]["url"] == "https://github.com/eve/solo"
    assert g.nodes[paper_iri("arxiv-2401.00001")]["url"] == "https://arxiv.org/abs/2401.00001"
    assert g.nodes[paper_iri("p1")]["url"] == ""
    relations = {r for _, _, r in g.edges(data="relation")}
    assert relations == {"creator", "subject", "mentions", "codeRepository"}


def test_ego_by_label_and_depth() -> None:
    store = small_store(TEAM)
    one = project.ego(store, "eve", depth=1)
    assert sorted(one.nodes[n]["label"] for n in one) == ["Eve", "Solo"]
    two = project.ego(store, "Eve", depth=2)
    assert {two.nodes[n]["label"] for n in two} == {"Eve", "Solo", "DROPOUT", "eve/solo"}
    assert [n for n in two if two.nodes[n]["focus"]] == [person_iri("Eve")]
    with pytest.raises(KgError, match="no node called"):
        project.ego(store, "nobody", depth=1)


def test_same_seed_same_communities_and_positions() -> None:
    graph = nx.relabel_nodes(nx.les_miserables_graph(), str)
    a = drawing.decorate(graph.copy(), seed=7)
    b = drawing.decorate(graph.copy(), seed=7)
    assert dict(a.nodes(data=True)) == dict(b.nodes(data=True))
    c = drawing.decorate(graph.copy(), seed=8)
    assert [c.nodes[n]["x"] for n in c] != [a.nodes[n]["x"] for n in a]
    # communities are numbered by size: community 0 is the largest
    sizes = nx.utils.groups(nx.get_node_attributes(a, "community"))
    assert [len(sizes[i]) for i in sorted(sizes)] == sorted((len(s) for s in sizes.values()), reverse=True)


def test_every_node_and_edge_has_the_documented_scalar_attributes(seed_build: Build) -> None:
    wanted = {
        "label": str,
        "type": str,
        "iri": str,
        "url": str,
        "papers": int,
        "year_min": int,
        "year_max": int,
        "community": int,
        "x": float,
        "y": float,
        "size": float,
        "color": str,
    }
    for name in ("coauthors", "topics", "papers"):
        g = project.view(seed_build.store, name)
        assert g.number_of_nodes() > 0, name
        for _, data in g.nodes(data=True):
            for key, kind in wanted.items():
                assert isinstance(data[key], kind), (name, key, data)
            assert data["type"] in project.NODE_TYPES
            assert data["color"].startswith("#")
        for _, _, data in g.edges(data=True):
            assert isinstance(data["weight"], float)
        nx.write_graphml(g, io.BytesIO())  # GraphML takes scalars only


def test_seed_coauthor_view_matches_the_graph(seed_build: Build) -> None:
    g = project.view(seed_build.store, "coauthors")
    summary = seed_build.summary()
    assert g.number_of_nodes() == summary["persons"]
    assert g.number_of_edges() == summary["coauthor_pairs"]


def test_limit_keeps_the_strongest_nodes_and_says_what_it_left_out() -> None:
    g = project.coauthors(small_store(TEAM))
    cut = drawing.limit(g, 2)
    assert sorted(cut.nodes[n]["label"] for n in cut) == ["Ann", "Bob"]
    assert cut.graph["omitted_nodes"] == 3
    assert cut.graph["omitted_edges"] == 5
    assert cut.graph["nodes_total"] == 5


def _strongest_link(g: nx.Graph, n: object) -> float:
    return max((w for _, _, w in g.edges(n, data="weight")), default=0.0)


@pytest.mark.parametrize("max_edges", [0, 1, 30, 60, 118, 119, 10_000])
def test_max_edges_keeps_every_nodes_strongest_link_then_the_heaviest(
    seed_build: Build, max_edges: int
) -> None:
    """A drawn view keeps at most ``max_edges`` links (never fewer than one per linked node): each
    node's strongest link, then the heaviest of the rest; every node stays, and the cut is counted."""
    whole = project.coauthors(seed_build.store)
    total = whole.number_of_edges()
    cut = drawing.limit(project.coauthors(seed_build.store), 10_000, max_edges)
    assert list(cut.nodes) == list(whole.nodes)
    assert set(map(frozenset, cut.edges)) <= set(map(frozenset, whole.edges))
    linked = [n for n in whole if whole.degree(n)]
    assert cut.number_of_edges() <= max(max_edges, len(linked))
    if max_edges >= total:
        assert cut.number_of_edges() == total and cut.graph["edges_cut"] == 0
    else:
        assert cut.number_of_edges() >= max_edges and cut.graph["edges_cut"] > 0
    for n in linked:  # no node that had a link is left alone, and it keeps its strongest
        assert _strongest_link(cut, n) == _strongest_link(whole, n)
    kept = {frozenset(e) for e in cut.edges}
    backbone = {e for e in kept if any(cut.edges[tuple(e)]["weight"] == _strongest_link(whole, n) for n in e)}
    rest = [whole.edges[e]["weight"] for e in map(tuple, kept - backbone)]
    left = [w for a, b, w in whole.edges(data="weight") if frozenset((a, b)) not in kept]
    if rest and left:  # beyond the backbone, nothing left out is heavier than what was kept
        assert min(rest) >= max(left)
    assert cut.graph["edges_total"] == total
    assert cut.graph["omitted_edges"] == cut.graph["edges_cut"] == total - cut.number_of_edges()
    again = drawing.limit(project.coauthors(seed_build.store), 10_000, max_edges)
    assert list(again.edges(data=True)) == list(cut.edges(data=True))


def test_views_are_cut_to_the_default_links_for_drawing_and_not_for_export(seed_build: Build) -> None:
    big = nx.complete_graph(250)  # 31,125 links between 250 nodes
    nx.set_edge_attributes(big, 1.0, "weight")
    cut = drawing.limit(big.copy(), 10_000, project.ViewOptions().max_edges)
    assert cut.number_of_edges() == drawing.DEFAULT_MAX_EDGES == 20_000
    assert cut.graph["edges_cut"] == 11_125 and big.number_of_edges() == 31_125  # the input is untouched
    from kg.exporters.built import _project

    whole = _project(seed_build.store, "coauthors", False)
    assert whole.graph["edges_cut"] == 0


@pytest.mark.parametrize("max_nodes", [0, 1, 10, 25, 10_000])
def test_a_coauthor_view_cut_while_built_equals_the_whole_network_cut(
    seed_build: Build, max_nodes: int
) -> None:
    """coauthors(max_nodes=N) makes only the nodes limit() keeps: the same nodes, attributes, edges
    and totals as building the whole network and cutting it."""
    whole = drawing.limit(project.coauthors(seed_build.store), max_nodes)
    cut = drawing.limit(project.coauthors(seed_build.store, max_nodes=max_nodes), max_nodes)
    assert list(cut.nodes(data=True)) == list(whole.nodes(data=True))
    assert sorted(
        (*sorted((a, b)), d["weight"], d["joint_papers"]) for a, b, d in cut.edges(data=True)
    ) == sorted((*sorted((a, b)), d["weight"], d["joint_papers"]) for a, b, d in whole.edges(data=True))
    for key in ("nodes_total", "edges_total", "omitted_nodes", "omitted_edges"):
        assert cut.graph[key] == whole.graph[key]
    if max_nodes < seed_build.summary()["persons"]:
        assert cut.graph["omitted_nodes"] > 0


def test_size_by_degree() -> None:
    g = drawing.decorate(nx.star_graph(4), size_by="degree")
    assert g.nodes[0]["size"] == drawing.SIZE_MAX
    assert g.nodes[1]["size"] < drawing.SIZE_MAX


def test_view_table_and_ego_needs_a_focus() -> None:
    assert list(project.VIEWS) == ["coauthors", "topics", "papers", "ego"]
    with pytest.raises(KgError, match="--focus"):
        project.view(small_store(TEAM), "ego")
    g = project.view(small_store(TEAM), "ego", project.ViewOptions(focus="Ann", depth=1))
    assert g.graph["view"] == "ego"


def test_the_layout_keeps_communities_apart_at_2000_nodes() -> None:
    import numpy as np

    # 40 groups of 50, dense inside and linked to other groups now and then: a planted partition
    graph = nx.planted_partition_graph(40, 50, 0.2, 0.002, seed=3)
    groups = drawing.communities(graph, seed=0)
    pos = drawing.layout(graph, seed=0, groups=groups)
    nodes = list(graph)
    at = np.array([pos[n] for n in nodes])
    mine = np.array([groups[n] for n in nodes])
    d = ((at[:, None, :] - at[None, :, :]) ** 2).sum(axis=2)
    np.fill_diagonal(d, np.inf)
    nearest = np.argsort(d, axis=1)[:, :5]
    same = (mine[nearest] == mine[:, None]).mean()
    assert same > 0.97  # a node's five nearest nodes on the map are of its own community
    # each community is one region: no node sits nearer another community's centre than its own
    centres = {c: at[mine == c].mean(axis=0) for c in set(groups.values())}
    closer = sum(
        1
        for i, c in enumerate(mine)
        if min(centres, key=lambda k: float(((at[i] - centres[k]) ** 2).sum())) != c
    )
    assert closer == 0
