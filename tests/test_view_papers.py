"""What makes a view page readable beyond the drawing: each node's papers and mean year, links to the
site's pages, and ``--max-nodes`` cuts that keep links (issue 23)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import networkx as nx
import pytest
from typer.testing import CliRunner

from kg import drawing, project, viz
from kg.build_folder import write_outputs
from kg.cli import app
from kg.node_papers import node_papers
from kg.pipeline import Build
from kg.site import write as write_site
from tests.test_project import TEAM, P, paper_iri, person_iri, small_store
from tests.test_viz import page_json


def test_a_person_lists_their_papers_newest_first_with_the_mean_year() -> None:
    store = small_store(TEAM)
    graph = project.coauthors(store)
    found = node_papers(store, graph)
    ann = person_iri("Ann")
    titles = [found.papers[i].title for i in found.listed[ann]]
    assert titles == ["Two", "One", "Three"]  # 2022, 2020, then the undated one
    assert [found.papers[i].year for i in found.listed[ann]] == [2022, 2020, 0]
    assert found.mean_year[ann] == 2021.0  # the dated papers only
    assert found.mean_year[person_iri("Eve")] == 2019.0
    assert person_iri("Dee") not in found.mean_year  # p3 has no year
    # each paper is listed once however many nodes list it
    assert len(found.papers) == len({p.iri for p in found.papers}) == 4


def test_methods_subjects_repositories_and_papers_list_their_papers() -> None:
    store = small_store(TEAM)
    whole = project.papers(store)
    found = node_papers(store, whole)

    def titles(node: str) -> list[str]:
        return [found.papers[i].title for i in found.listed[node]]

    method = next(n for n in whole if whole.nodes[n]["label"] == "ADAM")
    assert titles(method) == ["Two", "One"]
    subject = next(n for n in whole if whole.nodes[n]["label"].endswith("(cs.LG)"))
    assert titles(subject) == ["Two", "One"]
    assert titles("https://github.com/eve/solo") == ["Solo"]
    assert titles(paper_iri("p2")) == ["Two"]  # a paper lists itself


def test_a_node_lists_at_most_its_newest_papers() -> None:
    papers = [P(f"k{i}", f"T{i}", 2000 + i, ["Ann", "Bob"]) for i in range(7)]
    store = small_store(papers)
    found = node_papers(store, project.coauthors(store), listed=3)
    ann = person_iri("Ann")
    assert [found.papers[i].title for i in found.listed[ann]] == ["T6", "T5", "T4"]
    assert found.mean_year[ann] == 2003.0  # over all seven, not only those listed


def test_arxiv_links_come_from_identifiers() -> None:
    store = small_store([P("a", "A", 2024, ["Ann"], identifiers=["arxiv:2401.00001v2"])])
    found = node_papers(store, project.coauthors(store))
    assert found.papers[0].url == "https://arxiv.org/abs/2401.00001v2"


def test_mean_years_equal_the_plots_sparql_average(seed_build: Build) -> None:
    from kg.plots.counts import mean_years

    graph = project.view(seed_build.store, "coauthors")
    found = node_papers(seed_build.store, graph)
    expected = mean_years(seed_build.store, "coauthors")
    assert found.mean_year
    for node, mean in found.mean_year.items():
        assert mean == pytest.approx(expected[str(node)], abs=0.01)


def test_page_data_carries_papers_and_year_range() -> None:
    store = small_store(TEAM)
    graph = project.view(store, "coauthors")
    data = viz.page_data(graph, node_papers(store, graph))
    ann = next(n for n in data["nodes"] if n["label"] == "Ann")
    assert [data["papers"][i][:2] for i in ann["listed"]] == [["Two", 2022], ["One", 2020], ["Three", 0]]
    assert ann["year_mean"] == 2021.0
    assert (data["mean_min"], data["mean_max"]) == (2019.0, 2021.0)
    assert all(n["site"] == "" for n in data["nodes"])


def test_a_view_links_the_pages_of_a_site_beside_it(seed_build: Build, tmp_path: Path) -> None:
    graph = project.view(seed_build.store, "coauthors")
    write_site(seed_build.store, tmp_path / "site")
    page = viz.write(graph, tmp_path / "coauthors.html", papers=node_papers(seed_build.store, graph))
    data = page_json(page.read_text(encoding="utf-8"))
    nodes = data["nodes"]
    assert isinstance(nodes, list)
    linked = [n for n in nodes if n["site"]]
    assert len(linked) == len(nodes)  # every person of the seeds has a page at --min-papers 1
    for n in linked:
        assert n["site"].startswith("person/")
        assert (tmp_path / "site" / unquote(n["site"])).is_file()
    # without a site beside it, no link
    alone = page_json(viz.write(graph, tmp_path / "elsewhere" / "c.html").read_text(encoding="utf-8"))
    assert isinstance(alone["nodes"], list) and all(n["site"] == "" for n in alone["nodes"])


def test_max_nodes_keeps_links() -> None:
    # ten papers by ten different authors (no link), and a team of six who wrote two papers together
    lone = [P(f"s{i}", f"Solo {i}", 2020, [f"Solo author {i}"] * 1) for i in range(10)]
    team = [P(f"t{i}", f"Team {i}", 2021, ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]) for i in range(2)]
    store = small_store(lone + team)
    cut = drawing.limit(project.papers(store), max_nodes=8)
    assert cut.number_of_nodes() == 8
    assert cut.number_of_edges() >= 7  # the team's papers and authors, linked
    assert all(cut.degree(n) > 0 for n in cut)
    # with room for everything, nothing changes
    whole = project.papers(store)
    assert drawing.limit(whole, max_nodes=100).number_of_nodes() == whole.number_of_nodes()


def test_papers_view_cut_to_100_nodes_keeps_links(seed_build: Build) -> None:
    graph = project.view(seed_build.store, "papers", project.ViewOptions(max_nodes=100))
    assert graph.number_of_nodes() == 100
    linked = sum(1 for n in graph if graph.degree(n) > 0)
    assert linked == 100
    assert graph.number_of_edges() >= 99


def test_coauthors_cut_keeps_links(seed_build: Build) -> None:
    whole = project.coauthors(seed_build.store)
    cut = project.view(seed_build.store, "coauthors", project.ViewOptions(max_nodes=20))
    assert cut.number_of_nodes() == 20
    with_links_in_whole = {n for n in whole if whole.degree(n) > 0}
    assert {n for n in cut if cut.degree(n) > 0} == set(cut) & with_links_in_whole
    assert sum(1 for n in cut if cut.degree(n) == 0) == 0


def test_kg_viz_writes_papers_into_the_page(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out"
    done = runner.invoke(app, ["build", "seeds", "--out", str(out)])
    assert done.exit_code == 0, done.output
    done = runner.invoke(app, ["viz", "topics", "--out", str(out)])
    assert done.exit_code == 0, done.output
    data = page_json((out / "topics.html").read_text(encoding="utf-8"))
    papers, nodes = data["papers"], data["nodes"]
    assert isinstance(papers, list) and isinstance(nodes, list) and papers
    for n in nodes:
        assert 0 < len(n["listed"]) <= min(n["papers"], 50)


def test_the_build_pages_list_papers(seed_build: Build, tmp_path: Path) -> None:
    write_outputs(seed_build, tmp_path)
    data = page_json((tmp_path / "coauthors.html").read_text(encoding="utf-8"))
    nodes = data["nodes"]
    assert isinstance(nodes, list)
    assert all(n["listed"] for n in nodes)


def test_node_papers_of_an_empty_view() -> None:
    found = node_papers(small_store(TEAM), nx.Graph())
    assert (found.papers, found.listed) == ([], {})
