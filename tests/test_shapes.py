"""The built graph passes the SHACL shapes, and the shapes do catch a broken graph."""

from __future__ import annotations

import pyshacl
import rdflib

from kg.vocab import ontology_path

KG = rdflib.Namespace("https://w3id.org/kg/ns#")


def shapes() -> rdflib.Graph:
    return rdflib.Graph().parse(ontology_path("shapes.ttl"))


def test_seed_graph_conforms(seed_graph: rdflib.Graph) -> None:
    conforms, _, text = pyshacl.validate(seed_graph, shacl_graph=shapes(), advanced=True)
    assert conforms, text


def test_shapes_catch_one_sided_coauthor(seed_graph: rdflib.Graph) -> None:
    broken = rdflib.Graph()
    for t in seed_graph:
        broken.add(t)
    a, b = next(iter(seed_graph.subject_objects(KG.coauthor)))
    broken.remove((b, KG.coauthor, a))
    conforms, _, text = pyshacl.validate(broken, shacl_graph=shapes(), advanced=True)
    assert not conforms
    assert "both directions" in text
