"""The method vocabulary: the SKOS concepts of ``ontology/methods.ttl`` and what each label may do."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kg.extractors.skos_file import read_facts
from kg.vocab import ontology_path

SCHEME = "https://w3id.org/kg/method/scheme"
METHOD_BASE = "https://w3id.org/kg/method/"


def taxonomy_path() -> Path:
    """Where the shipped method taxonomy lives (``ontology/methods.ttl``)."""
    return ontology_path("methods.ttl")


GENERIC = "https://w3id.org/kg/ns#generic"
MODEL_FAMILY = "https://w3id.org/kg/ns#modelFamily"
PARADIGM = "https://w3id.org/kg/ns#paradigm"


@dataclass(frozen=True, slots=True)
class Concept:
    """One method of the taxonomy: its slug, labels and broader slugs.

    ``labels`` (``skos:prefLabel`` and ``skos:altLabel``) name the concept wherever they occur;
    ``hidden`` (``skos:hiddenLabel``) are ambiguous ("SSM", "early exit") and count only in context.
    ``generic`` marks an umbrella concept (``kg:generic``); ``family`` a model family whose names
    take version and size suffixes (``kg:modelFamily``: Qwen2.5-VL-7B, YOLOv8); ``paradigm`` a broad
    paradigm most papers of a field use (``kg:paradigm``: LLMs, fine-tuning, zero-shot), which top
    lists rank apart from the methods a researcher would name.
    """

    slug: str
    pref_label: str
    labels: tuple[str, ...]
    broader: tuple[str, ...]
    hidden: tuple[str, ...] = ()
    generic: bool = False
    family: bool = False
    paradigm: bool = False


_SKOS = "http://www.w3.org/2004/02/skos/core#"
_WANTED = {
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#type": "type",
    _SKOS + "inScheme": "inScheme",
    _SKOS + "prefLabel": "prefLabel",
    _SKOS + "altLabel": "altLabel",
    _SKOS + "hiddenLabel": "hiddenLabel",
    _SKOS + "broader": "broader",
    GENERIC: "generic",
    MODEL_FAMILY: "modelFamily",
    PARADIGM: "paradigm",
}


def load_taxonomy(path: Path) -> dict[str, Concept]:
    """The concepts of a SKOS method taxonomy, by slug (read with Oxigraph's parser: rdflib's is many
    times slower on the shipped concepts, a cost every build process paid)."""
    facts = read_facts(path, _WANTED, "method taxonomy")
    concepts: dict[str, Concept] = {}
    for iri in sorted(facts):
        of = facts[iri]
        is_concept = _SKOS + "Concept" in of.get("type", ()) or SCHEME in of.get("inScheme", ())
        if not is_concept or not iri.startswith(METHOD_BASE) or iri == SCHEME:
            continue
        slug = iri[len(METHOD_BASE) :]
        prefs = sorted(of.get("prefLabel", ()))
        alts = sorted(of.get("altLabel", ()))
        hidden = tuple(sorted(of.get("hiddenLabel", ())))
        broader = sorted(o[len(METHOD_BASE) :] for o in of.get("broader", ()) if o.startswith(METHOD_BASE))
        pref = prefs[0] if prefs else slug.replace("-", " ")
        labels = tuple(dict.fromkeys([pref, *prefs[1:], *alts]))
        generic = "true" in of.get("generic", ())
        family = "true" in of.get("modelFamily", ())
        paradigm = "true" in of.get("paradigm", ())
        concepts[slug] = Concept(slug, pref, labels, tuple(broader), hidden, generic, family, paradigm)
    return concepts
