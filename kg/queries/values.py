"""Whether a named query's parameter value names something in the graph, and what it may have meant.

A named query that matches a person, method, subject or owner by name answers an empty table both when
the thing has no rows and when the name names nothing ("diffusion" for the method "diffusion model",
a misspelt person).  ``kg query`` asks :func:`unmatched` after an empty answer, so that a name that
names nothing fails as ``kg plot`` and ``kg viz`` do: ``no method named 'diffusion'; did you mean
diffusion model?`` (exit 2), while a real name with no rows stays an empty answer.  The names are
matched as the queries match them: ignoring case, a method also by its slug, a subject by its code.

>>> suggestions("Thomas Hofman", ["Thomas Hofmann", "Tom Hoffman", "Ada Lovelace"])
['Thomas Hofmann', 'Tom Hoffman']
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping

from kg.errors import KgError
from kg.queries import NamedQuery

WHAT = {
    "author": "person",
    "method": "method",
    "task": "task",
    "dataset": "dataset",
    "subject": "subject or area",
    "owner": "GitHub owner",
}
"""The parameters that name something, and what they name."""

METHOD_SCHEME = "https://w3id.org/kg/method/scheme"
TASK_SCHEME = "https://w3id.org/kg/task/scheme"
DATASET_SCHEME = "https://w3id.org/kg/dataset/scheme"
SLUGGED = ("method", "task", "dataset")
"""The kinds of value that may also name a concept by its slug, the end of its IRI."""
AS_WRITTEN = ("method", "dataset")
"""The kinds whose concepts papers coined are named as written (their keys keep case: ``method/CoM``,
``resource/SlimPajama``): the queries find a known concept by any case, a coined one by its label."""

NAMES: dict[str, str] = {
    "author": "SELECT DISTINCT ?name WHERE { ?person a foaf:Person ; foaf:name ?name }",
    "method": (
        "SELECT DISTINCT ?concept ?name ?known WHERE {\n"
        f"  {{ ?concept skos:inScheme <{METHOD_SCHEME}> BIND(1 AS ?known) }} UNION {{ ?concept a kg:Method }}\n"
        "  ?concept skos:prefLabel|skos:altLabel ?name\n}"
    ),
    "task": (
        "SELECT DISTINCT ?concept ?name ?known WHERE {\n  ?concept a kg:Task ; skos:prefLabel|skos:altLabel ?name\n"
        f"  OPTIONAL {{ ?concept skos:inScheme <{TASK_SCHEME}> BIND(1 AS ?known) }}\n}}"
    ),
    "dataset": (
        "SELECT DISTINCT ?concept ?name ?known WHERE {\n"
        "  ?concept a schema:Dataset ; skos:prefLabel|skos:altLabel ?name\n"
        f"  OPTIONAL {{ ?concept skos:inScheme <{DATASET_SCHEME}> BIND(1 AS ?known) }}\n}}"
    ),
    "subject": (
        "SELECT DISTINCT ?concept ?name WHERE {\n"
        "  { ?concept skos:notation ?name }\n"
        "  UNION { ?concept skos:prefLabel|skos:altLabel ?name . FILTER NOT EXISTS { ?concept a kg:Method }\n"
        f"          FILTER NOT EXISTS {{ ?concept skos:inScheme <{METHOD_SCHEME}> }} }}\n}}"
    ),
    "owner": "SELECT DISTINCT ?name WHERE { ?repository kg:owner ?name }",
}
"""What each kind of value may name: every name in the graph (and a method's IRI, for its slug)."""

Rows = Iterable[Mapping[str, str]]


def suggestions(value: str, names: Iterable[str], n: int = 3, preferred: Iterable[str] = ()) -> list[str]:
    """The names closest to ``value`` (ignoring case), best first: names that start with it as a word
    ("diffusion" -> "diffusion model"; ``preferred`` ones, such as the taxonomy's methods, first), then
    names spelt alike."""
    by_key: dict[str, str] = {}
    for name in sorted(set(names)):
        by_key.setdefault(" ".join(name.split()).casefold(), name)
    first = {" ".join(name.split()).casefold() for name in preferred}
    wanted = " ".join(value.split()).casefold()
    starts = sorted(
        (k for k in by_key if wanted and k.startswith(wanted + " ")),
        key=lambda k: (k not in first, len(k), k),
    )[:n]
    close = difflib.get_close_matches(wanted, list(by_key), n=n, cutoff=0.75)
    return [by_key[k] for k in dict.fromkeys([*starts, *close])][:n]


def unmatched(named: NamedQuery, values: Mapping[str, str], select: Callable[[str], Rows]) -> KgError | None:
    """The error for the first parameter value of ``named`` that names nothing in the graph, or None.

    ``select`` runs a SELECT query (kg's prefixes declared) and gives its rows as name -> value.
    """
    for param in named.params:
        value = values.get(param.name)
        if param.name not in WHAT or value is None or not value.strip():
            continue
        rows = list(select(NAMES[param.name]))
        names = [row["name"] for row in rows if "name" in row]
        if param.name in SLUGGED:  # a concept is also chosen by its slug, the end of its IRI
            names += [row["concept"].rstrip("/").rsplit("/", 1)[-1] for row in rows if "concept" in row]
        wanted = " ".join(value.split()).casefold()
        known = [row["name"] for row in rows if "name" in row and row.get("known")]
        if param.name in AS_WRITTEN:
            coined = _as_written(value, rows, known)
            if coined:
                return KgError(
                    f"no {WHAT[param.name]} named {value.strip()!r} in this graph; names papers coined are "
                    f"matched as written: did you mean {' or '.join(repr(n) for n in coined)}? "
                    f"(query {named.name!r})",
                    code="unknown-term",
                )
        if any(" ".join(name.split()).casefold() == wanted for name in names):
            continue
        near = suggestions(value, names, preferred=known)
        hint = f"; did you mean {' or '.join(repr(n) for n in near)}?" if near else ""
        return KgError(
            f"no {WHAT[param.name]} named {value.strip()!r} in this graph{hint} (query {named.name!r})",
            code="unknown-term",
        )
    return None


def _as_written(value: str, rows: Rows, known: list[str]) -> list[str]:
    """The names of coined concepts that ``value`` names in another case only (none when it names a
    known concept in any case, or a coined one as written): what the queries would not find."""
    wanted = " ".join(value.split())
    folded = wanted.casefold()
    if any(" ".join(n.split()).casefold() == folded for n in known):
        return []
    slugs = {
        row["concept"].rstrip("/").rsplit("/", 1)[-1] for row in rows if "concept" in row and row.get("known")
    }
    if any(s.casefold() == folded for s in slugs):
        return []
    coined = sorted({row["name"] for row in rows if "name" in row and not row.get("known")})
    if any(" ".join(n.split()) == wanted for n in coined):
        return []
    return [n for n in coined if " ".join(n.split()).casefold() == folded][:3]
