"""CSV: a folder of papers.csv, persons.csv and edges.csv (of a view) for pandas, spreadsheets and Neo4j.

* ``papers.csv``: one row per paper, sorted by id: ``id`` (IRI), ``title``,
  ``year``, ``authors`` (names in author order), ``subjects`` (arXiv codes,
  the primary one first), ``areas`` (``Parent · Child``), ``repositories``
  (IRIs), ``methods`` (labels of the methods it mentions or introduces),
  ``tasks`` (labels of the tasks it works on), ``main_tasks`` (those of them it
  mainly addresses), ``datasets`` (labels of the datasets it uses),
  ``sources`` (``file:line`` of each record it was read from).
* ``persons.csv``: ``id``, ``name``, ``papers`` (count), ``coauthors`` (count).
* ``edges.csv``: the edges of the view (``--view``, default coauthors):
  ``source``, ``target``, ``weight``, ``source_label``, ``target_label``.

Lists inside a cell are joined with ``; ``.  Files are UTF-8 without a byte
order mark (``--bom`` adds one for Excel), quoted as RFC 4180 says (CRLF line
ends, a field quoted when it holds a comma, quote or line break).  The folder
appears complete or not at all: it is written beside the target and renamed.

>>> join(["b", "a"])
'b; a'
"""

from __future__ import annotations

import csv
import io
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import KgError, os_message
from kg.exporters.built import BuiltGraph, ExportOptions
from kg.exporters.graphml import scalar, sorted_edges
from kg.store import pairs
from kg.vocab import DCTERMS, FABIO, FOAF, KG, PROV, SCHEMA, SKOS

NAME = "csv"
SUFFIX = ""
"""A folder, not a file: ``kg export csv`` writes ``DIR/export/csv/``."""
VIEW = True
"""It writes a networkx view (``--view``), not the RDF graph."""

SEPARATOR = "; "
PAPER_COLUMNS = (
    "id",
    "title",
    "year",
    "authors",
    "subjects",
    "areas",
    "repositories",
    "methods",
    "tasks",
    "main_tasks",
    "datasets",
    "sources",
)
PERSON_COLUMNS = ("id", "name", "papers", "coauthors")
EDGE_COLUMNS = ("source", "target", "weight", "source_label", "target_label")


def join(values: Iterable[str]) -> str:
    """Values of one cell, in the order given."""
    return SEPARATOR.join(values)


def _rows(store: ox.Store, query: str) -> Iterable[Sequence[Any]]:
    solutions = store.query(query)
    assert isinstance(solutions, ox.QuerySolutions)
    names = [v.value for v in solutions.variables]
    for s in solutions:
        yield [s[name] for name in names]


def _text(term: Any) -> str:
    return "" if term is None else str(term.value)


def _grouped(store: ox.Store, predicate: ox.NamedNode) -> dict[str, list[str]]:
    """Objects of one predicate by subject.

    The tables are joined in Python from one scan per property (:func:`kg.store.pairs`): a query that
    joined them looked each property up row by row and cost more than Oxigraph's dump of the store.
    """
    found: dict[str, list[str]] = defaultdict(list)
    for subject, value in pairs(store, predicate):
        found[subject].append(value)
    return found


def paper_rows(store: ox.Store) -> list[list[str]]:
    """The rows of ``papers.csv``, sorted by paper IRI."""
    papers: dict[str, dict[str, str]] = {
        paper.value: {"title": "", "year": ""}
        for (paper,) in _rows(store, f"SELECT ?p WHERE {{ ?p a <{SCHEMA.ScholarlyArticle.value}> }}")
    }
    # one title and year per paper; min keeps the choice stable if a graph ever has two
    for key, predicate in (("title", DCTERMS.title), ("year", FABIO.hasPublicationYear)):
        for paper, value in pairs(store, predicate):
            row = papers.get(paper)
            if row is not None and (not row[key] or value < row[key]):
                row[key] = value
    names = _grouped(store, FOAF.name)
    positions, persons = _grouped(store, KG.position), _grouped(store, KG.author)
    authors: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for paper, authorship in pairs(store, KG.authorship):
        for position in positions.get(authorship, ()):
            for who in persons.get(authorship, ()):
                for name in names.get(who) or [""]:
                    authors[paper].append((int(position), name))
    del names, positions, persons
    notations = _grouped(store, SKOS.notation)
    primary: dict[str, str] = {}
    for paper, concept in pairs(store, KG.primarySubject):
        for code in notations.get(concept, ()):
            primary[paper] = min(primary.get(paper, code), code)
    subjects: dict[str, set[str]] = defaultdict(set)
    for paper, concept in pairs(store, DCTERMS.subject):
        subjects[paper].update(notations.get(concept, ()))
    labels = _grouped(store, SKOS.prefLabel)
    broader = _grouped(store, SKOS.broader)
    areas: dict[str, set[str]] = defaultdict(set)
    for paper, area in pairs(store, KG.area):
        parents: list[str | None] = [parent for b in broader.get(area, ()) for parent in labels.get(b, ())]
        for label in labels.get(area, ()):
            for parent in parents or [None]:
                # an area's label is "Parent · Child" already (a graph of an older kg has the leaf alone)
                whole = parent is None or label.startswith(f"{parent} · ")
                areas[paper].add(label if whole else f"{parent} · {label}")
    repositories: dict[str, set[str]] = defaultdict(set)
    for paper, repo in pairs(store, SCHEMA.codeRepository):
        repositories[paper].add(repo)
    named = _grouped(store, SCHEMA.name)
    methods: dict[str, set[str]] = defaultdict(set)
    for predicate in (SCHEMA.mentions, KG.introduces):
        for paper, method in pairs(store, predicate):
            methods[paper].update(labels.get(method, []) + named.get(method, []) or [method])
    linked = {key: _labelled(store, predicate, labels) for key, predicate in _CONCEPT_COLUMNS.items()}
    files, lines = _grouped(store, KG.sourceFile), _grouped(store, KG.sourceLine)
    sources: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for paper, record in pairs(store, PROV.wasDerivedFrom):
        for path in files.get(record, ()):
            sources[paper].update((path, int(line)) for line in lines.get(record, ()))
    rows = []
    for iri in sorted(papers):
        first = primary.get(iri)
        codes = ([first] if first else []) + sorted(subjects[iri] - {first})
        rows.append(
            [
                iri,
                papers[iri]["title"],
                papers[iri]["year"],
                join(name for _, name in sorted(authors[iri])),
                join(codes),
                join(sorted(areas[iri])),
                join(sorted(repositories[iri])),
                join(sorted(methods[iri], key=lambda label: (label.casefold(), label))),
                *(join(sorted(linked[key][iri], key=lambda t: (t.casefold(), t))) for key in _CONCEPT_COLUMNS),
                join(f"{path}:{line}" for path, line in sorted(sources[iri])),
            ]
        )
    return rows


_CONCEPT_COLUMNS = {"tasks": SCHEMA.about, "main_tasks": KG.mainTask, "datasets": KG.usesDataset}
"""The columns of the concepts a paper links by one property each, shown by their labels."""


def _labelled(store: ox.Store, predicate: ox.NamedNode, labels: dict[str, list[str]]) -> dict[str, set[str]]:
    """Paper -> the labels of what ``predicate`` links it to (an IRI without a label as itself)."""
    found: dict[str, set[str]] = defaultdict(set)
    for paper, concept in pairs(store, predicate):
        found[paper].update(labels.get(concept, []) or [concept])
    return found


def person_rows(store: ox.Store) -> list[list[str]]:
    """The rows of ``persons.csv``, sorted by person IRI."""
    names: dict[str, str] = {}
    for person, name in _rows(
        store, f"SELECT ?x ?n WHERE {{ ?x a <{FOAF.Person.value}> OPTIONAL {{ ?x <{FOAF.name.value}> ?n }} }}"
    ):
        if person.value not in names or (name is not None and name.value < names[person.value]):
            names[person.value] = _text(name)
    # counted inside the store: one row per person rather than one per statement
    papers = {
        person.value: int(count.value)
        for person, count in _rows(
            store, f"SELECT ?x (COUNT(*) AS ?c) WHERE {{ ?p <{DCTERMS.creator.value}> ?x }} GROUP BY ?x"
        )
    }
    coauthors = {
        person.value: int(count.value)
        for person, count in _rows(
            store, f"SELECT ?x (COUNT(*) AS ?c) WHERE {{ ?x <{KG.coauthor.value}> ?y }} GROUP BY ?x"
        )
    }
    return [[iri, names[iri], str(papers.get(iri, 0)), str(coauthors.get(iri, 0))] for iri in sorted(names)]


def edge_rows(source: BuiltGraph, view: str) -> list[list[str]]:
    """The rows of ``edges.csv``: the edges of the view, sorted, with their weights and end labels."""
    graph = source.view(view)
    rows = []
    for u, v, data in sorted_edges(graph):
        weight = scalar(data.get("weight"))
        rows.append(
            [
                str(u),
                str(v),
                "1" if weight is None else str(weight),
                str(scalar(graph.nodes[u].get("label")) or u),
                str(scalar(graph.nodes[v].get("label")) or v),
            ]
        )
    return rows


def table(columns: Sequence[str], rows: Iterable[Sequence[str]], bom: bool = False) -> bytes:
    '''A CSV file as bytes: header and rows, RFC 4180 quoting and CRLF line ends, UTF-8.

    >>> table(["a", "b"], [["x,y", 'say "hi"']])
    b'a,b\\r\\n"x,y","say ""hi"""\\r\\n'
    '''
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(columns)
    writer.writerows(rows)
    # a lone surrogate (possible in a view's text, never in the store) becomes "?" rather than failing
    return text.getvalue().encode("utf-8-sig" if bom else "utf-8", errors="replace")


def export(source: BuiltGraph, target: Path, options: ExportOptions | None = None) -> Path:
    """Write the folder ``target`` (e.g. ``outputs/export/csv/``) with its three files, atomically."""
    from kg.files import TEMP_SUFFIX, atomic, make_parent, remove, replace_folder, temp_prefix

    options = options or ExportOptions()
    files = {
        "papers.csv": table(PAPER_COLUMNS, paper_rows(source.store), options.bom),
        "persons.csv": table(PERSON_COLUMNS, person_rows(source.store), options.bom),
        "edges.csv": table(EDGE_COLUMNS, edge_rows(source, options.view), options.bom),
    }
    if target.exists() and not target.is_dir():
        raise KgError(f"cannot write {target}: it is a file, not a folder", code="write-failed")
    fresh: Path | None = None
    try:
        make_parent(target)
        fresh = Path(tempfile.mkdtemp(prefix=temp_prefix(target.name), suffix=TEMP_SUFFIX, dir=target.parent))
        for name, data in files.items():
            with atomic(fresh / name) as f:
                f.write(data)
        fresh.chmod(0o777 & ~umask())
        old = replace_folder(fresh, target)
    except OSError as e:
        if fresh is not None:
            shutil.rmtree(fresh, ignore_errors=True)
        raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e
    if old is not None:
        remove(old)
    return target


def umask() -> int:
    from kg.files import umask as umask

    return umask()
