"""What a build says about methods at scale, laid out for reading by hand.

    PYTHONPATH=. python benchmarks/methods_days.py OUT [--sample 40] [--seed 0] [--section links|introduced|top|checks]

``OUT`` is a build folder (``kg build /work/shared/data/arxiv_daily_listings
/work/shared/data/arxiv_daily_more --out OUT``).  Prints

* **links** -- a sample of the living vocabulary's links "paper A introduces X, paper B mentions X":
  X's label and long form, A's title and the words around X in B, to judge whether B means A's X;
* **introduced** -- a sample of introduced names with the sentence that introduces them;
* **top** -- the 30 known methods most papers mention, with their flags (generic, paradigm);
* **checks** -- counts a reader needs no judgement for: introduced concepts whose label the
  vocabulary knows, labels with LaTeX, bare dimensions, names introduced by several papers.

Samples are drawn with a fixed seed, so two builds of the same days show comparable samples.
"""

from __future__ import annotations

import argparse
import random
import re
from collections import Counter
from pathlib import Path

import pyoxigraph as ox

from kg.extractors import methods
from kg.extractors.methods.introduced import known_form

SKOS = "http://www.w3.org/2004/02/skos/core#"
KG = "https://w3id.org/kg/ns#"
SCHEMA = "https://schema.org/"
DCT = "http://purl.org/dc/terms/"
LATEX = re.compile(r"[$\\{}^]")


def _store(out: Path) -> ox.Store:
    store = ox.Store()
    with (out / "graph.ttl").open("rb") as f:
        store.bulk_load(f, ox.RdfFormat.TURTLE)
    return store


def _rows(store: ox.Store, query: str) -> list[tuple[str, ...]]:
    prefixes = f"PREFIX skos: <{SKOS}> PREFIX kg: <{KG}> PREFIX schema: <{SCHEMA}> PREFIX dct: <{DCT}>\n"
    result = store.query(prefixes + query)
    return [tuple(term.value if term is not None else "" for term in row) for row in result]  # type: ignore[union-attr]


def _around(text: str, needle: str, width: int = 110) -> str:
    i = text.find(needle)
    if i < 0:
        return text[: width * 2].replace("\n", " ")
    return " ".join(text[max(0, i - width) : i + len(needle) + width].split())


def links(store: ox.Store, sample: int, rng: random.Random) -> None:
    rows = _rows(
        store,
        """SELECT ?x ?label ?full ?a ?ta ?b ?tb ?text ?abs WHERE {
             ?a kg:introduces ?x . ?x a kg:Method ; skos:prefLabel ?label .
             OPTIONAL { ?x skos:altLabel ?full }
             ?b schema:mentions ?x . FILTER(?a != ?b)
             ?a dct:title ?ta . ?b dct:title ?tb .
             ?b kg:evidence ?e . ?e kg:evidenceOf ?x ; kg:matchedText ?text .
             OPTIONAL { ?b dct:abstract ?abs } }""",
    )
    by_link = {(r[0], r[3], r[5]): r for r in rows}
    print(f"== living-vocabulary links: {len(by_link)} (introduced by A, mentioned by B), {sample} shown")
    for n, key in enumerate(sorted(rng.sample(sorted(by_link), min(sample, len(by_link)))), 1):
        _x, label, full, _a, ta, _b, tb, text, abstract = by_link[key]
        print(f"{n:2}. {label!r} ({full or 'no long form'})")
        print(f"    A: {ta[:110]}")
        print(f"    B: {tb[:110]}")
        print(f"    B says: ...{_around(tb + ' ' + abstract, text)}...")


def introduced(store: ox.Store, sample: int, rng: random.Random) -> None:
    rows = _rows(
        store,
        """SELECT ?x ?label ?a ?ta ?abs ?type WHERE {
             ?a kg:introduces ?x . ?a dct:title ?ta . OPTIONAL { ?a dct:abstract ?abs }
             OPTIONAL { ?x skos:prefLabel ?label } OPTIONAL { ?x schema:name ?label }
             OPTIONAL { ?x a ?type . FILTER(?type IN (schema:Dataset, schema:SoftwareApplication)) } }""",
    )
    print(f"== introduced: {len(rows)} (paper, concept) pairs, {sample} shown")
    for n, r in enumerate(sorted(rng.sample(rows, min(sample, len(rows)))), 1):
        x, label, _a, ta, abstract, kind = r
        kind = kind.rsplit("/", 1)[-1] if kind else "Method"
        print(f"{n:2}. {label!r} [{kind}] {x.rsplit('/', 1)[-1]}")
        print(f"    title: {ta[:120]}")
        print(f"    says: ...{_around(ta + ' ' + abstract, label, 90)}...")


def top(store: ox.Store, limit: int = 30) -> None:
    rows = _rows(
        store,
        f"""SELECT ?m ?label (COUNT(DISTINCT ?p) AS ?n) (SAMPLE(?g) AS ?generic) (SAMPLE(?d) AS ?paradigm) WHERE {{
             ?p schema:mentions ?m . ?m skos:inScheme <{methods.SCHEME}> ; skos:prefLabel ?label .
             OPTIONAL {{ ?m kg:generic ?g }} OPTIONAL {{ ?m kg:paradigm ?d }} }}
           GROUP BY ?m ?label ORDER BY DESC(?n) ?label""",
    )
    print(f"== top {limit} known methods by papers")
    for n, (_m, label, count, generic, paradigm) in enumerate(rows[:limit], 1):
        flags = " ".join(f for f, on in (("generic", generic), ("paradigm", paradigm)) if on == "true")
        print(f"{n:2}. {count:>5}  {label}  {flags}")
    named = [r for r in rows if "true" not in (r[3], r[4])]
    print(f"== top {limit} known methods by papers, paradigms and generic concepts apart")
    for n, (_m, label, count, _g, _d) in enumerate(named[:limit], 1):
        print(f"{n:2}. {count:>5}  {label}")


def checks(store: ox.Store) -> None:
    matcher = methods.default_matcher()
    rows = _rows(
        store,
        """SELECT ?x ?label (COUNT(DISTINCT ?a) AS ?n) (SAMPLE(?f) AS ?full) WHERE {
             ?a kg:introduces ?x . { ?x skos:prefLabel ?label } UNION { ?x schema:name ?label }
             OPTIONAL { ?x skos:altLabel ?f } }
           GROUP BY ?x ?label""",
    )
    # a concept the vocabulary knows: its long form when it has one ("Semantic Alignment Module (SAM)"
    # is not Segment Anything), else its name, in any form the matcher knows ("LoRAs")
    knew = sorted(
        (label, full, slug)
        for x, label, _n, full in rows
        if "/method/" in x and (slug := known_form(matcher, full or label))
    )
    latex = [label for _x, label, _n, _f in rows if LATEX.search(label)]
    dims = [label for _x, label, _n, _f in rows if re.fullmatch(r"\d+(?:\.\d+)?[DdKk]", label)]
    many = sorted(((int(n), label) for _x, label, n, _f in rows if int(n) > 1), reverse=True)
    print(f"== checks over {len(rows)} introduced concepts")
    print(f"introduced concepts the vocabulary knows: {len(knew)}: {sorted(knew)[:40]}")
    print(f"labels with LaTeX: {len(latex)}: {latex[:20]}")
    print(f"bare dimensions: {len(dims)}: {dims}")
    print(f"introduced by several papers: {len(many)}: {many[:20]}")
    named = _rows(
        store, "SELECT ?label WHERE { ?p schema:mentions ?x . ?x a kg:Method ; skos:prefLabel ?label }"
    )
    latex_named = sum(1 for (label,) in named if LATEX.search(label))
    print(f"mentioned kg:Method labels: {len(named)}; with LaTeX: {latex_named}")
    print("most mentioned kg:Method labels:", Counter(label for (label,) in named).most_common(25))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--section", choices=["links", "introduced", "top", "checks"], action="append")
    args = parser.parse_args()
    store = _store(args.out)
    sections = args.section or ["links", "introduced", "top", "checks"]
    if "links" in sections:
        links(store, args.sample, random.Random(args.seed))
    if "introduced" in sections:
        introduced(store, args.sample, random.Random(args.seed))
    if "top" in sections:
        top(store)
    if "checks" in sections:
        checks(store)


if __name__ == "__main__":
    main()
