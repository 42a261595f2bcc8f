"""Checks for the machine-learning method taxonomy ``ontology/methods.ttl`` (SKOS)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from rdflib import RDF, Graph, Literal, Namespace, URIRef
from rdflib.namespace import SKOS

TTL = Path(__file__).resolve().parents[1] / "ontology" / "methods.ttl"
METHOD = Namespace("https://w3id.org/kg/method/")
SCHEME = METHOD.scheme
LABEL_PROPS = (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel)


@pytest.fixture(scope="module")
def graph() -> Graph:
    g = Graph()
    g.parse(TTL, format="turtle")
    return g


@pytest.fixture(scope="module")
def concepts(graph: Graph) -> set[URIRef]:
    return {c for c in graph.subjects(RDF.type, SKOS.Concept) if isinstance(c, URIRef)}


def broader_closure(graph: Graph, concept: URIRef) -> set[URIRef]:
    seen: set[URIRef] = set()
    stack = [concept]
    while stack:
        for b in graph.objects(stack.pop(), SKOS.broader):
            if isinstance(b, URIRef) and b not in seen:
                seen.add(b)
                stack.append(b)
    return seen


def labels_of(graph: Graph, concept: URIRef) -> set[str]:
    return {str(o) for p in LABEL_PROPS for o in graph.objects(concept, p)}


def test_scheme_declared(graph: Graph) -> None:
    assert (SCHEME, RDF.type, SKOS.ConceptScheme) in graph
    assert list(graph.objects(SCHEME, SKOS.prefLabel))
    credits = " ".join(
        str(o)
        for p in (
            URIRef("http://purl.org/dc/terms/source"),
            URIRef("http://www.w3.org/2000/01/rdf-schema#comment"),
        )
        for o in graph.objects(SCHEME, p)
    )
    assert "paperswithcode" in credits.lower().replace(" ", "")


def test_at_least_300_concepts(concepts: set[URIRef]) -> None:
    assert len(concepts) >= 300


def test_iris_use_method_namespace(concepts: set[URIRef]) -> None:
    for c in concepts:
        slug = str(c).removeprefix(str(METHOD))
        assert slug != str(c), c
        assert slug and slug == slug.lower() and slug.isascii() and " " not in slug, c


def test_every_concept_has_one_english_preflabel_and_scheme(graph: Graph, concepts: set[URIRef]) -> None:
    for c in concepts:
        prefs = list(graph.objects(c, SKOS.prefLabel))
        assert len(prefs) == 1, (c, prefs)
        assert isinstance(prefs[0], Literal) and prefs[0].language == "en", c
        assert (c, SKOS.inScheme, SCHEME) in graph, c


def test_no_label_shared_between_concepts(graph: Graph, concepts: set[URIRef]) -> None:
    owners: dict[str, set[URIRef]] = defaultdict(set)
    for c in concepts:
        for label in labels_of(graph, c):
            owners[label.casefold()].add(c)
    shared = {label: sorted(map(str, cs)) for label, cs in owners.items() if len(cs) > 1}
    assert not shared, shared


def test_pref_and_alt_labels_disjoint(graph: Graph, concepts: set[URIRef]) -> None:
    for c in concepts:
        pref = {str(o).casefold() for o in graph.objects(c, SKOS.prefLabel)}
        alts = {str(o).casefold() for o in graph.objects(c, SKOS.altLabel)}
        assert not pref & alts, c


def test_broader_targets_exist(graph: Graph, concepts: set[URIRef]) -> None:
    for c in concepts:
        for b in graph.objects(c, SKOS.broader):
            assert b in concepts, (c, b)


def test_no_broader_cycles(graph: Graph, concepts: set[URIRef]) -> None:
    for c in concepts:
        assert c not in broader_closure(graph, c), c


def test_top_concepts(graph: Graph, concepts: set[URIRef]) -> None:
    tops = set(graph.subjects(SKOS.topConceptOf, SCHEME))
    assert tops, "no top concepts"
    assert tops == set(graph.objects(SCHEME, SKOS.hasTopConcept))
    for t in tops:
        assert not list(graph.objects(t, SKOS.broader)), t
    # every other concept reaches a top concept
    for c in concepts - tops:
        assert broader_closure(graph, c) & tops, c
    for family in ("optimizer", "regularization", "probabilistic-method", "reinforcement-learning"):
        assert METHOD[family] in tops, family
    # "generative model" is matched from text (marked generic), so it is no top family of structure
    assert METHOD["generative-model"] not in tops
    assert METHOD["probabilistic-method"] in broader_closure(graph, METHOD["generative-model"])


@pytest.mark.parametrize(
    ("child", "ancestor"),
    [
        ("lora", "parameter-efficient-fine-tuning"),
        ("masked-diffusion", "diffusion-model"),
        ("discrete-diffusion", "diffusion-model"),
        ("mamba", "state-space-model"),
        ("s4", "state-space-model"),
        ("weight-decay", "regularization"),
        ("adamw", "optimizer"),
    ],
)
def test_required_hierarchy(graph: Graph, child: str, ancestor: str) -> None:
    assert METHOD[ancestor] in broader_closure(graph, METHOD[child])


def test_adamw_related_to_weight_decay(graph: Graph) -> None:
    assert (METHOD.adamw, SKOS.related, METHOD["weight-decay"]) in graph


@pytest.mark.parametrize(
    ("slug", "label"),
    [
        ("state-space-model", "SSM"),
        ("state-space-model", "SSMs"),
        ("state-space-model", "state space models"),
        ("state-space-model", "state-space model"),
        ("lora", "low-rank adaptation"),
        ("lora", "low rank adaptation"),
        ("lora", "LoRA adapters"),
        ("lora", "LoRA"),
        ("weight-decay", "decoupled weight decay"),
        ("adamw", "AdamW"),
    ],
)
def test_required_labels(graph: Graph, slug: str, label: str) -> None:
    assert label.casefold() in {x.casefold() for x in labels_of(graph, METHOD[slug])}


def test_ambiguous_bare_words_are_not_labels(graph: Graph, concepts: set[URIRef]) -> None:
    """Bare ambiguous words never name a concept alone; "attention" is a hidden label (it counts only in
    a machine-learning context, see docs/methods.md)."""
    visible = {
        str(o).casefold() for c in concepts for p in (SKOS.prefLabel, SKOS.altLabel) for o in graph.objects(c, p)
    }
    for word in ("attention", "diffusion", "momentum", "muon", "flow", "step", "base"):
        assert word not in visible, word
    assert Literal("attention", lang="en") in set(graph.objects(METHOD["attention-mechanism"], SKOS.hiddenLabel))


def test_the_vocabulary_is_rebuilt_from_the_repository_alone() -> None:
    """``ontology/make_methods.py`` reads only the tables in ``ontology/`` and gives methods.ttl byte for byte."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(root / "ontology" / "make_methods.py"), "--check"],
        cwd=root / "ontology",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
