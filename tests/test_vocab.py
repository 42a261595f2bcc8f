"""kg/vocab.py and ontology/kg.ttl declare the same terms, each with a label and a comment."""

from __future__ import annotations

import pytest
import rdflib
from rdflib.namespace import RDFS

from kg.vocab import KG, ontology_path


def test_vocab_mirrors_ontology() -> None:
    g = rdflib.Graph().parse(ontology_path("kg.ttl"))
    declared = {str(s)[len(KG.base) :] for s in set(g.subjects()) if str(s).startswith(KG.base)}
    assert declared == set(KG.names)
    for name in KG.names:
        term = rdflib.URIRef(KG.base + name)
        assert g.value(term, RDFS.label) is not None, name
        assert g.value(term, RDFS.comment) is not None, name


def test_namespace_is_closed() -> None:
    with pytest.raises(AttributeError, match="closed namespace"):
        _ = KG.coauthr
