"""Exports cost what they read (issue 26): graph formats compute no communities or layout unless
``--layout`` asks, and the RDF formats of a large on-disk store are written in its own order."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pyoxigraph as ox
import pytest
import rdflib
from rdflib.compare import isomorphic
from typer.testing import CliRunner

from kg.build_folder import write_outputs
from kg.cli import app
from kg.exporters import export
from kg.exporters import turtle as turtle_module
from kg.exporters.built import BuiltGraph, ExportOptions
from kg.exporters.ntriples import in_store_order
from kg.pipeline import Build

runner = CliRunner()
DECORATION = {"community", "color", "size", "x", "y"}


@pytest.fixture(scope="module")
def built(seed_build: Build, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("build")
    write_outputs(seed_build, out)
    return out


def test_a_view_is_decorated_only_when_asked(built: Path) -> None:
    source = BuiltGraph.open(built)
    plain = source.view("coauthors")
    laid_out = source.view("coauthors", layout=True)
    assert source.view("coauthors") is plain  # computed once
    assert plain is not laid_out
    assert set(plain.nodes) == set(laid_out.nodes) and set(plain.edges) == set(laid_out.edges)
    assert all(not DECORATION & set(d) for _, d in plain.nodes(data=True))
    assert all(set(d) >= DECORATION for _, d in laid_out.nodes(data=True))
    for node, data in plain.nodes(data=True):
        assert {k: laid_out.nodes[node][k] for k in data} == data


@pytest.mark.parametrize("name", ["graphml", "gexf"])
def test_graph_formats_carry_positions_only_with_layout(name: str, built: Path, tmp_path: Path) -> None:
    read = nx.read_graphml if name == "graphml" else nx.read_gexf
    plain = read(export(name, BuiltGraph.open(built), tmp_path / f"a.{name}"))
    laid_out = read(export(name, BuiltGraph.open(built), tmp_path / f"b.{name}", ExportOptions(layout=True)))
    assert set(plain.nodes) == set(laid_out.nodes) and plain.number_of_edges() == laid_out.number_of_edges()
    for node, data in plain.nodes(data=True):
        assert "x" not in data and "community" not in data and "viz" not in data
        assert data["papers"] == laid_out.nodes[node]["papers"]
        back = laid_out.nodes[node]
        if name == "graphml":
            assert isinstance(back["x"], float) and isinstance(back["community"], int)
        else:
            assert "position" in back["viz"] and "color" in back["viz"]


def test_vosviewer_leaves_clusters_and_layout_to_vosviewer_unless_asked(built: Path, tmp_path: Path) -> None:
    plain = json.loads(export("vosviewer", BuiltGraph.open(built), tmp_path / "a.json").read_text("utf-8"))
    laid_out = json.loads(
        export("vosviewer", BuiltGraph.open(built), tmp_path / "b.json", ExportOptions(layout=True)).read_text("utf-8")
    )
    for item in plain["network"]["items"]:
        assert "x" not in item and "cluster" not in item
        assert item["weights"]["Documents"] >= 1
    assert all("x" in item and "cluster" in item for item in laid_out["network"]["items"])
    assert len(plain["network"]["links"]) == len(laid_out["network"]["links"])


def test_kg_export_layout_option(built: Path, tmp_path: Path) -> None:
    target = tmp_path / "v.graphml"
    done = runner.invoke(app, ["export", "graphml", "--out", str(built), "--output", str(target), "--layout"])
    assert done.exit_code == 0, done.output
    assert all("x" in d for _, d in nx.read_graphml(target).nodes(data=True))
    done = runner.invoke(app, ["export", "graphml", "--out", str(built), "--output", str(target)])
    assert done.exit_code == 0, done.output
    assert all("x" not in d for _, d in nx.read_graphml(target).nodes(data=True))


@pytest.mark.parametrize(("name", "fmt"), [("ntriples", "nt"), ("nquads", "nquads"), ("jsonld", "json-ld")])
def test_a_large_on_disk_store_is_written_in_its_own_order(
    name: str, fmt: str, built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sorted_file = export(name, BuiltGraph.open(built), tmp_path / f"sorted.{name}")
    monkeypatch.setattr(turtle_module, "SORT_LIMIT", 100)  # the seeds' store counts as large
    source = BuiltGraph.open(built)
    assert in_store_order(source.store, source.on_disk)
    streamed = export(name, source, tmp_path / f"streamed.{name}")
    again = export(name, BuiltGraph.open(built), tmp_path / f"again.{name}")
    assert streamed.read_bytes() == again.read_bytes()  # deterministic
    assert streamed.read_bytes() != sorted_file.read_bytes()  # another order (or, JSON-LD, form)

    def graph(path: Path) -> rdflib.Graph:
        if fmt == "nquads":
            union = rdflib.Graph()
            dataset = rdflib.Dataset()
            dataset.parse(path, format="nquads")
            for s, p, o, _ in dataset.quads((None, None, None, None)):
                union.add((s, p, o))
            return union
        return rdflib.Graph().parse(path, format=fmt)

    assert isomorphic(graph(streamed), graph(sorted_file))
    if name == "ntriples":
        with streamed.open("rb") as f:
            assert len(list(ox.parse(f, format=ox.RdfFormat.N_TRIPLES))) == len(source.store)


def test_an_in_memory_store_is_always_sorted(seed_build: Build, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(turtle_module, "SORT_LIMIT", 100)
    source = BuiltGraph.of(seed_build)
    assert not in_store_order(source.store, source.on_disk)
