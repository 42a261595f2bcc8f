"""Checks of the task and dataset schemes (``ontology/tasks.ttl``, ``ontology/datasets.ttl``) and of the
tables and scripts they are generated from."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import rdflib
from rdflib.namespace import RDF, SKOS

from kg.extractors.tasks.words import compact, label_key
from kg.vocab import DATASET_BASE, KG_BASE, TASK_BASE, ontology_path

ROOT = Path(__file__).resolve().parents[1]
KG = rdflib.Namespace(KG_BASE)
SDO = rdflib.Namespace("https://schema.org/")
TASK = rdflib.Namespace(TASK_BASE)
DATASET = rdflib.Namespace(DATASET_BASE)


@pytest.fixture(scope="module")
def task_graph() -> rdflib.Graph:
    return rdflib.Graph().parse(ontology_path("tasks.ttl"))


@pytest.fixture(scope="module")
def dataset_graph() -> rdflib.Graph:
    return rdflib.Graph().parse(ontology_path("datasets.ttl"))


def test_the_schemes_are_rebuilt_from_the_repository_alone() -> None:
    """``ontology/make_tasks.py`` reads only tables in ``ontology/`` and gives both files byte for byte."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "ontology" / "make_tasks.py"), "--check"],
        cwd=ROOT / "ontology", capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_task_is_a_concept_of_the_scheme_with_a_broader_concept(task_graph: rdflib.Graph) -> None:
    tasks = set(task_graph.subjects(RDF.type, KG.Task))
    assert len(tasks) > 2000
    for t in tasks:
        assert (t, SKOS.inScheme, TASK.scheme) in task_graph
        assert task_graph.value(t, SKOS.prefLabel) is not None, t
        broader = set(task_graph.objects(t, SKOS.broader))
        assert broader and all((b, SKOS.inScheme, TASK.scheme) in task_graph for b in broader), t


def test_areas_are_top_concepts_and_not_tasks(task_graph: rdflib.Graph) -> None:
    tops = set(task_graph.objects(TASK.scheme, SKOS.hasTopConcept))
    assert TASK["computer-vision"] in tops and TASK["robotics"] in tops
    for top in tops:
        assert (top, RDF.type, KG.Task) not in task_graph
        assert not set(task_graph.objects(top, SKOS.broader))


def test_no_label_names_two_tasks_and_the_hierarchy_has_no_cycle(task_graph: rdflib.Graph) -> None:
    owner: dict[str, rdflib.term.Node] = {}
    for prop in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel):
        for s, o in task_graph.subject_objects(prop):
            key = label_key(str(o))
            assert owner.setdefault(key, s) == s, f"{o!r} names {owner[key]} and {s}"
    state: dict[rdflib.term.Node, int] = {}

    def visit(node: rdflib.term.Node) -> None:
        assert state.get(node) != 1, f"cycle through {node}"
        if state.get(node) == 2:
            return
        state[node] = 1
        for b in task_graph.objects(node, SKOS.broader):
            visit(b)
        state[node] = 2

    for node in set(task_graph.subjects(SKOS.inScheme, TASK.scheme)):
        visit(node)


def test_curated_tasks_papers_study_now(task_graph: rdflib.Graph) -> None:
    for slug, label in [("tool-use", "tool use"), ("web-navigation", "web navigation"),
                        ("long-context-question-answering", "long-context question answering"),
                        ("text-to-video-generation", "text-to-video generation"),
                        ("language-conditioned-manipulation", "vision-language-action manipulation"),
                        ("sim-to-real-transfer", "sim2real")]:  # fmt: skip
        labels = {str(o) for p in (SKOS.prefLabel, SKOS.altLabel) for o in task_graph.objects(TASK[slug], p)}
        assert label in labels, slug
    assert (TASK["visual-question-answering"], SKOS.altLabel, rdflib.Literal("VQA", lang="en")) in task_graph
    assert (TASK["classification"], KG.generic, rdflib.Literal(True)) in task_graph


def test_papers_with_code_junk_and_methods_are_left_out(task_graph: rdflib.Graph) -> None:
    labels = {str(o).casefold() for p in (SKOS.prefLabel, SKOS.altLabel) for o in task_graph.objects(None, p)}
    for junk in (
        "16k",
        "translation deu-eng",
        "few-shot learning",
        "knowledge distillation",
        "3d",
        "atari games",
    ):
        assert junk not in labels, junk
    sys.path.insert(0, str(ROOT / "ontology"))
    from import_pwc_tasks import is_name

    assert is_name("Object Detection", task=True) and is_name("COCO test-dev", task=False)
    for junk in (
        "[[Easy~refund]]How can i get a refund",
        "13.8",
        "01/01/1967' AND 2*3*8=6*8 AND 'AncJ'='AncJ",
    ):
        assert not is_name(junk, task=False), junk


def test_a_dataset_is_one_concept_whose_labels_are_its_spellings_and_versions(
    dataset_graph: rdflib.Graph,
) -> None:
    def labels(node: rdflib.term.Node) -> set[str]:
        return {
            str(o)
            for p in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel)
            for o in dataset_graph.objects(node, p)
        }

    assert {"COCO", "MS COCO", "MS-COCO", "COCO 2017"} <= labels(DATASET.coco)
    assert {"ImageNet", "ImageNet-1K", "ILSVRC 2012"} <= labels(DATASET.imagenet)
    assert (DATASET["imagenet-c"], SKOS.broader, DATASET.imagenet) in dataset_graph
    assert not any("test-dev" in label for label in labels(DATASET.coco))
    owners = Counter(compact(str(o)) for p in (SKOS.prefLabel, SKOS.altLabel, SKOS.hiddenLabel)
                     for s, o in dataset_graph.subject_objects(p) if (s, SKOS.prefLabel, o) in dataset_graph)  # fmt: skip
    assert owners.most_common(1)[0][1] == 1  # no two datasets share a name


def test_datasets_are_typed_and_linked_to_known_tasks(
    dataset_graph: rdflib.Graph, task_graph: rdflib.Graph
) -> None:
    datasets = set(dataset_graph.subjects(RDF.type, SDO.Dataset))
    assert len(datasets) > 5000
    for d in datasets:
        assert (d, RDF.type, SKOS.Concept) in dataset_graph and (
            d,
            SKOS.inScheme,
            DATASET.scheme,
        ) in dataset_graph
        for t in dataset_graph.objects(d, KG.benchmarkFor):
            assert (t, RDF.type, KG.Task) in task_graph, (d, t)
    assert (DATASET.math, KG.ambiguousName, rdflib.Literal(True)) in dataset_graph
    assert (DATASET.gsm8k, KG.ambiguousName, None) not in dataset_graph


def test_the_schemes_satisfy_the_shapes(task_graph: rdflib.Graph, dataset_graph: rdflib.Graph) -> None:
    import pyshacl

    graph = task_graph + dataset_graph
    shapes = rdflib.Graph().parse(ontology_path("shapes.ttl"))
    conforms, _report, text = pyshacl.validate(graph, shacl_graph=shapes, allow_warnings=True)
    assert conforms, text[:3000]
