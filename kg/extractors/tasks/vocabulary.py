"""The task and dataset vocabularies: the SKOS concepts of ``ontology/tasks.ttl`` and ``ontology/datasets.ttl``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kg.extractors.skos_file import read_facts
from kg.vocab import DATASET_BASE, KG, SKOS, TASK_BASE, ontology_path

TASK_SCHEME = TASK_BASE + "scheme"
DATASET_SCHEME = DATASET_BASE + "scheme"

_WANTED = {
    SKOS.prefLabel.value: "pref",
    SKOS.altLabel.value: "alt",
    SKOS.hiddenLabel.value: "hidden",
    SKOS.broader.value: "broader",
    SKOS.topConceptOf.value: "top",
    KG.generic.value: "generic",
    KG.ambiguousName.value: "ambiguous",
    KG.benchmarkFor.value: "tasks",
}


@dataclass(frozen=True, slots=True)
class Concept:
    """A task or dataset of a vocabulary: its slug, labels and broader slugs.

    ``labels`` (``skos:prefLabel`` first, then ``skos:altLabel``) name it wherever they occur;
    ``hidden`` (``skos:hiddenLabel``) only in context.  For a task, ``generic`` marks an umbrella task
    (``kg:generic``) and ``area`` a research area (a top concept, never matched from text); for a
    dataset, ``ambiguous`` says that even its preferred name is an everyday word (``kg:ambiguousName``).
    """

    slug: str
    pref: str
    labels: tuple[str, ...]
    hidden: tuple[str, ...] = ()
    broader: tuple[str, ...] = ()
    generic: bool = False
    area: bool = False
    ambiguous: bool = False
    tasks: tuple[str, ...] = ()
    """For a dataset: the slugs of the tasks it is a benchmark for (``kg:benchmarkFor``)."""


def tasks_path() -> Path:
    """Where the shipped task scheme lives (``ontology/tasks.ttl``)."""
    return ontology_path("tasks.ttl")


def datasets_path() -> Path:
    """Where the shipped dataset scheme lives (``ontology/datasets.ttl``)."""
    return ontology_path("datasets.ttl")


def load_concepts(path: Path, base: str) -> dict[str, Concept]:
    """The concepts under ``base`` of a SKOS file, by slug (read with Oxigraph's parser, as the method
    taxonomy is: rdflib's would cost every build process a second)."""
    facts = read_facts(path, _WANTED, "vocabulary")
    concepts: dict[str, Concept] = {}
    for iri in sorted(facts):
        of = facts[iri]
        if not iri.startswith(base) or iri == base + "scheme" or not of.get("pref"):
            continue
        slug = iri[len(base) :]
        prefs = sorted(of.get("pref", ()))
        labels = tuple(dict.fromkeys([*prefs, *sorted(of.get("alt", ()))]))
        broader = tuple(sorted(o[len(base) :] for o in of.get("broader", ()) if o.startswith(base)))
        concepts[slug] = Concept(
            slug,
            prefs[0],
            labels,
            tuple(sorted(of.get("hidden", ()))),
            broader,
            generic="true" in of.get("generic", ()),
            area=bool(of.get("top")),
            ambiguous="true" in of.get("ambiguous", ()),
            tasks=tuple(sorted(o[len(TASK_BASE) :] for o in of.get("tasks", ()) if o.startswith(TASK_BASE))),
        )
    return concepts
