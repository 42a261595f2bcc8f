"""The method vocabulary: the SKOS concepts of ``ontology/methods.ttl`` and what each label may do."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kg.errors import KgError
from kg.vocab import ontology_path

SCHEME = "https://w3id.org/kg/method/scheme"
METHOD_BASE = "https://w3id.org/kg/method/"


def taxonomy_path() -> Path:
    """Where the shipped method taxonomy lives (``ontology/methods.ttl``)."""
    return ontology_path("methods.ttl")


GENERIC = "https://w3id.org/kg/ns#generic"
MODEL_FAMILY = "https://w3id.org/kg/ns#modelFamily"


@dataclass(frozen=True, slots=True)
class Concept:
    """One method of the taxonomy: its slug, labels and broader slugs.

    ``labels`` (``skos:prefLabel`` and ``skos:altLabel``) name the concept wherever they occur;
    ``hidden`` (``skos:hiddenLabel``) are ambiguous ("SSM", "early exit") and count only in context.
    ``generic`` marks an umbrella concept (``kg:generic``); ``family`` a model family whose names
    take version and size suffixes (``kg:modelFamily``: Qwen2.5-VL-7B, YOLOv8).
    """

    slug: str
    pref_label: str
    labels: tuple[str, ...]
    broader: tuple[str, ...]
    hidden: tuple[str, ...] = ()
    generic: bool = False
    family: bool = False


def load_taxonomy(path: Path) -> dict[str, Concept]:
    """The concepts of a SKOS method taxonomy, by slug."""
    from rdflib import Graph, Literal, URIRef
    from rdflib.namespace import RDF, SKOS

    graph = Graph()
    try:
        graph.parse(path, format="turtle")
    except (OSError, ValueError, SyntaxError) as exc:
        raise KgError(f"cannot read method taxonomy {path}: {exc}", code="bad-taxonomy") from exc
    subjects = set(graph.subjects(RDF.type, SKOS.Concept)) | set(
        graph.subjects(SKOS.inScheme, URIRef(SCHEME))
    )
    concepts: dict[str, Concept] = {}
    for subject in sorted(subjects, key=str):
        iri = str(subject)
        if not iri.startswith(METHOD_BASE) or iri == SCHEME:
            continue
        slug = iri[len(METHOD_BASE) :]
        prefs = sorted(str(o) for o in graph.objects(subject, SKOS.prefLabel))
        alts = sorted(str(o) for o in graph.objects(subject, SKOS.altLabel))
        hidden = tuple(sorted(str(o) for o in graph.objects(subject, SKOS.hiddenLabel)))
        broader = sorted(
            str(o)[len(METHOD_BASE) :]
            for o in graph.objects(subject, SKOS.broader)
            if str(o).startswith(METHOD_BASE)
        )
        pref = prefs[0] if prefs else slug.replace("-", " ")
        labels = tuple(dict.fromkeys([pref, *prefs[1:], *alts]))
        generic = (subject, URIRef(GENERIC), Literal(True)) in graph
        family = (subject, URIRef(MODEL_FAMILY), Literal(True)) in graph
        concepts[slug] = Concept(slug, pref, labels, tuple(broader), hidden, generic, family)
    return concepts
