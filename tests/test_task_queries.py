"""The named queries of tasks and datasets (issue 33): rows compared with the same answer computed in
Python over rdflib, on a graph of papers on a few tasks over two years, and on the seeds; plus
hand-checked values.  ``tests/test_queries.py`` counts these among the tested queries."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from rdflib import Namespace, URIRef

from tests.test_queries import rows, run

DCT = Namespace("http://purl.org/dc/terms/")
KG = Namespace("https://w3id.org/kg/ns#")
SCHEMA = Namespace("https://schema.org/")
SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
FABIO = Namespace("http://purl.org/spar/fabio/")
TASK = "https://w3id.org/kg/task/"

PAPERS = [
    ("2403.00001", "Semantic Segmentation with Transformers",
     "We study semantic segmentation with a transformer and evaluate on Cityscapes."),
    ("2404.00002", "Open-Vocabulary Semantic Segmentation with CLIP",
     "We address open-vocabulary semantic segmentation using CLIP. Experiments on ADE20K and COCO show gains."),
    ("2405.00006", "ZorbSeg: A Dataset for Zorb Segmentation",
     "We introduce ZorbSeg, a dataset for semantic segmentation of zorbs, and evaluate a transformer on it."),
    ("2503.00003", "Semantic Segmentation with Low-Rank Adaptation",
     "We fine-tune with LoRA for semantic segmentation and evaluate on Cityscapes."),
    ("2503.00004", "Remote Sensing Semantic Segmentation with LoRA",
     "We use LoRA and a transformer. Experiments on ZorbSeg and Cityscapes show gains."),
    ("2505.00005", "Object Detection with Transformers",
     "We study object detection with a transformer. Experiments on COCO show gains."),
    ("2506.00007", "Image Classification at Scale",
     "We study image classification with LoRA on ImageNet."),
]  # fmt: skip


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import kg

    folder = tmp_path_factory.mktemp("tasks")
    lines = [
        json.dumps({"id": i, "title": t, "authors": [f"Author {n}", "Ann Lee"], "categories": ["cs.CV"], "summary": s})
        for n, (i, t, s) in enumerate(PAPERS)
    ]
    (folder / "day.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg.build([str(folder / "day.jsonl")], str(folder / "out"))
    return folder / "out"


@pytest.fixture(scope="module")
def store(built: Path) -> ox.Store:
    return ox.Store.read_only(str(built / "store"))


@pytest.fixture(scope="module")
def g(built: Path) -> rdflib.Graph:
    return rdflib.Graph().parse(built / "graph.ttl")


def label(g: rdflib.Graph, node: object) -> str:
    return str(g.value(node, SKOS.prefLabel))  # type: ignore[arg-type]


def generic(g: rdflib.Graph, node: object) -> bool:
    return any(v.toPython() is True for v in g.objects(node, KG.generic))  # type: ignore[arg-type]


def under(g: rdflib.Graph, top: URIRef) -> set[URIRef]:
    """``top`` and every concept below it (skos:broader, transitively)."""
    found, todo = {top}, [top]
    while todo:
        at = todo.pop()
        for child in g.subjects(SKOS.broader, at):
            if child not in found:
                found.add(URIRef(child))
                todo.append(URIRef(child))
    return found


def on_task(g: rdflib.Graph, task: str) -> set[URIRef]:
    concepts = under(g, URIRef(TASK + task))
    return {URIRef(p) for c in concepts for p in g.subjects(SCHEMA.about, c)}


def year(g: rdflib.Graph, paper: object) -> str:
    return str(g.value(paper, FABIO.hasPublicationYear))  # type: ignore[arg-type]


# --- the graph the tests read --------------------------------------------------------------------------


def test_the_graph_has_the_tasks_and_datasets_the_queries_read(g: rdflib.Graph) -> None:
    segmentation = on_task(g, "semantic-segmentation")
    assert len(segmentation) == 5  # the open-vocabulary and remote sensing kinds of it are taken in
    assert {year(g, p) for p in segmentation} == {"2024", "2025"}


# --- the queries ---------------------------------------------------------------------------------------


def _task_methods(g: rdflib.Graph, task: str) -> list[tuple[str, ...]]:
    per_year: Counter[tuple[str, str]] = Counter()
    total: Counter[str] = Counter()
    for paper in on_task(g, task):
        for m in g.objects(paper, SCHEMA.mentions):
            if generic(g, m):
                continue
            total[str(m)] += 1
            per_year[str(m), year(g, paper)] += 1
    found = [(m, label(g, URIRef(m)), str(total[m]), y, str(n)) for (m, y), n in per_year.items()]
    return sorted(found, key=lambda r: (-int(r[2]), r[1], r[0], r[3]))


def test_task_methods(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "task-methods", task="semantic segmentation"), "method", "label", "total", "period", "papers")
    assert got == _task_methods(g, "semantic-segmentation")
    assert ("Transformer", "3", "2024", "2") in [r[1:] for r in got]
    # by its abbreviation-free slug and in any case alike; an unknown task has no rows
    assert rows(run(store, "task-methods", task="Semantic-Segmentation"), "method") == [r[:1] for r in got]
    assert run(store, "task-methods", task="zorb juggling").rows == []
    # by month: the papers' arXiv ids say which
    months = rows(run(store, "task-methods", task="semantic segmentation", by="month"), "label", "period", "papers")
    assert ("LoRA", "2025-03", "2") in months
    window = rows(run(store, "task-methods", task="semantic segmentation", by="month", **{"from": "2025"}), "period")
    assert {p for (p,) in window} == {"2025-03"}


def test_task_rising_methods(store: ox.Store, g: rdflib.Graph) -> None:
    papers = on_task(g, "semantic-segmentation")
    of = Counter(year(g, p) for p in papers)
    counts: Counter[tuple[str, str]] = Counter()
    for p in papers:
        for m in g.objects(p, SCHEMA.mentions):
            if not generic(g, m):
                counts[str(m), year(g, p)] += 1
    expected = []
    for m in {m for m, _ in counts}:
        now, before = counts[m, "2025"] / of["2025"], counts[m, "2024"] / of["2024"]
        if round(1000 * (now - before)) / 10 > 0:
            expected.append((m, str(counts[m, "2025"]), str(counts[m, "2024"])))
    got = rows(run(store, "task-rising-methods", task="semantic segmentation"), "method", "papers", "papers_before")
    assert sorted(got) == sorted(expected)
    top = rows(run(store, "task-rising-methods", task="semantic segmentation"), "label", "at", "share", "points")
    assert top[0] == ("LoRA", "2025", "1", "100")  # in both 2025 papers, in none of the three of 2024
    # a year without papers before it: nothing rises
    assert run(store, "task-rising-methods", task="semantic segmentation", year="2024").rows == []


def test_task_datasets(store: ox.Store, g: rdflib.Graph) -> None:
    counts: Counter[str] = Counter()
    for p in on_task(g, "semantic-segmentation"):
        for d in g.objects(p, KG.usesDataset):
            counts[str(d)] += 1
    got = rows(run(store, "task-datasets", task="semantic segmentation"), "dataset", "papers", "benchmark")
    assert {(d, n) for d, n, _ in got} == {(d, str(n)) for d, n in counts.items()}
    flags = {d.rsplit("/", 1)[1]: b for d, _, b in got}
    # the scheme names Cityscapes a benchmark for semantic segmentation; the paper's own ZorbSeg it does not
    assert flags["cityscapes"] == "true" and flags["ZorbSeg"] == "false"
    assert got[0][0].endswith("/cityscapes") and got[0][1] == "3"


def test_method_tasks(store: ox.Store, g: rdflib.Graph) -> None:
    lora = URIRef("https://w3id.org/kg/method/lora")
    counts: Counter[tuple[str, str]] = Counter()
    for p in g.subjects(SCHEMA.mentions, lora):
        for t in g.objects(p, SCHEMA.about):
            if not generic(g, t):
                counts["task", str(t)] += 1
        for d in g.objects(p, KG.usesDataset):
            counts["dataset", str(d)] += 1
    got = rows(run(store, "method-tasks", method="lora"), "kind", "concept", "papers")
    assert sorted(got) == sorted((k, c, str(n)) for (k, c), n in counts.items())
    assert ("task", TASK + "semantic-segmentation", "1") in got
    assert ("dataset", "https://w3id.org/kg/dataset/imagenet", "1") in got
    assert [k for k, _, _ in got] == sorted((k for k, _, _ in got), reverse=True)  # tasks first


def test_dataset_papers(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "dataset-papers", dataset="ZorbSeg"), "title", "role", "via")
    assert got == [
        ("Remote Sensing Semantic Segmentation with LoRA", "uses", "ZorbSeg"),
        ("ZorbSeg: A Dataset for Zorb Segmentation", "introduces", "ZorbSeg"),
    ]
    cityscapes = rows(run(store, "dataset-papers", dataset="cityscapes"), "paper", "year")
    expected = {(str(p), year(g, p)) for p in g.subjects(KG.usesDataset, URIRef("https://w3id.org/kg/dataset/cityscapes"))}
    assert set(cityscapes) == expected and [y for _, y in cityscapes] == sorted((y for _, y in cityscapes), reverse=True)
    assert rows(run(store, "dataset-papers", dataset="MS COCO"), "via") == [("COCO",), ("COCO",)]


def test_task_trend(store: ox.Store, g: rdflib.Graph) -> None:
    expected: dict[tuple[str, str], int] = defaultdict(int)
    for t in set(g.objects(None, SCHEMA.about)):
        if generic(g, t):
            continue
        for p in g.subjects(SCHEMA.about, t):
            expected[str(t), year(g, p)] += 1
    got = rows(run(store, "task-trend"), "concept", "period", "papers")
    assert sorted(got) == sorted((t, y, str(n)) for (t, y), n in expected.items())
    one = rows(run(store, "task-trend", task="object detection", by="month"), "label", "period", "papers")
    assert one == [("object detection", "2025-05", "1")]
    assert run(store, "task-trend", task="classification").rows == []  # a generic task has no papers here


# --- kg plot trend of tasks and datasets ---------------------------------------------------------------


def test_plot_trend_draws_tasks_and_datasets(store: ox.Store, g: rdflib.Graph) -> None:
    from kg.errors import KgError
    from kg.plots import trend
    from kg.plots.options import PlotOptions

    drawn = trend.compute(
        store, PlotOptions(tasks=("semantic segmentation",), datasets=("Cityscapes",), grain="year", min_period=1)
    )
    assert drawn.periods == ("2024", "2025")
    lines = {s.concept.label: s.values for s in drawn.series}
    direct = Counter(year(g, p) for p in g.subjects(SCHEMA.about, URIRef(TASK + "semantic-segmentation")))
    assert lines["semantic segmentation"] == (float(direct["2024"]), float(direct["2025"]))
    assert lines["Cityscapes"] == (1.0, 2.0)
    # the top tasks when none is named; generic tasks only when asked for
    top = trend.compute(store, PlotOptions(kind="task", grain="year", min_period=1))
    assert top.series and all(not generic(g, URIRef(s.concept.iri)) for s in top.series)
    with pytest.raises(KgError, match="generic tasks need --generic"):
        trend.compute(store, PlotOptions(tasks=("segmentation",), grain="year"))
