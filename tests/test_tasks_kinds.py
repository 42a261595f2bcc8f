"""Tasks and datasets as kinds of fact (issue 33): through full and delta builds (every delta equals a
full build), one concept for a dataset one paper introduces and another uses, open tasks and datasets
described from their mentions, the schemes' concepts papers use with their broader chains, counts per
year, and the graph conforms to the SHACL shapes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pyshacl
import pytest
import rdflib

import kg.delta
from kg import store as stores
from kg.build_folder import build_into
from kg.errors import IssueLog
from kg.kinds.tasks import dataset_scheme, task_scheme
from kg.pipeline import BuildOptions
from kg.vocab import DATA_BASE, DATASET_BASE, KG, SCHEMA, SKOS, TASK_BASE, ontology_path


def paper(number: int, title: str, summary: str, year: int = 2024) -> dict[str, Any]:
    return {
        "id": f"2502.{number:05d}",
        "authors": ["Ann Lee", f"Author {number}"],
        "title": title,
        "categories": ["cs.CV"],
        "update_date": f"{year}-01-02",
        "versions": [{"version": "v1", "created": f"Mon, 1 Jan {year} 00:00:00 GMT"}],
        "summary": summary,
    }


SEGMENTATION = paper(
    1,
    "Semantic Segmentation of Aerial Images",
    "We study semantic segmentation and evaluate on Cityscapes and ADE20K, improving mIoU.",
)
INTRODUCER = paper(
    2,
    "ZorbQA: A Benchmark for Zorb Questions",
    "We introduce ZorbQA, a benchmark of questions about zorbs for question answering.",
)
USER = paper(
    3,
    "Crowd Forecasting in Dense Scenes",
    "We address crowd forecasting. Experiments on ZorbQA and on ActivityNet-RTL show gains over LoRA.",
    2025,
)
OTHER_USER = paper(
    4,
    "Crowd Forecasting with Graphs",
    "We study crowd forecasting with graph networks. Experiments on ZorbQA and nuScenes show gains.",
    2025,
)


def write(path: Path, papers: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")


def build(inputs: Path, out: Path, full: bool = False) -> Any:
    result, _ = build_into([inputs], out, BuildOptions(workers=1, full=full), IssueLog())
    return result


def quads(out: Path) -> set[str]:
    return {str(q) for q in stores.open_store(out).quads_for_pattern(None, None, None, None)}


def objects(out: Path, subject: str, predicate: ox.NamedNode) -> set[str]:
    store = stores.open_store(out)
    return {q.object.value for q in store.quads_for_pattern(ox.NamedNode(subject), predicate, None, None)}


def subjects(out: Path, predicate: ox.NamedNode, value: str) -> set[str]:
    store = stores.open_store(out)
    return {q.subject.value for q in store.quads_for_pattern(None, predicate, ox.NamedNode(value), None)}


PAPER = DATA_BASE + "paper/arxiv-2502.0000"
ZORBQA = DATA_BASE + "resource/ZorbQA"
CROWD = DATA_BASE + "task/crowd-forecasting"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(kg.delta, "MOST", 1.0)
    (tmp_path / "in").mkdir()
    return tmp_path


def test_tasks_and_datasets_through_full_and_delta_builds(folder: Path) -> None:
    inputs, out = folder / "in", folder / "out"
    write(inputs / "a.jsonl", [SEGMENTATION, INTRODUCER])
    write(inputs / "b.jsonl", [USER])
    build(inputs, out)

    # the links, main tasks and evidence
    assert objects(out, PAPER + "1", SCHEMA.about) == {TASK_BASE + "semantic-segmentation"}
    assert objects(out, PAPER + "1", KG.mainTask) == {TASK_BASE + "semantic-segmentation"}
    assert objects(out, PAPER + "1", KG.usesDataset) == {DATASET_BASE + "cityscapes", DATASET_BASE + "ade20k"}
    assert objects(out, PAPER + "3", KG.mainTask) == {CROWD}
    assert objects(out, PAPER + "3", KG.usesDataset) == {ZORBQA, DATA_BASE + "resource/ActivityNet-RTL"}

    # a dataset one paper introduces and another uses is one node, named by its introducer
    assert subjects(out, KG.introduces, ZORBQA) == {PAPER + "2"}
    assert subjects(out, KG.usesDataset, ZORBQA) == {PAPER + "3"}
    assert objects(out, ZORBQA, SKOS.prefLabel) == {"ZorbQA"}
    assert objects(out, PAPER + "2", KG.usesDataset) == set()  # its own dataset is not one it uses
    # a variant of a known dataset is under it, and the known one is in the graph
    assert objects(out, DATA_BASE + "resource/ActivityNet-RTL", SKOS.broader) == {
        DATASET_BASE + "activitynet"
    }
    assert objects(out, DATASET_BASE + "activitynet", SKOS.prefLabel) == {"ActivityNet"}

    # an open task: a kg:Task of its own under the known task its phrase ends in, which is in the graph
    assert objects(out, CROWD, SKOS.broader) == {TASK_BASE + "forecasting"}
    assert objects(out, CROWD, SKOS.prefLabel) == {"crowd forecasting"}
    assert str(KG.Task.value) in objects(out, CROWD, ox.NamedNode(rdflib.RDF.type))

    # the schemes' concepts papers use and their broader chains, not the schemes whole
    assert objects(out, TASK_BASE + "semantic-segmentation", SKOS.broader) == {
        TASK_BASE + "image-segmentation"
    }
    assert objects(out, TASK_BASE + "image-segmentation", SKOS.prefLabel) == {"image segmentation"}
    assert objects(out, TASK_BASE + "computer-vision", SKOS.topConceptOf) == {TASK_BASE + "scheme"}
    assert objects(out, TASK_BASE + "speech-recognition", SKOS.prefLabel) == set()
    assert objects(out, DATASET_BASE + "imagenet", SKOS.prefLabel) == set()
    # a dataset's tasks (kg:benchmarkFor) are in the graph too
    assert objects(out, DATASET_BASE + "activitynet", KG.benchmarkFor) <= {
        TASK_BASE + t for t in task_scheme().owned
    }
    for task in objects(out, DATASET_BASE + "activitynet", KG.benchmarkFor):
        assert objects(out, task, SKOS.inScheme) == {TASK_BASE + "scheme"}

    # counts per year
    counts = objects(out, TASK_BASE + "semantic-segmentation", KG.countsByYear)
    assert counts == {DATA_BASE + "counts/task/semantic-segmentation/2024"}
    assert objects(out, ZORBQA, KG.countsByYear) == {DATA_BASE + "counts/resource/ZorbQA/2025"}

    # deltas: a second user, the introducer gone (the users still use the dataset), the first user
    # changed, a file gone, the introducer back; each equals a full build
    steps = [
        lambda: write(inputs / "c.jsonl", [OTHER_USER]),
        lambda: write(inputs / "a.jsonl", [SEGMENTATION]),
        lambda: write(inputs / "b.jsonl", [paper(3, "Crowd Counting", "We count people in images.", 2025)]),
        lambda: (inputs / "c.jsonl").unlink(),
        lambda: write(inputs / "a.jsonl", [SEGMENTATION, INTRODUCER]),
    ]
    labels = []
    for step in steps:
        step()
        result = build(inputs, out)
        assert result.delta is not None, result.full_because
        full_out = folder / "full"
        shutil.rmtree(full_out, ignore_errors=True)
        build(inputs, full_out, full=True)
        assert quads(out) == quads(full_out)
        assert (out / "graph.ttl").read_bytes() == (full_out / "graph.ttl").read_bytes()
        labels.append(objects(out, ZORBQA, SKOS.prefLabel))
    assert labels == [{"ZorbQA"}, {"ZorbQA"}, {"ZorbQA"}, set(), {"ZorbQA"}]
    # the open task went with its last paper, and so did the concepts only it held
    assert objects(out, CROWD, SKOS.prefLabel) == set()
    assert objects(out, TASK_BASE + "forecasting", SKOS.prefLabel) == set()


def test_the_graph_conforms_to_the_shapes(folder: Path) -> None:
    inputs, out = folder / "in", folder / "out"
    write(inputs / "a.jsonl", [SEGMENTATION, INTRODUCER, USER, OTHER_USER])
    build(inputs, out)
    graph = rdflib.Graph().parse(out / "graph.ttl", format="turtle")
    shapes = rdflib.Graph().parse(ontology_path("shapes.ttl"), format="turtle")
    conforms, _, text = pyshacl.validate(graph, shacl_graph=shapes, advanced=True)
    assert conforms, text


def test_every_triple_of_a_scheme_has_one_owner() -> None:
    """A delta changes the triples of the concepts whose sums it touches: no triple may belong to two."""
    for scheme in (task_scheme(), dataset_scheme()):
        seen: set[str] = set()
        for triples in scheme.owned.values():
            for t in triples:
                assert str(t) not in seen
                seen.add(str(t))
        # every broader concept of a chain is a concept of the scheme
        for slug in list(scheme.owned)[:500]:
            assert scheme.chain(slug) <= set(scheme.owned)


def test_exports_and_views_carry_tasks_and_datasets(folder: Path) -> None:
    from kg.exporters.csvfolder import PAPER_COLUMNS, paper_rows
    from kg.project import papers

    inputs, out = folder / "in", folder / "out"
    write(inputs / "a.jsonl", [SEGMENTATION, INTRODUCER, USER])
    build(inputs, out)
    store = stores.open_store(out)
    rows = {row[0]: dict(zip(PAPER_COLUMNS, row, strict=True)) for row in paper_rows(store)}
    user = rows[PAPER + "3"]
    assert user["tasks"] == user["main_tasks"] == "crowd forecasting"
    assert user["datasets"] == "ActivityNet-RTL; ZorbQA"
    assert rows[PAPER + "1"]["datasets"] == "ADE20K; Cityscapes"
    # the papers view: tasks and datasets are nodes of their own; a dataset one paper introduces and
    # another uses is a dataset (as the site files it), linked to both
    view = papers(store)
    assert view.nodes[TASK_BASE + "semantic-segmentation"]["type"] == "task"
    assert view.nodes[ZORBQA]["type"] == "dataset"
    assert {view.edges[PAPER + "2", ZORBQA]["relation"], view.edges[PAPER + "3", ZORBQA]["relation"]} == {
        "introduces",
        "usesDataset",
    }


def test_site_pages_list_the_tasks_and_datasets_of_their_papers(folder: Path) -> None:
    """A task's page lists the datasets its papers use, a dataset's page their tasks, a paper's page
    both."""
    from kg.site import SiteOptions
    from kg.site import write as write_site

    inputs, out = folder / "in", folder / "out"
    write(inputs / "a.jsonl", [SEGMENTATION, INTRODUCER, USER, OTHER_USER])
    build(inputs, out)
    site = folder / "site"
    write_site(stores.open_store(out), site, SiteOptions(min_papers=1))

    def text(page: Path) -> str:
        return " ".join(page.read_text(encoding="utf-8").split())

    task = text(site / "task" / "crowd-forecasting.html")
    assert "Datasets of the same papers" in task and "ZorbQA" in task and "nuScenes" in task
    dataset = text(site / "dataset" / "ZorbQA.html")
    assert "Tasks of the same papers" in dataset and "crowd forecasting" in dataset
    [paper_page] = [p for p in (site / "paper").glob("*.html") if "Aerial Images</h1>" in text(p)]
    assert "Cityscapes" in text(paper_page) and ">Tasks<" in text(paper_page)
    # a person's page: the tasks and datasets of their papers
    [person_page] = [
        p for p in (site / "person").glob("*.html") if "ZorbQA" in text(p) and "crowd forecasting" in text(p)
    ][:1]
    assert "Tasks of their papers" in text(person_page) and "Datasets of their papers" in text(person_page)


def test_a_task_page_shows_the_methods_rising_on_its_papers(folder: Path) -> None:
    """LoRA goes from 2 of a task's 20 papers in one month to 10 of 20 five months later: it leads the
    task page's rising table; a method of one paper in the last window is no trend."""
    from kg.site import SiteOptions
    from kg.site import write as write_site

    def dated(month: int, number: int, lora: bool, other: bool = False) -> dict[str, Any]:
        made = paper(number, f"Semantic Segmentation of Scenes {number}", "We study semantic segmentation.")
        uses = " We fine-tune it with LoRA." if lora else " We use dropout." if other else ""
        return {
            **made,
            "id": f"25{month:02d}.{number:05d}",
            "summary": made["summary"] + uses,
            "update_date": f"2025-{month:02d}-02",
            "versions": [
                {"version": "v1", "created": f"Mon, 2 {['Jan', 'Jun'][month > 1]} 2025 00:00:00 GMT"}
            ],
        }

    papers = [dated(1, n, lora=n < 2) for n in range(20)]
    papers += [dated(6, 100 + n, lora=n < 10, other=n == 19) for n in range(20)]
    inputs, out = folder / "in", folder / "out"
    write(inputs / "a.jsonl", papers)
    build(inputs, out)
    site = folder / "site"
    write_site(stores.open_store(out), site, SiteOptions(min_papers=1))
    page = " ".join((site / "task" / "semantic-segmentation.html").read_text(encoding="utf-8").split())
    table = page[page.index("Methods rising on it") :]
    table = table[: table.index("</table>")]
    assert "LoRA" in table and "2 (10%)" in table and "10 (50%)" in table and "+40.0" in table
    assert "dropout" not in table.lower()
