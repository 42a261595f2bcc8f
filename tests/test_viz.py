"""HTML pages (kg/viz.py, kg viz): self-contained, escaped, deterministic, written atomically."""

from __future__ import annotations

import json
import re
from pathlib import Path

import networkx as nx
import pytest
from typer.testing import CliRunner

from kg import drawing, project, viz
from kg.build_folder import write_outputs
from kg.cli import app
from kg.pipeline import Build
from tests.test_project import TEAM, P, small_store

runner = CliRunner()

HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2"> & </SCRIPT><!--'


def page_json(page: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', page, re.S)
    assert match is not None
    loaded: dict[str, object] = json.loads(match.group(1))
    return loaded


def test_page_is_self_contained() -> None:
    page = viz.render(project.view(small_store(TEAM), "coauthors"))
    assert "<script src" not in page and "<link" not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "default-src 'none'" in page
    assert "vis-network" in page  # the library is inlined
    assert "var network, nodes, edges;" in page  # pyvis's globals


def test_hostile_text_is_escaped() -> None:
    store = small_store([P("x", HOSTILE, 2024, [HOSTILE, "Bob"])])
    page = viz.render(project.view(store, "papers"), title=HOSTILE)
    assert "<script>window.pwned" not in page
    assert "<img src=x" not in page
    assert page.count("</script>") == 3  # our three script elements, none closed early
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in page  # the title, escaped by the template
    labels = {n["label"] for n in page_json(page)["nodes"]}  # type: ignore[attr-defined]
    assert HOSTILE in labels  # the data survives the escaping intact
    assert "innerHTML" not in viz._asset("view.js")


def test_same_graph_same_bytes() -> None:
    def page() -> str:
        return viz.render(project.view(small_store(TEAM), "coauthors", project.ViewOptions(seed=3)))

    assert page() == page()
    other = viz.render(project.view(small_store(TEAM), "coauthors", project.ViewOptions(seed=4)))
    assert other != page()


def test_page_data_matches_the_view() -> None:
    g = project.view(small_store(TEAM), "coauthors", project.ViewOptions(counting="fractional"))
    data = viz.page_data(g)
    assert len(data["nodes"]) == g.number_of_nodes()
    assert len(data["edges"]) == g.number_of_edges()
    assert data["types"] == ["person"]
    ann = next(n for n in data["nodes"] if n["label"] == "Ann")
    assert (ann["papers"], ann["year_min"], ann["year_max"]) == (3, 2020, 2022)
    assert "fractional counting" in data["weight_legend"]


def test_truncated_view_says_so_on_the_page() -> None:
    g = project.view(small_store(TEAM), "coauthors", project.ViewOptions(max_nodes=2))
    page = viz.render(g)
    assert g.number_of_nodes() == 2
    assert 'id="notice"' in page
    assert "This view has 5 nodes; showing the 2 with the most papers and links, leaving out 3 nodes" in page


def test_build_writes_coauthors_and_topics_pages(seed_build: Build, tmp_path: Path) -> None:
    written = write_outputs(seed_build, tmp_path)
    assert tmp_path / "coauthors.html" in written and tmp_path / "topics.html" in written
    data = page_json((tmp_path / "coauthors.html").read_text(encoding="utf-8"))
    assert len(data["nodes"]) == seed_build.summary()["persons"]  # type: ignore[arg-type]
    assert not (tmp_path / "lib").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp files left


def test_cli_viz_writes_one_file_and_nothing_else(
    seed_build: Build, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    write_outputs(seed_build, out)
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *a, **k: opened.append(url))
    result = runner.invoke(app, ["viz", "topics", "--out", str(out), "--min-occurrences", "2"])
    assert result.exit_code == 0, result.output
    assert "kg viz: wrote" in result.output
    assert (out / "topics.html").stat().st_size > 100_000
    assert list(work.iterdir()) == []  # no lib/ folder, no stray files
    assert opened == []
    target = tmp_path / "me.html"
    result = runner.invoke(
        app, ["viz", "ego", "--out", str(out), "--focus", "Thomas Hofmann", "--output", str(target), "--open"]
    )
    assert result.exit_code == 0, result.output
    assert opened == [target.resolve().as_uri()]


def test_cli_viz_reports_what_it_left_out(seed_build: Build, tmp_path: Path) -> None:
    write_outputs(seed_build, tmp_path)
    result = runner.invoke(
        app, ["viz", "--out", str(tmp_path), "--max-nodes", "10", "--counting", "fractional"]
    )
    assert result.exit_code == 0, result.output
    assert "This view has 70 nodes; showing the 10" in result.output
    assert "leaving out 60 nodes" in (tmp_path / "coauthors.html").read_text(encoding="utf-8")


def test_cli_viz_max_edges(seed_build: Build, tmp_path: Path) -> None:
    write_outputs(seed_build, tmp_path)
    pairs = seed_build.summary()["coauthor_pairs"]
    result = runner.invoke(app, ["viz", "--out", str(tmp_path), "--max-edges", "20"])
    assert result.exit_code == 0, result.output
    shown = viz.page_data(project.view(seed_build.store, "coauthors", project.ViewOptions(max_edges=20)))
    kept = len(shown["edges"])
    assert 20 <= kept < pairs
    assert f"This view's 70 nodes share {pairs:,} links; showing the strongest {kept:,}" in result.output
    assert f"leaving out {pairs - kept:,} (raise --max-edges" in (tmp_path / "coauthors.html").read_text(
        encoding="utf-8"
    )
    everything = runner.invoke(app, ["viz", "--out", str(tmp_path), "--max-edges", "0"])
    assert everything.exit_code == 0 and "max-edges" not in everything.output


def test_cli_viz_usage_errors(tmp_path: Path, seed_build: Build) -> None:
    write_outputs(seed_build, tmp_path)
    assert runner.invoke(app, ["viz", "ego", "--out", str(tmp_path)]).exit_code == 2
    assert runner.invoke(app, ["viz", "nonsense", "--out", str(tmp_path)]).exit_code == 2
    missing = runner.invoke(app, ["viz", "--out", str(tmp_path / "nowhere")])
    assert missing.exit_code == 1 and "no built graph" in missing.output


def test_viz_help_has_an_example() -> None:
    result = runner.invoke(app, ["viz", "--help"])
    assert result.exit_code == 0
    assert "Example: kg viz" in result.output


def test_large_page_starts_without_physics() -> None:
    g = drawing.decorate(nx.relabel_nodes(nx.gnm_random_graph(viz.PHYSICS_LIMIT + 1, 600, seed=1), str))
    data = viz.page_data(g)
    assert len(data["nodes"]) > data["physics_limit"]  # the page's script turns physics off above the limit


def test_coauthors_of_a_method_are_the_people_of_its_papers(seed_build: Build, tmp_path: Path) -> None:
    store = seed_build.store
    found = store.query(
        "SELECT DISTINCT ?person WHERE { ?concept <http://www.w3.org/2004/02/skos/core#broader>* "
        "<https://w3id.org/kg/method/diffusion-model> . ?paper <https://schema.org/mentions> ?concept ; "
        "<http://purl.org/dc/terms/creator> ?person }"
    )
    expected = {row[0].value for row in found}  # type: ignore[index, union-attr]
    whole = project.view(store, "coauthors", decorated=False)
    scoped = project.view(store, "coauthors", project.ViewOptions(method="Diffusion Model"), decorated=False)
    assert set(scoped) == expected and 0 < len(expected) < whole.number_of_nodes()
    assert scoped.graph["within_label"] == "diffusion model"
    for a, b, joint in scoped.edges(data="joint_papers"):  # links count the method's papers only
        assert joint <= whole.edges[a, b]["joint_papers"]
    write_outputs(seed_build, tmp_path)
    done = runner.invoke(app, ["viz", "coauthors", "--method", "diffusion model", "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "papers of diffusion model" in (tmp_path / "coauthors.html").read_text(encoding="utf-8")
    wrong = runner.invoke(app, ["viz", "coauthors", "--method", "diffusion", "--out", str(tmp_path)])
    assert wrong.exit_code == 2 and "'diffusion model'" in wrong.output and "[unknown-term]" in wrong.output


def test_coauthors_of_a_task_or_a_dataset_are_the_people_of_its_papers(
    seed_build: Build, tmp_path: Path
) -> None:
    store = seed_build.store
    for options, link, concept in (
        (
            project.ViewOptions(task="Code Generation"),
            "https://schema.org/about",
            "https://w3id.org/kg/task/code-generation",
        ),
        (
            project.ViewOptions(dataset="mteb"),
            "https://w3id.org/kg/ns#usesDataset",
            "https://w3id.org/kg/dataset/mteb",
        ),
    ):
        found = store.query(
            f"SELECT DISTINCT ?person WHERE {{ ?concept <http://www.w3.org/2004/02/skos/core#broader>* <{concept}> . "
            f"?paper <{link}> ?concept ; <http://purl.org/dc/terms/creator> ?person }}"
        )
        expected = {row[0].value for row in found}  # type: ignore[index, union-attr]
        scoped = project.view(store, "coauthors", options, decorated=False)
        assert set(scoped) == expected and len(expected) >= 4
    write_outputs(seed_build, tmp_path)
    done = runner.invoke(app, ["viz", "coauthors", "--task", "code generation", "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "papers of code generation" in (tmp_path / "coauthors.html").read_text(encoding="utf-8")
    wrong = runner.invoke(app, ["viz", "coauthors", "--dataset", "no such set", "--out", str(tmp_path)])
    assert wrong.exit_code == 2 and "no dataset named" in wrong.output and "[unknown-term]" in wrong.output
