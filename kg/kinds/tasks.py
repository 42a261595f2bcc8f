"""Tasks and datasets: what a paper works on (``schema:about``; its main tasks also ``kg:mainTask``) and
the datasets it uses (``kg:usesDataset``), each with the evidence of its first mention, papers per
year, and the concepts of the task and dataset schemes the papers use.

Known tasks and datasets are concepts of ``ontology/tasks.ttl`` and ``ontology/datasets.ttl``.  The
graph holds the concepts its papers use, each with its broader chain up to the scheme (and a dataset's
the tasks it is a benchmark for, with theirs), not the ten thousand concepts of the two schemes whole
(``docs/tasks.md`` gives the measurements).  Which concepts that is, is a sum like any other
(``task-concept``, ``dataset-concept``: the papers whose chains hold the concept), so a delta adds and
takes concepts as papers come and go and equals a full build; every triple of a scheme's file has one
owner (a concept, or the scheme itself), so no two keys make one triple.

A task phrase no list holds ("crowd forecasting") is a ``kg:Task`` of its own, ``<base>task/KEY`` in
the scheme of tasks named by papers (``<base>tasks``), under the known task its phrase ends in,
labelled by its least spelling.  A dataset no list holds is ``<base>resource/KEY``: the node a paper
that introduces the name gives it (the methods extractor's ``introduced-resource`` and this kind's
``dataset`` mentions have one key for one name, ``kg.extractors.methods.name_key``), described by
:class:`kg.kinds.methods.IntroducedResources` from both: one concept, named by its introducer when
there is one.  A paper never uses a dataset it introduces.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pyoxigraph as ox

from kg.kinds import (
    Kind,
    Listing,
    PaperNode,
    Shared,
    SumKey,
    Triple,
    count_sums,
    count_triples,
    detail_of,
    evidence_triples,
    mentions_of,
)
from kg.kinds.methods import RESOURCE_SCHEME, Introduced
from kg.records import Mention
from kg.terms import Namer, dataset_iri, string, task_iri
from kg.vocab import DATASET_BASE, KG, RDF, SCHEMA, SKOS, TASK_BASE, ontology_path

TASK_PAGES = Listing("task", "tasks", ("schema:about",), topics=("schema:about",), precedence=6)
DATASET_PAGES = Listing("dataset", "datasets", ("kg:usesDataset",), precedence=7)
"""A dataset a paper introduces and others use is filed as a dataset (its users' page), not as a method."""

SCHEME_KEY = ""
"""The key of a scheme's own node among its concepts' (the scheme holds when any concept does)."""


@dataclass(slots=True)
class Scheme:
    """The triples of a SKOS file, each owned by one concept (``SCHEME_KEY``: the scheme), and the
    links the chains follow."""

    owned: dict[str, tuple[Triple, ...]]
    broader: dict[str, tuple[str, ...]]
    benchmark_for: dict[str, tuple[str, ...]]
    """A dataset's tasks (``kg:benchmarkFor``), as task slugs."""
    _chains: dict[str, frozenset[str]] = field(default_factory=dict)

    def chain(self, slug: str) -> frozenset[str]:
        """``slug``, every concept above it (``skos:broader``, transitively) and the scheme; nothing for a
        slug the scheme does not have."""
        found = self._chains.get(slug)
        if found is not None:
            return found
        seen: set[str] = set()
        todo = [slug] if slug in self.owned else []
        while todo:
            at = todo.pop()
            if at not in seen:
                seen.add(at)
                todo.extend(self.broader.get(at, ()))
        if seen:
            seen.add(SCHEME_KEY)
        found = self._chains[slug] = frozenset(seen)
        return found

    def chains(self, slugs: Iterable[str]) -> set[str]:
        return set().union(*(self.chain(s) for s in slugs))


def read_scheme(name: str, base: str) -> Scheme:
    """The concepts of ``ontology/NAME`` under ``base``, with the triples each owns: a concept its own
    statements and the scheme's ``skos:hasTopConcept`` of it; the scheme the rest of its own."""
    owned: dict[str, list[Triple]] = {}
    broader: dict[str, list[str]] = {}
    tasks: dict[str, list[str]] = {}
    scheme = base + "scheme"
    with ontology_path(name).open("rb") as f:
        for t in ox.parse(f, format=ox.RdfFormat.TURTLE):
            subject, predicate, value = t.subject.value, t.predicate, t.object
            if subject == scheme:
                top = predicate == SKOS.hasTopConcept and value.value.startswith(base)
                owner = value.value[len(base) :] if top else SCHEME_KEY
            elif subject.startswith(base):
                owner = subject[len(base) :]
            else:
                continue
            owned.setdefault(owner, []).append(Triple(t.subject, predicate, value))
            if owner and isinstance(value, ox.NamedNode):
                if predicate == SKOS.broader and value.value.startswith(base):
                    broader.setdefault(owner, []).append(value.value[len(base) :])
                elif predicate == KG.benchmarkFor and value.value.startswith(TASK_BASE):
                    tasks.setdefault(owner, []).append(value.value[len(TASK_BASE) :])
    return Scheme(
        {k: tuple(v) for k, v in owned.items()},
        {k: tuple(sorted(v)) for k, v in broader.items()},
        {k: tuple(sorted(v)) for k, v in tasks.items()},
    )


@lru_cache(maxsize=1)
def task_scheme() -> Scheme:
    """The task scheme (``ontology/tasks.ttl``), read once."""
    return read_scheme("tasks.ttl", TASK_BASE)


@lru_cache(maxsize=1)
def dataset_scheme() -> Scheme:
    """The dataset scheme (``ontology/datasets.ttl``), read once."""
    return read_scheme("datasets.ttl", DATASET_BASE)


def scheme_triples(shared: Shared, channel: str, scheme: Scheme) -> Iterator[Triple]:
    """The triples of the concepts of ``scheme`` whose sum in ``channel`` is not 0."""
    for key, _, _, _ in shared.of(channel):
        yield from scheme.owned.get(key, ())


def rows(mentions: Iterable[Mention]) -> list[list[Any]]:
    """A paper's mentions of one kind as the ledger keeps them, one row per key in text order:
    ``[key, text, detail]``, the first mention's, ``main`` true when any mention of the key is main."""
    first: dict[str, Mention] = {}
    main: set[str] = set()
    for m in mentions:
        first.setdefault(m.key, m)
        if m.get("main") == "true":
            main.add(m.key)
    out = []
    for key, m in first.items():
        detail = [[k, v] for k, v in m.detail if k != "main"]
        if key in main:
            detail.append(["main", "true"])
        out.append([key, m.text, sorted(detail)])
    return out


def is_open(row: list[Any]) -> bool:
    """Whether a kept mention names a concept no list holds."""
    return detail_of(row, "open") == "true"


def _split(kept: list[list[Any]], above: str) -> tuple[list[str], list[list[Any]], list[str]]:
    """A paper's kept mentions: the keys of known concepts, the rows of open ones, and the known
    concepts the open ones are under (their detail ``above``: ``broader``, ``variant-of``)."""
    opened = [row for row in kept if is_open(row)]
    known = [row[0] for row in kept if not is_open(row)]
    return known, opened, [v for row in opened for v in (detail_of(row, above),) if v]


def open_task(namer: Namer, key: str) -> ox.NamedNode:
    """The node of a task phrase no list holds."""
    return namer.entity("task", key)


def open_scheme(namer: Namer) -> ox.NamedNode:
    """The scheme of the tasks named by papers (``<base>tasks``)."""
    return ox.NamedNode(namer.base + "tasks")


@dataclass(slots=True)
class OpenTask:
    """What the mentions of a task phrase no list holds say of it: its least label, the known tasks it
    is a kind of."""

    label: str
    broader: frozenset[str]


class Tasks(Kind):
    """``paper schema:about task`` (its main tasks also ``kg:mainTask``), with the evidence of the first
    mention; papers per year; the task scheme's concepts papers use; tasks no list holds."""

    name = "task"
    listing = TASK_PAGES

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        first = {m.key: m for m in reversed(list(mentions_of(paper, self.name)))}
        for row in self.keep(paper):
            key = row[0]
            node = open_task(at.namer, key) if is_open(row) else task_iri(key)
            yield Triple(at.node, SCHEMA.about, node)
            if detail_of(row, "main") == "true":
                yield Triple(at.node, KG.mainTask, node)
            evidence = at.namer.evidence(at.key, ("open-task-" if is_open(row) else "task-") + key)
            yield from evidence_triples(at, node, evidence, first[key])

    def keep(self, paper: Any) -> Any:
        return rows(mentions_of(paper, self.name))

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        if dropped or not kept:
            return
        known, opened, above = _split(kept, "broader")
        yield from count_sums("task", known, year)
        yield from count_sums("open-task", (row[0] for row in opened), year)
        for key in sorted(task_scheme().chains([*known, *above])):
            yield ("task-concept", key, ""), ""
        if opened:
            yield ("open-task", "", ""), ""

    def described(self, kept: Any) -> Iterator[tuple[str, str]]:
        return ((self.name, row[0]) for row in kept if is_open(row))

    def describe(self, kept: Any, shared: Shared, only: set[tuple[str, str]] | None) -> None:
        for row in kept:
            if not is_open(row) or (only is not None and (self.name, row[0]) not in only):
                continue
            label = detail_of(row, "label") or row[1]
            above = frozenset(b for b in (detail_of(row, "broader"),) if b)
            seen = shared.described.get((self.name, row[0]))
            if seen is None:
                shared.described[self.name, row[0]] = OpenTask(label, above)
            else:
                seen.label = min(seen.label, label)
                seen.broader |= above

    def holders(self, namer: Namer, key: str) -> Iterator[tuple[ox.NamedNode, ox.NamedNode]]:
        yield SCHEMA.about, open_task(namer, key)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        yield from scheme_triples(shared, "task-concept", task_scheme())
        if any(True for _ in shared.of("open-task")):
            scheme = open_scheme(namer)
            yield Triple(scheme, RDF.type, SKOS.ConceptScheme)
            yield Triple(scheme, SKOS.prefLabel, ox.Literal("Tasks named by papers", language="en"))
        for (kind, key), summary in sorted(shared.described.items()):
            if kind == self.name:
                yield from _open_task_triples(namer, key, summary)
        yield from count_triples(shared, "task", task_iri, namer)
        yield from count_triples(shared, "open-task", lambda key: open_task(namer, key), namer)


def _open_task_triples(namer: Namer, key: str, summary: OpenTask) -> Iterator[Triple]:
    node = open_task(namer, key)
    yield Triple(node, RDF.type, KG.Task)
    yield Triple(node, RDF.type, SKOS.Concept)
    yield Triple(node, SKOS.inScheme, open_scheme(namer))
    yield Triple(node, SKOS.prefLabel, string(summary.label))
    for slug in sorted(summary.broader):
        yield Triple(node, SKOS.broader, task_iri(slug))


def _own_keys(paper: Any) -> set[str]:
    """The name keys of the datasets and benchmarks a paper introduces (the part of a concept key before
    its ``--``: ``kg.extractors.methods.bare_key``)."""
    return {m.key.split("--", 1)[0] for m in mentions_of(paper, "introduced-resource")}


class Datasets(Kind):
    """``paper kg:usesDataset dataset`` with the evidence of the first mention; papers per year; the
    dataset scheme's concepts papers use (and the tasks they are benchmarks for); a name no list holds
    is the node of the dataset a paper introduces under it (described by ``introduced-resource``)."""

    name = "dataset"
    listing = DATASET_PAGES

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        wanted = {row[0]: row for row in self.keep(paper)}
        for m in mentions_of(paper, self.name):
            row = wanted.pop(m.key, None)
            if row is None:
                continue
            node = at.namer.resource(m.key) if is_open(row) else dataset_iri(m.key)
            yield Triple(at.node, KG.usesDataset, node)
            evidence = at.namer.evidence(at.key, ("resource-" if is_open(row) else "dataset-") + m.key)
            yield from evidence_triples(at, node, evidence, m)

    def keep(self, paper: Any) -> Any:
        own = _own_keys(paper)
        return rows(m for m in mentions_of(paper, self.name) if m.key not in own)

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        if dropped or not kept:
            return
        known, opened, variants = _split(kept, "variant-of")
        yield from count_sums("dataset", known, year)
        yield from count_sums("resource", (row[0] for row in opened), year)
        if opened:
            yield RESOURCE_SCHEME, ""
        scheme = dataset_scheme()
        concepts = scheme.chains([*known, *variants])
        for key in sorted(concepts):
            yield ("dataset-concept", key, ""), ""
        tasks = [t for key in concepts for t in scheme.benchmark_for.get(key, ())]
        for key in sorted(task_scheme().chains(tasks)):
            yield ("task-concept", key, ""), ""

    def described(self, kept: Any) -> Iterator[tuple[str, str]]:
        return (("introduced-resource", row[0]) for row in kept if is_open(row))

    def describe(self, kept: Any, shared: Shared, only: set[tuple[str, str]] | None) -> None:
        for row in kept:
            if is_open(row) and (only is None or ("introduced-resource", row[0]) in only):
                Introduced.add(shared.described, self.name, row)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        yield from scheme_triples(shared, "dataset-concept", dataset_scheme())
        yield from count_triples(shared, "dataset", dataset_iri, namer)
        yield from count_triples(shared, "resource", namer.resource, namer)
