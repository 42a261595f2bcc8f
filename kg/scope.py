"""The papers a view is limited to: those of a method, a subject, a task or a dataset (``kg viz
coauthors --method "diffusion model"``: who works on diffusion models, and with whom).

A method's papers are those that mention it or a narrower method (``skos:broader``, any depth: a
"latent diffusion model" paper is a diffusion-model paper); a subject's are those filed under it or
a narrower subject or area (the archive ``cs`` holds ``cs.LG``); a task's those about it or a
narrower task; a dataset's those that use or introduce it or one of its variants.  The name is matched as the named
queries match it (:mod:`kg.queries.values`: a label or slug, a code, ignoring case); a name that
names nothing fails with the nearest names, as ``kg query`` and ``kg plot`` fail.

>>> rows = [{"concept": "https://w3id.org/kg/method/lora", "name": "LoRA"}]
>>> concepts_named(rows, "lora", "method")
['https://w3id.org/kg/method/lora']
"""

from __future__ import annotations

from collections.abc import Callable

from kg.errors import KgError
from kg.queries.values import NAMES, SLUGGED, WHAT, suggestions

Select = Callable[[str], list[dict[str, str]]]

LINKS = {
    "method": "schema:mentions",
    "subject": "dcterms:subject|kg:area",
    "task": "schema:about",
    "dataset": "kg:usesDataset|kg:introduces",
}
"""How a paper is linked to a concept of each kind."""


def concepts_named(rows: list[dict[str, str]], name: str, kind: str) -> list[str]:
    """The concepts among ``rows`` (concept, name) that ``name`` names: a name or, for a method, its slug."""
    wanted = " ".join(name.split()).casefold()
    found = set()
    for row in rows:
        concept = row.get("concept", "")
        names = [row.get("name", "")]
        if kind in SLUGGED:
            names.append(concept.rstrip("/").rsplit("/", 1)[-1])
        if any(" ".join(n.split()).casefold() == wanted for n in names):
            found.add(concept)
    return sorted(found)


def papers(select: Select, kind: str, name: str) -> tuple[str, set[str]]:
    """The label to show and the papers of the ``kind`` (method, subject, task or dataset) ``name`` names."""
    if kind not in LINKS:
        raise KgError(f"unknown kind {kind!r}; choose from: {', '.join(LINKS)}", code="bad-option")
    rows = select(NAMES[kind])
    concepts = concepts_named(rows, name, kind)
    if not concepts:
        names = [row["name"] for row in rows if "name" in row]
        near = suggestions(name, names, preferred=[r["name"] for r in rows if r.get("known") and "name" in r])
        hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
        raise KgError(f"no {WHAT[kind]} named {name.strip()!r} in this graph{hint}", code="unknown-term")
    values = " ".join(f"<{c}>" for c in concepts)
    found = select(
        f"SELECT DISTINCT ?paper WHERE {{\n  VALUES ?top {{ {values} }}\n  ?concept skos:broader* ?top .\n"
        f"  ?paper {LINKS[kind]} ?concept .\n  ?paper a schema:ScholarlyArticle .\n}}"
    )
    labels = {row["name"] for row in rows if row.get("concept") in concepts and "name" in row}
    shown = next(
        (n for n in sorted(labels) if " ".join(n.split()).casefold() == " ".join(name.split()).casefold()), ""
    )
    return shown or name.strip(), {row["paper"] for row in found}
