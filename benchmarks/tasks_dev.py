"""Score the tasks extractor on the hand-annotated dev set, on two fixed halves, and time it on the arXiv days.

    PYTHONPATH=. python benchmarks/tasks_dev.py [--data DIR] [--show N] [--cost]

Runs :func:`kg.extractors.tasks.extract` (and the methods extractor, for the datasets a paper
introduces: those are not datasets it uses) on every paper of ``DIR/methods_gold_dev/sample.json``,
writes a small graph in the shape the dev set's scorer reads (``taskscore.py``: each paper with its
``dcterms:title``; tasks typed ``kg:Task`` with labels and ``kg:evidence`` of the matched text, main
tasks by ``kg:mainTask``; datasets typed ``schema:Dataset``, linked by ``kg:usesDataset``) and scores it
on two fixed halves: *tune*, the papers whose misses a developer may read, and *hold*, kept aside to
check that a change generalizes (never read its misses).  A paper is in the hold half when the SHA-1
of its key is odd (``held_out``); the keys of each half are listed in ``docs/tasks.md``.

``--cost`` times every extractor of the build over the records of the eighteen arXiv days
(``arxiv_daily_listings`` and ``arxiv_daily_more``), and this one beside them, in alternating chunks
so that both see the same load, and prints the CPU milliseconds per record and the ratio of all
together to the build's extractors alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import rdflib
from rdflib.namespace import DCTERMS, RDF, SKOS

from kg.errors import IssueLog
from kg.extractors import EXTRACTORS, methods, tasks
from kg.extractors.tasks.words import compact
from kg.records import Location, Mention, Record, SourceFile, Span
from kg.vocab import KG_BASE

ROOT = Path(__file__).resolve().parents[1]
SDO = rdflib.Namespace("https://schema.org/")
KG = rdflib.Namespace(KG_BASE)
TASK = rdflib.Namespace(tasks.TASK_BASE)
DATASET = rdflib.Namespace(tasks.DATASET_BASE)
NEW_TASK = rdflib.Namespace("https://w3id.org/kg/id/task/")
NEW_DATASET = rdflib.Namespace("https://w3id.org/kg/id/dataset/")


def held_out(key: str) -> bool:
    """Whether a paper is in the hold half: the SHA-1 of its key is odd."""
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % 2 == 1


def used_datasets(record: Record, found: list[Mention]) -> list[Mention]:
    """The dataset mentions of a record that are not a name the paper itself introduces (the methods
    extractor's ``introduced-resource`` or ``introduced-method``: the same key, or the same name)."""
    introduced = [m for m in methods.extract(record, IssueLog()) if m.kind.startswith("introduced-")]
    keys = {m.key for m in introduced} | {compact(m.text) for m in introduced}
    return [m for m in found if m.kind == "dataset" and m.key not in keys and compact(m.text) not in keys]


def graph_of(sample: list[dict[str, str]]) -> tuple[rdflib.Graph, float]:
    """The extractor's graph of the sample and the CPU seconds the tasks extractor took."""
    g = rdflib.Graph()
    g.bind("kg", KG)
    task_concepts = tasks.default_finder().tasks.concepts
    dataset_concepts = tasks.default_finder().datasets.concepts
    source, at = SourceFile("dev", "dev", "dev"), Location("dev", 1)
    seconds = 0.0
    for i, paper in enumerate(sample):
        node = rdflib.URIRef(f"https://w3id.org/kg/id/paper/{i}")
        g.add((node, RDF.type, SDO.ScholarlyArticle))
        g.add((node, DCTERMS.title, rdflib.Literal(paper["title"])))
        record = Record(
            "dev", source, at, title=Span(paper["title"], at), abstract=Span(paper["abstract"], at)
        )
        t0 = time.process_time()
        found = list(tasks.extract(record, IssueLog()))
        seconds += time.process_time() - t0
        mentions = [m for m in found if m.kind == "task"] + used_datasets(record, found)
        for n, m in enumerate(mentions):
            is_task = m.kind == "task"
            known = task_concepts if is_task else dataset_concepts
            concept = (
                (TASK if is_task else DATASET)[m.key]
                if m.key in known
                else ((NEW_TASK if is_task else NEW_DATASET)[m.key])
            )
            g.add((concept, RDF.type, KG.Task if is_task else SDO.Dataset))
            if m.key in known:
                for label in known[m.key].labels:
                    g.add((concept, SKOS.altLabel, rdflib.Literal(label)))
            g.add((concept, SKOS.prefLabel, rdflib.Literal(m.get("label") or m.text)))
            g.add((node, SDO.about if is_task else KG.usesDataset, concept))
            if m.get("main") == "true":
                g.add((node, KG.mainTask, concept))
            evidence = rdflib.URIRef(f"https://w3id.org/kg/id/evidence/{i}-{n}")
            g.add((node, KG.evidence, evidence))
            g.add((evidence, KG.evidenceOf, concept))
            g.add((evidence, KG.matchedText, rdflib.Literal(m.text)))
    return g, seconds


def score(folder: Path, gold: list[dict[str, object]], ttl: Path, show: int) -> str:
    """The scorer's summary line on ``gold`` (and ``show`` misses and false hits)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(gold, f)
    cmd = [
        sys.executable,
        str(folder / "taskscore.py"),
        "score",
        str(folder / "sample.json"),
        f.name,
        str(ttl),
    ]
    if show:
        cmd += ["--show", str(show)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    Path(f.name).unlink()
    return out.stdout.strip() or out.stderr.strip()


def miss_causes(
    sample: list[dict[str, str]], gold: list[dict[str, object]], graph: rdflib.Graph, folder: Path
) -> dict[str, int]:
    """The gold tasks the extractor misses, counted by cause: written as a verb or clause ("evaluate the
    economic biases of LLMs"), ending in no task word ("tool use" as "LM tooling"), a task word in the text
    but no context that names it as a task, or found under another phrasing the scorer does not match."""
    from kg.extractors.tasks.lexicon import HEAD_TRIGGERS, VERB_FORMS
    from kg.extractors.tasks.words import label_key

    sys.path.insert(0, str(folder))
    from methodscore import norm  # type: ignore[import-not-found]
    from taskscore import match  # type: ignore[import-not-found]

    found: dict[str, set[str]] = {}
    for i, paper in enumerate(sample):
        node = rdflib.URIRef(f"https://w3id.org/kg/id/paper/{i}")
        labels = found.setdefault(str(paper["key"]), set())
        for concept in graph.objects(node, SDO.about):
            labels |= {norm(o) for o in graph.objects(concept, SKOS.prefLabel)}
            labels |= {norm(o) for o in graph.objects(concept, SKOS.altLabel)}
        for evidence in graph.objects(node, KG.evidence):
            labels |= {norm(o) for o in graph.objects(evidence, KG.matchedText)}
    causes = {
        "a verb or a clause": 0,
        "no task word": 0,
        "a task word without context": 0,
        "another phrasing": 0,
    }
    last_words = set(tasks.default_finder().tasks.last_of) | set(HEAD_TRIGGERS)
    for item in gold:
        for task in item.get("tasks", []):  # type: ignore[attr-defined]
            if match(found.get(str(item["key"]), set()), task):
                continue
            keys = [label_key(s) for s in task.get("surface", [])] or [label_key(task["name"])]
            words = [k.split() for k in keys if k]
            if any(w[0] in VERB_FORMS or {"of", "to", "the", "a"} & set(w[1:]) for w in words):
                causes["a verb or a clause"] += 1
            elif not any(w[-1] in last_words for w in words):
                causes["no task word"] += 1
            elif not any(w[-1] in HEAD_TRIGGERS for w in words):
                causes["another phrasing"] += 1
            else:
                causes["a task word without context"] += 1
    return causes


def cost(data: Path, rounds: int = 3) -> None:
    """CPU ms per record of every extractor of the build, and of the tasks extractor beside them.

    The two are timed in alternating chunks of 50 records, so that both see the same load (the machine
    is shared), over ``rounds`` passes; each figure is the least of its passes.
    """
    from kg.readers import read_file

    log = IssueLog()
    records = [
        r
        for folder in ("arxiv_daily_listings", "arxiv_daily_more")
        for path in sorted((data / folder).glob("*.jsonl"))
        for r in read_file(path, log)
    ]
    others = [module for module in EXTRACTORS.values() if module is not tasks]  # today's: tasks registered
    for module in [*others, tasks]:
        getattr(module, "warm", lambda: None)()
    for r in records:  # a warm-up pass: caches filled, every word seen once
        for module in [*others, tasks]:
            list(module.extract(r, log))
    passes = []
    for _ in range(rounds):
        before = alone = 0.0
        for lo in range(0, len(records), 50):
            chunk = records[lo : lo + 50]
            t0 = time.process_time()
            for r in chunk:
                for module in others:
                    for _m in module.extract(r, log):
                        pass
            t1 = time.process_time()
            for r in chunk:
                for _m in tasks.extract(r, log):
                    pass
            t2 = time.process_time()
            before += t1 - t0
            alone += t2 - t1
        passes.append((before, alone))
    before = min(b for b, _a in passes)
    alone = min(a for _b, a in passes)
    n = len(records)
    print(
        f"{n} records of the eighteen arXiv days, one core, CPU time after a warm-up pass, least of {rounds}"
    )
    print(f"  extractors of the build:  {1000 * before / n:.3f} ms/record")
    print(f"  the tasks extractor:      {1000 * alone / n:.3f} ms/record")
    print(
        f"  all together:             {1000 * (before + alone) / n:.3f} ms/record ({(before + alone) / before:.2f}x)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--show", type=int, default=0, help="misses and false hits to list (tune half only)")
    parser.add_argument(
        "--cost", action="store_true", help="time the extractors over the eighteen arXiv days"
    )
    parser.add_argument(
        "--causes", action="store_true", help="count the missed tasks of the tune half by cause"
    )
    args = parser.parse_args()
    if args.cost:
        cost(args.data)
        return
    folder = args.data / "methods_gold_dev"
    sample = json.loads((folder / "sample.json").read_text(encoding="utf-8"))
    gold = json.loads((folder / "gold.json").read_text(encoding="utf-8"))
    graph, seconds = graph_of(sample)
    print(f"extraction: {len(sample)} papers in {seconds:.2f} CPU s")
    with tempfile.TemporaryDirectory() as tmp:
        ttl = Path(tmp) / "graph.ttl"
        graph.serialize(ttl, format="turtle")
        halves = {
            "tune": [g for g in gold if not held_out(g["key"])],
            "hold": [g for g in gold if held_out(g["key"])],
            "all": gold,
        }
        for name, part in halves.items():
            print(
                f"{name:4} ({len(part):3} papers): {score(folder, part, ttl, args.show if name == 'tune' else 0)}"
            )
    if args.causes:  # the tune half only: the hold half's misses are never read, not even by cause
        for cause, n in miss_causes(sample, halves["tune"], graph, folder).items():
            print(f"  missed tasks, {cause}: {n}")


if __name__ == "__main__":
    main()
