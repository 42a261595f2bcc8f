"""Generic (umbrella) concepts, ``kg:generic true``: left out of the topic view, the trend and
co-occurrence queries and an author's topics by default, and back with the flag."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest

from kg import project
from kg.errors import UsageError
from kg.project import ViewOptions
from kg.queries import Param
from kg.vocab import KG, METHOD_BASE, RDF, SCHEMA, XSD
from tests.test_project import TEAM, small_store
from tests.test_queries import run

_GRAPH = """
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix fabio: <http://purl.org/spar/fabio/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix schema: <https://schema.org/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix m: <https://w3id.org/kg/method/> .
@prefix e: <https://example.org/> .
@prefix kg: <https://w3id.org/kg/ns#> .
@prefix c: <https://example.org/counts/> .

m:nn a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "neural network"@en ; kg:generic true .
m:lora a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "LoRA"@en .
m:dpo a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "DPO"@en ; kg:generic false .

e:p1 dcterms:creator e:a ; schema:mentions m:nn, m:lora ; fabio:hasPublicationYear "2024"^^xsd:gYear .
e:p2 dcterms:creator e:a ; schema:mentions m:nn, m:lora, m:dpo ; fabio:hasPublicationYear "2024"^^xsd:gYear .
e:a foaf:name "Ann Example" .
m:nn kg:countsByYear c:nn-2024 . c:nn-2024 kg:year "2024"^^xsd:gYear ; kg:papers 2 .
m:lora kg:countsByYear c:lora-2024 . c:lora-2024 kg:year "2024"^^xsd:gYear ; kg:papers 2 .
m:dpo kg:countsByYear c:dpo-2024 . c:dpo-2024 kg:year "2024"^^xsd:gYear ; kg:papers 1 .
"""


@pytest.fixture(scope="module")
def umbrella() -> ox.Store:
    store = ox.Store()
    store.load(_GRAPH.encode(), ox.RdfFormat.TURTLE)
    return store


def _labels(result: object, column: str) -> list[str]:
    rows = result.rows  # type: ignore[attr-defined]
    index = result.variables.index(column)  # type: ignore[attr-defined]
    return [row[index].value for row in rows]


def test_topic_view_leaves_generic_concepts_out_by_default() -> None:
    store = small_store(TEAM)
    dropout = ox.NamedNode(METHOD_BASE + "dropout")
    store.add(ox.Quad(dropout, KG.generic, ox.Literal("true", datatype=XSD.boolean)))
    default = project.topics(store)
    assert METHOD_BASE + "dropout" not in default
    assert METHOD_BASE + "adam" in default
    assert default.graph["generic_left_out"] == 1
    everything = project.topics(store, generic=True)
    assert METHOD_BASE + "dropout" in everything
    assert everything.graph["generic_left_out"] == 0
    # through the table of views, as kg viz topics --generic asks
    assert METHOD_BASE + "dropout" in project.view(store, "topics", ViewOptions(generic=True))
    assert METHOD_BASE + "dropout" not in project.view(store, "topics")


def test_method_trend_leaves_generic_concepts_out_by_default(umbrella: ox.Store) -> None:
    assert sorted(set(_labels(run(umbrella, "method-trend"), "label"))) == ["DPO", "LoRA"]
    with_generic = _labels(run(umbrella, "method-trend", generic="true"), "label")
    assert sorted(set(with_generic)) == ["DPO", "LoRA", "neural network"]
    # asked for by name, a generic concept's trend is shown
    assert _labels(run(umbrella, "method-trend", method="neural network"), "papers") == ["2"]


def test_method_cooccurrence_leaves_generic_concepts_out_by_default(umbrella: ox.Store) -> None:
    assert _labels(run(umbrella, "method-cooccurrence", method="lora"), "label") == ["DPO"]
    got = _labels(run(umbrella, "method-cooccurrence", method="lora", generic="yes"), "label")
    assert got == ["neural network", "DPO"]


def test_author_topics_leave_generic_methods_out_by_default(umbrella: ox.Store) -> None:
    assert sorted(_labels(run(umbrella, "author-topics", author="Ann Example"), "label")) == ["DPO", "LoRA"]
    got = _labels(run(umbrella, "author-topics", author="Ann Example", generic="1"), "label")
    assert sorted(got) == ["DPO", "LoRA", "neural network"]


def test_generic_parameter_is_a_boolean() -> None:
    assert Param("generic", "").term("FALSE") == ox.Literal("false", datatype=XSD.boolean)
    with pytest.raises(UsageError, match="true or false"):
        Param("generic", "").term("maybe")


def test_kg_viz_topics_generic_flag(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kg.cli import app

    folder = tmp_path / "out"
    folder.mkdir()
    store = ox.Store(str(folder / "store"))
    store.load(_GRAPH.encode(), ox.RdfFormat.TURTLE)
    for paper in ("p1", "p2"):
        store.add(ox.Quad(ox.NamedNode(f"https://example.org/{paper}"), RDF.type, SCHEMA.ScholarlyArticle))
    store.flush()
    del store
    runner = CliRunner()
    default = runner.invoke(
        app, ["viz", "topics", "--out", str(folder), "--output", str(tmp_path / "a.html")]
    )
    assert default.exit_code == 0, default.output
    assert "1 generic concepts" in default.output
    page = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "LoRA" in page and "neural network" not in page
    shown = runner.invoke(
        app, ["viz", "topics", "--generic", "--out", str(folder), "--output", str(tmp_path / "b.html")]
    )
    assert shown.exit_code == 0, shown.output
    assert "neural network" in (tmp_path / "b.html").read_text(encoding="utf-8")


def test_shapes_want_generic_as_one_boolean() -> None:
    import pyshacl
    import rdflib

    from kg.vocab import ontology_path

    shapes = rdflib.Graph().parse(ontology_path("shapes.ttl"))
    concept = """
    @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
    @prefix kg: <https://w3id.org/kg/ns#> .
    @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
    <https://w3id.org/kg/method/scheme> a skos:ConceptScheme .
    <https://w3id.org/kg/method/nn> a skos:Concept ; skos:prefLabel "neural network"@en ;
        skos:inScheme <https://w3id.org/kg/method/scheme> ; kg:generic %s .
    """
    good = rdflib.Graph().parse(data=concept % "true", format="turtle")
    assert pyshacl.validate(good, shacl_graph=shapes, advanced=True)[0]
    bad = rdflib.Graph().parse(data=concept % '"yes"', format="turtle")
    conforms, _, text = pyshacl.validate(bad, shacl_graph=shapes, advanced=True)
    assert not conforms and "generic" in text
