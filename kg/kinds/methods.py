"""Methods: the known methods a paper mentions, the methods it names that no list holds, and the
methods, datasets and libraries it introduces (the living vocabulary, docs/open-vocabulary.md).

A name a paper introduces and a name another paper mentions are one concept (one key, one node),
described once from all their mentions: the least label of the papers that introduce it (the
introducer names it), else of those that name it; its long and short forms; the known methods it is
a kind of (``skos:broader``) or related to.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
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
    first_each,
    mention_rows,
    mentions_of,
)
from kg.terms import Namer, dataset_iri, method_iri, string
from kg.vocab import KG, RDF, SCHEMA, SKOS

METHOD_PAGES = Listing(
    "method", "methods", ("schema:mentions", "kg:introduces"), topics=("schema:mentions",), precedence=9
)
"""Known, named and introduced methods share the site's method pages."""


class Methods(Kind):
    """``paper schema:mentions method:SLUG`` with the evidence of the first mention, counted per year."""

    name = "method"
    listing = METHOD_PAGES

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for m in first_each(mentions_of(paper, self.name)):
            concept = method_iri(m.key)
            yield Triple(at.node, SCHEMA.mentions, concept)
            yield from evidence_triples(at, concept, at.namer.evidence(at.key, m.key), m)

    def keep(self, paper: Any) -> Any:
        return sorted({m.key for m in mentions_of(paper, self.name)})

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        if not dropped:
            yield from count_sums("method", kept, year)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        yield from count_triples(shared, "method", method_iri, namer)


NAMING = {"named-method": "introduced-method", "dataset": "introduced-resource"}
"""The kinds of mention that name a node another kind introduces (a method no list holds, a dataset
papers use: ``kg.kinds.tasks``), and that kind."""


@dataclass(slots=True)
class Introduced:
    """What the mentions of an introduced or named name say of it: the least label (of the papers
    that introduce it when there are any: the introducer names it), resource type, long form and
    short form (of those given), and every related and broader method slug."""

    label: str
    type: str
    full: str
    short: str
    related: frozenset[str]
    broader: frozenset[str]
    introduced: bool
    """Whether a paper introduces it (else papers only name it)."""
    variants: frozenset[str] = frozenset()
    """For a dataset papers use: the known datasets (slugs) its name is a variant of ("ActivityNet-RTL")."""

    @staticmethod
    def add(summaries: dict[tuple[str, str], Any], kind: str, row: list[Any]) -> None:
        """Add one kept mention (``[key, text, detail]``) of ``kind`` to the summary of its node."""
        key, text = row[0], row[1]
        related = frozenset(slug for slug in detail_of(row, "related").split(";") if slug)
        broader = frozenset((detail_of(row, "broader"),)) if detail_of(row, "broader") else frozenset()
        variants = frozenset((detail_of(row, "variant-of"),)) if detail_of(row, "variant-of") else frozenset()
        named = kind in NAMING
        label = (detail_of(row, "label") or text) if named else text
        node_kind = NAMING.get(kind, kind)
        kind_type = detail_of(row, "type", "dataset")
        seen = summaries.get((node_kind, key))
        if seen is None:
            summaries[node_kind, key] = Introduced(
                label,
                kind_type,
                detail_of(row, "full"),
                detail_of(row, "short"),
                related,
                broader,
                not named,
                variants,
            )
            return
        if named != seen.introduced:  # a label of the same standing: the least
            seen.label = min(seen.label, label)
        elif not named:  # the first introducing paper: its label wins over the names others wrote
            seen.label = label
            seen.introduced = True
        seen.type = min(seen.type, kind_type)
        seen.full = _least(seen.full, detail_of(row, "full"))
        seen.short = _least(seen.short, detail_of(row, "short"))
        if not related <= seen.related:
            seen.related |= related
        if not broader <= seen.broader:
            seen.broader |= broader
        if not variants <= seen.variants:
            seen.variants |= variants

    def triples(self, resource: bool, key: str, namer: Namer) -> Iterator[Triple]:
        node = namer.resource(key) if resource else namer.introduced(key)
        label = self.label
        if resource:
            yield Triple(node, SCHEMA.name, string(label))
            yield Triple(node, SKOS.prefLabel, string(label))
            if self.type == "library":
                yield Triple(node, RDF.type, SCHEMA.SoftwareApplication)
                return
            # a dataset is a concept of the scheme of datasets named by papers, as the known ones are of theirs
            yield Triple(node, RDF.type, SCHEMA.Dataset)
            yield Triple(node, RDF.type, SKOS.Concept)
            yield Triple(node, SKOS.inScheme, namer.resource_scheme())
            for slug in sorted(self.variants):
                yield Triple(node, SKOS.broader, dataset_iri(slug))
            return
        yield Triple(node, RDF.type, KG.Method)
        yield Triple(node, RDF.type, SKOS.Concept)
        yield Triple(node, SKOS.inScheme, namer.introduced_scheme())
        yield Triple(node, SKOS.prefLabel, string(label))
        if self.full and self.full != label:
            yield Triple(node, SKOS.altLabel, string(self.full))
        if self.short:
            yield Triple(node, KG.shortForm, string(self.short))
        for slug in sorted(self.broader):
            yield Triple(node, SKOS.broader, method_iri(slug))
        for slug in sorted(self.related):
            if slug not in self.broader:
                yield Triple(node, SKOS.related, method_iri(slug))


def _least(a: str, b: str) -> str:
    """The lesser of two strings that are given (non-empty); empty when neither is."""
    return min(a, b) if a and b else a or b


class _Described(Kind):
    """A kind of mention whose node is described from every mention of it (see :class:`Introduced`)."""

    def keep(self, paper: Any) -> Any:
        return mention_rows(mentions_of(paper, self.name))

    def described(self, kept: Any) -> Iterator[tuple[str, str]]:
        return ((self.node_kind or self.name, row[0]) for row in kept)

    def describe(self, kept: Any, shared: Shared, only: set[tuple[str, str]] | None) -> None:
        node_kind = self.node_kind or self.name
        for row in kept:
            if only is None or (node_kind, row[0]) in only:
                Introduced.add(shared.described, self.name, row)


def introduced_scheme_triples(namer: Namer) -> Iterator[Triple]:
    scheme = namer.introduced_scheme()
    yield Triple(scheme, RDF.type, SKOS.ConceptScheme)
    yield Triple(scheme, SKOS.prefLabel, ox.Literal("Methods introduced by papers", language="en"))


class IntroducedMethods(_Described):
    """``paper kg:introduces <base>method/KEY``: a new ``kg:Method`` in the scheme of introduced methods."""

    name = "introduced-method"
    listing = METHOD_PAGES

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for m in first_each(mentions_of(paper, self.name)):
            yield Triple(at.node, KG.introduces, at.namer.introduced(m.key))

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        if kept and not dropped:
            yield ("introducing", "", ""), ""

    def holders(self, namer: Namer, key: str) -> Iterator[tuple[ox.NamedNode, ox.NamedNode]]:
        concept = namer.introduced(key)
        yield KG.introduces, concept
        yield SCHEMA.mentions, concept

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        if any(True for _ in shared.of("introducing")):
            yield from introduced_scheme_triples(namer)
        for (kind, key), summary in sorted(shared.described.items()):
            if kind == self.name:
                yield from summary.triples(False, key, namer)


class NamedMethods(_Described):
    """``paper schema:mentions <base>method/KEY``: a method the text names that no list holds, the
    concept a paper introducing the name gets, with evidence like a known method's."""

    name = "named-method"
    node_kind = "introduced-method"
    listing = METHOD_PAGES

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for m in first_each(mentions_of(paper, self.name)):
            concept = at.namer.introduced(m.key)
            yield Triple(at.node, SCHEMA.mentions, concept)
            # the evidence key is set apart from known slugs'
            yield from evidence_triples(at, concept, at.namer.evidence(at.key, "named-" + m.key), m)

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        if kept and not dropped:
            yield ("introducing", "", ""), ""
            yield from count_sums("introduced", (row[0] for row in kept), year)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        yield from count_triples(shared, "introduced", namer.introduced, namer)


class IntroducedResources(_Described):
    """``paper kg:introduces <base>resource/KEY``: a dataset, benchmark or library a paper introduces;
    also the node of a dataset no list holds that papers use (``kg.kinds.tasks.Datasets``), labelled by
    its introducer when there is one."""

    name = "introduced-resource"
    listing = METHOD_PAGES

    def paper_triples(self, paper: Any, at: PaperNode) -> Iterator[Triple]:
        for m in first_each(mentions_of(paper, self.name)):
            yield Triple(at.node, KG.introduces, at.namer.resource(m.key))

    def sums(self, kept: Any, year: str, dropped: bool) -> Iterator[tuple[SumKey, str]]:
        if kept and not dropped:
            yield RESOURCE_SCHEME, ""

    def holders(self, namer: Namer, key: str) -> Iterator[tuple[ox.NamedNode, ox.NamedNode]]:
        yield KG.introduces, namer.resource(key)
        yield KG.usesDataset, namer.resource(key)  # a dataset papers use (kg.kinds.tasks)

    def shared_triples(self, shared: Shared, namer: Namer) -> Iterator[Triple]:
        if any(True for _ in shared.of(RESOURCE_SCHEME[0])):
            scheme = namer.resource_scheme()
            yield Triple(scheme, RDF.type, SKOS.ConceptScheme)
            yield Triple(scheme, SKOS.prefLabel, ox.Literal("Datasets named by papers", language="en"))
        for (kind, key), summary in sorted(shared.described.items()):
            if kind == self.name:
                yield from summary.triples(True, key, namer)


RESOURCE_SCHEME: SumKey = ("resource-scheme", "", "")
"""The papers that introduce a dataset or use one no list holds (``kg.kinds.tasks``): while there are
any, the scheme of datasets named by papers is in the graph."""
