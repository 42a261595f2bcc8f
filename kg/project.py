"""RDF -> networkx views: the coauthor network, the topic map, the typed paper graph, one node's ego.

Views are computed by SPARQL over a build's Oxigraph store (``build.store``, or
``kg.store.open_store(DIR)`` for a persisted build) or over any SPARQL 1.1 endpoint
holding a kg graph (:class:`Endpoint`: ``kg viz --endpoint URL``); nothing goes into
a view that is not in the graph.  Attributes are scalars only (str, int, float, bool;
never None, never lists), so every view can be written as GraphML or GEXF.

After :func:`kg.drawing.decorate`, every node has

- ``label`` (str), ``type`` (``person``, ``paper``, ``subject``, ``method``,
  ``task``, ``dataset``, ``repository`` or ``area``), ``iri`` (str) and ``url`` (str: the arXiv or
  GitHub page, ``""`` when there is none),
- ``papers`` (int: papers of a person, papers that use a concept, 1 for a paper),
- ``year_min`` / ``year_max`` (int: publication years of those papers; **0 when
  no year is known**),
- ``community`` (int, 0 = the largest Louvain community), ``color`` (hex),
  ``size`` (float), ``x`` / ``y`` (float, a seeded layout in drawing units),

and every edge a ``weight`` (float).

>>> from kg.store import memory
>>> g = decorate(coauthors(memory()))
>>> g.number_of_nodes(), g.graph["view"]
(0, 'coauthors')
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import networkx as nx
import pyoxigraph as ox

from kg import scope
from kg.drawing import DEFAULT_MAX_EDGES, DEFAULT_MAX_NODES, SizeBy, decorate, limit, strongest
from kg.errors import KgError, unknown
from kg.kinds.table import listings
from kg.store import pairs
from kg.vocab import PREFIXES


@dataclass(frozen=True, slots=True)
class Endpoint:
    """A SPARQL 1.1 endpoint (``oxigraph serve``, Jena Fuseki, ``kg serve``, ...) to compute views from.

    Each view sends a few SELECT queries and reads every row: an endpoint that caps its results (``kg
    serve --max-rows``, Virtuoso's ``ResultSetMaxRows``) must allow the largest, or the view is refused.
    """

    url: str
    timeout: float | None = 600.0


Queryable = ox.Store | Endpoint
"""What a view is computed from: a store, or a SPARQL endpoint (both answer SELECT queries)."""

Counting = Literal["full", "fractional"]

NODE_TYPES = ("person", "paper", "subject", "method", "task", "dataset", "repository", "area")
"""Every value of the ``type`` node attribute (the kinds of page of ``kg.kinds.table.listings`` and
``paper``)."""


def _prefixes() -> str:
    return "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in sorted(PREFIXES.items()))


def _select(store: Queryable, query: str) -> list[dict[str, str]]:
    """Rows of a SELECT query: variable -> lexical value (unbound variables left out)."""
    if isinstance(store, Endpoint):
        return _select_remote(store, _prefixes() + query)
    result = store.query(_prefixes() + query)
    assert isinstance(result, ox.QuerySolutions)
    names = [v.value for v in result.variables]
    rows: list[dict[str, str]] = []
    for solution in result:
        row: dict[str, str] = {}
        for name in names:
            term = solution[name]
            if term is not None:
                row[name] = term.value
        rows.append(row)
    return rows


def _select_remote(endpoint: Endpoint, text: str) -> list[dict[str, str]]:
    from kg.sparql import Solutions, query_endpoint

    result = query_endpoint(endpoint.url, text, timeout=endpoint.timeout)
    if not isinstance(result, Solutions):
        raise KgError(
            f"endpoint {endpoint.url} did not answer a SELECT query with rows", code="endpoint-error"
        )
    if result.truncated:
        raise KgError(
            f"endpoint {endpoint.url} cut its answer at {len(result.rows):,} rows; a view needs them all "
            "(raise the endpoint's row cap, e.g. kg serve --max-rows)",
            code="endpoint-truncated",
        )
    names = result.variables
    return [
        {
            n: t.value
            for n, t in zip(names, row, strict=True)
            if t is not None and not isinstance(t, ox.Triple)
        }
        for row in result.rows
    ]


def year_of(text: str | None) -> int:
    """A gYear's year as an int; 0 when unknown.

    >>> year_of("2025"), year_of(None), year_of("-0044")
    (2025, 0, 0)
    """
    if text and re.fullmatch(r"\d{4}", text[:4]):
        return int(text[:4])
    return 0


def _years(years: Iterable[int]) -> tuple[int, int]:
    known = [y for y in years if y]
    return (min(known), max(known)) if known else (0, 0)


def arxiv_url(paper_iri: str, identifiers: Iterable[str]) -> str:
    """The arXiv abstract page of a paper, from an ``arxiv:`` identifier or an ``arxiv-`` key.

    >>> arxiv_url("https://w3id.org/kg/id/paper/a-12", ["arxiv:2401.00001v2"])
    'https://arxiv.org/abs/2401.00001v2'
    >>> arxiv_url("https://w3id.org/kg/id/paper/arxiv-hep-th_9901001", [])
    'https://arxiv.org/abs/hep-th/9901001'
    >>> arxiv_url("https://w3id.org/kg/id/paper/a-12", ["doi:10.1/x"])
    ''
    """
    pattern = r"[a-z-]+(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?|\d{4}\.\d{4,5}(?:v\d+)?"
    for identifier in sorted(identifiers):
        scheme, _, value = identifier.partition(":")
        if scheme.lower() == "arxiv" and re.fullmatch(pattern, value):
            return "https://arxiv.org/abs/" + value
    key = paper_iri.rsplit("/", 1)[-1]
    if key.startswith("arxiv-"):
        value = key[len("arxiv-") :].replace("_", "/")
        if re.fullmatch(pattern, value):
            return "https://arxiv.org/abs/" + value
    return ""


def _github_url(iri: str) -> str:
    return iri if re.fullmatch(r"https://github\.com/[\w.-]+/[\w.-]+", iri) else ""


def _node(
    label: str, kind: str, iri: str, papers: int, years: Iterable[int], url: str = ""
) -> dict[str, Any]:
    year_min, year_max = _years(years)
    return {
        "label": label,
        "type": kind,
        "iri": iri,
        "url": url,
        "papers": papers,
        "year_min": year_min,
        "year_max": year_max,
    }


def pairs_of(store: Queryable, predicate: str) -> list[tuple[str, str]]:
    """(subject, object) of every statement of one predicate (a prefixed name), as lexical values,
    from a store (:func:`kg.store.pairs`) or an endpoint."""
    if isinstance(store, Endpoint):
        rows = _select(store, f"SELECT ?s ?o WHERE {{ ?s {predicate} ?o }}")
        return [(row["s"], row["o"]) for row in rows]
    prefix, _, local = predicate.partition(":")
    return pairs(store, ox.NamedNode(PREFIXES[prefix] + local))


def paper_iris(store: Queryable) -> set[str]:
    """The papers: everything typed ``schema:ScholarlyArticle``."""
    if isinstance(store, Endpoint):
        return {row["s"] for row in _select(store, "SELECT ?s WHERE { ?s a schema:ScholarlyArticle }")}
    # a SELECT of the one term read out of the store's dictionary (see pairs_of)
    solutions = store.query(f"SELECT ?s WHERE {{ ?s a <{PREFIXES['schema']}ScholarlyArticle> }}")
    assert isinstance(solutions, ox.QuerySolutions)
    return {s.value for (s,) in solutions if not isinstance(s, ox.Triple)}


def _paper_years(store: Queryable, articles: set[str] | None = None) -> dict[str, int]:
    articles = paper_iris(store) if articles is None else articles
    years: dict[str, int] = {}
    for paper, year in pairs_of(store, "fabio:hasPublicationYear"):
        if paper in articles:
            years[paper] = max(years.get(paper, 0), year_of(year))
    return years


# --- coauthors -------------------------------------------------------------------------------------------


def coauthors(
    store: Queryable,
    *,
    counting: Counting = "full",
    max_authors: int = 25,
    min_papers: int = 1,
    max_nodes: int | None = None,
    within: set[str] | None = None,
) -> nx.Graph:
    """Persons, linked by the papers they wrote together (only the papers ``within``, when given:
    a method's or subject's, :mod:`kg.scope`).

    Edge ``weight``: with ``counting="full"`` the number of joint papers; with
    ``"fractional"`` each paper with *n* authors adds ``1/(n-1)`` to each of its
    author pairs, so every author's links from one paper sum to 1 (the
    fractional counting of Perianes-Rodriguez, van Eck and Waltman, 2016).
    Papers with more than ``max_authors`` authors count towards each person's
    ``papers`` but add no edges (``joint_papers`` counts the papers behind an edge);
    persons with fewer than ``min_papers`` papers are left out.

    With ``max_nodes``, only the persons :func:`limit` would keep are made nodes (the
    ``nodes_total`` and ``edges_total`` of the whole network are recorded): at 100k papers
    the whole network is too big to hold as a networkx graph (the figures: docs/build-speed.md).
    """
    if counting not in ("full", "fractional"):
        raise KgError(f"unknown counting {counting!r}; choose from: full, fractional", code="bad-option")
    articles = paper_iris(store)
    years = _paper_years(store, articles)
    authors: dict[str, set[str]] = defaultdict(set)
    for paper, person in pairs_of(store, "dcterms:creator"):
        if paper in articles and (within is None or paper in within):
            authors[paper].add(person)
    names: dict[str, str] = {}
    for person, name in pairs_of(store, "foaf:name"):
        if name and (person not in names or name < names[person]):
            names[person] = name
    papers_of: dict[str, list[str]] = defaultdict(list)
    for paper, persons in authors.items():
        for person in persons:
            papers_of[person].append(paper)
    people = [p for p in sorted(papers_of) if len(papers_of[p]) >= min_papers]
    known = set(people)
    # the teams that make links: the known authors of each paper with 2..max_authors authors
    teams: list[tuple[list[str], float, float]] = []
    skipped = 0
    for paper in sorted(authors):
        team = sorted(authors[paper])
        n = len(team)
        if n < 2:
            continue
        if n > max_authors:
            skipped += 1
            continue
        per = 1 if counting == "full" else n - 1  # a link's share of the paper is 1 / per
        members = [a for a in team if a in known]
        if len(members) > 1:
            # and what the paper adds to each member's weighted degree (1 when all are known, fractionally)
            teams.append((members, 1.0 / per, (len(members) - 1) / per))
    graph = nx.Graph(view="coauthors", counting=counting, max_authors=max_authors, min_papers=min_papers)
    chosen = known
    if max_nodes is not None and len(people) > max_nodes:
        # ranked without forming the pairs (most of a big network's memory): a person's weighted degree is
        # the share of each of their papers times their known coauthors on it, and the links of the
        # whole network are counted from each person's set of coauthors
        strength: dict[str, float] = defaultdict(float)
        partners: dict[str, set[str]] = defaultdict(set)
        for members, _, degree in teams:
            for a in members:
                strength[a] += degree
                partners[a].update(members)
        links = sum(len(p) - 1 for p in partners.values()) // 2
        chosen = strongest(
            people, {p: len(papers_of[p]) for p in people}, strength, max_nodes, partners.__getitem__
        )
        graph.graph.update(nodes_total=len(people), edges_total=links)
    weights: dict[tuple[str, str], float] = defaultdict(float)
    joint: Counter[tuple[str, str]] = Counter()
    for members, share, _ in teams:
        if chosen is not known:
            members = [a for a in members if a in chosen]
        for pair in combinations(members, 2):
            weights[pair] += share
            joint[pair] += 1
    for person in people:
        if person not in chosen:
            continue
        papers = papers_of[person]
        label = names.get(person) or person.rsplit("/", 1)[-1]
        graph.add_node(
            person, **_node(label, "person", person, len(papers), (years.get(p, 0) for p in papers))
        )
    # only the links among the chosen are formed and sorted
    kept = sorted(weights.items())
    graph.add_edges_from((a, b, {"weight": w, "joint_papers": joint[a, b]}) for (a, b), w in kept)
    graph.graph["papers_over_max_authors"] = skipped
    return graph


# --- topics ----------------------------------------------------------------------------------------------


def generic_concepts(store: Queryable) -> set[str]:
    """The umbrella concepts (``kg:generic true``: neural network, language model, ...), by IRI.

    They say little about what a paper does, so the topic view leaves them out unless asked.
    """
    return {concept for concept, flag in pairs_of(store, "kg:generic") if flag in ("true", "1")}


def _concepts(
    store: Queryable, generic: bool = False
) -> tuple[dict[str, set[str]], dict[str, dict[str, Any]], int]:
    """Papers of each method and subject concept, the concepts' labels and types, and how many
    generic concepts papers mention that were left out (none when ``generic``)."""
    articles = paper_iris(store)
    papers: dict[str, set[str]] = defaultdict(set)
    kinds: dict[str, str] = {}
    umbrella = set() if generic else generic_concepts(store)
    left_out: set[str] = set()
    for kind, predicate in ((p, link) for p, listing in listings().items() for link in listing.topics):
        for paper, concept in pairs_of(store, predicate):
            if concept in umbrella:
                left_out.add(concept)
                continue
            if paper in articles:
                papers[concept].add(paper)
                kinds.setdefault(concept, kind)
    labels: dict[str, list[str]] = defaultdict(list)
    notations: dict[str, list[str]] = defaultdict(list)
    for concept, label in pairs_of(store, "skos:prefLabel"):
        if concept in kinds:
            labels[concept].append(label)
    for concept, notation in pairs_of(store, "skos:notation"):
        if concept in kinds:
            notations[concept].append(notation)
    about: dict[str, dict[str, Any]] = {}
    for concept, kind in kinds.items():
        shown = min(
            _shown(label, notation) or concept.rsplit("/", 1)[-1]
            for label in labels.get(concept) or [""]
            for notation in notations.get(concept) or [""]
        )
        about[concept] = {"label": shown, "type": kind}
    return papers, about, len(left_out)


def _shown(label: str, notation: str) -> str:
    """How a concept is labelled in a view: ``label (notation)``, or whichever of the two it has.

    >>> _shown("Machine Learning", "cs.LG"), _shown("", "cs.LG"), _shown("LoRA", "")
    ('Machine Learning (cs.LG)', 'cs.LG', 'LoRA')
    """
    return f"{label} ({notation})" if label and notation and label != notation else label or notation


def topics(store: Queryable, *, min_occurrences: int = 1, generic: bool = False) -> nx.Graph:
    """Method concepts (``schema:mentions``) and arXiv subjects (``dcterms:subject``), linked by co-occurrence.

    A concept is kept when at least ``min_occurrences`` papers use it; the
    ``weight`` of an edge is the number of papers that use both concepts.
    Generic concepts (``kg:generic true``) are left out unless ``generic``; the
    graph's ``generic_left_out`` says how many were.
    """
    papers_of, about, left_out = _concepts(store, generic)
    years = _paper_years(store)
    graph = nx.Graph(
        view="topics", min_occurrences=min_occurrences, generic=generic, generic_left_out=left_out
    )
    for concept in sorted(papers_of):
        papers = papers_of[concept]
        if len(papers) < min_occurrences:
            continue
        info = about[concept]
        graph.add_node(
            concept,
            **_node(info["label"], info["type"], concept, len(papers), (years.get(p, 0) for p in papers)),
        )
    concepts_of: dict[str, list[str]] = defaultdict(list)
    for concept in graph:
        for paper in papers_of[concept]:
            concepts_of[paper].append(concept)
    weights: Counter[tuple[str, str]] = Counter()
    for paper in sorted(concepts_of):
        for a, b in combinations(sorted(concepts_of[paper]), 2):
            weights[a, b] += 1
    for (a, b), weight in sorted(weights.items()):
        graph.add_edge(a, b, weight=float(weight))
    return graph


# --- papers and ego --------------------------------------------------------------------------------------


def _relations() -> list[tuple[str, str, str]]:
    """(relation, node type, property) of each link from a paper the papers view shows (``kg.kinds``)."""
    return [
        (predicate.partition(":")[2], page, predicate)
        for page, listing in listings().items()
        for predicate in listing.links
    ]


def papers(store: Queryable) -> nx.Graph:
    """The typed graph: papers linked to their persons, subjects, methods, tasks, datasets,
    repositories and areas.

    Edges have ``weight`` 1.0 and a ``relation`` (``creator``, ``subject``,
    ``mentions``, ``introduces``, ``about``, ``usesDataset``, ``codeRepository`` or ``area``).
    """
    rows = _select(
        store,
        """SELECT ?paper ?title ?abstract ?year ?identifier WHERE {
             ?paper a schema:ScholarlyArticle .
             OPTIONAL { ?paper dcterms:title ?title }
             OPTIONAL { ?paper dcterms:abstract ?abstract }
             OPTIONAL { ?paper fabio:hasPublicationYear ?year }
             OPTIONAL { ?paper dcterms:identifier ?identifier }
           }""",
    )
    info: dict[str, dict[str, Any]] = {}
    identifiers: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        paper = row["paper"]
        if "identifier" in row:
            identifiers[paper].add(row["identifier"])
        label = row.get("title") or _shorten(row.get("abstract", "")) or paper.rsplit("/", 1)[-1]
        old = info.get(paper)
        if old is None or label < old["label"]:
            info[paper] = {"label": label, "year": year_of(row.get("year"))}
    graph = nx.Graph(view="papers")
    for paper in sorted(info):
        url = arxiv_url(paper, identifiers[paper])
        graph.add_node(paper, **_node(info[paper]["label"], "paper", paper, 1, [info[paper]["year"]], url))
    union = " UNION ".join(
        f'{{ ?paper {predicate} ?other . BIND("{relation}" AS ?relation) BIND("{kind}" AS ?kind) }}'
        for relation, kind, predicate in _relations()
    )
    rows = _select(
        store,
        f"""SELECT ?paper ?other ?relation ?kind ?shown ?notation WHERE {{
              ?paper a schema:ScholarlyArticle .
              {union}
              OPTIONAL {{ ?other skos:prefLabel ?label }}
              OPTIONAL {{ ?other foaf:name ?name }}
              OPTIONAL {{ ?other schema:name ?sname }}
              OPTIONAL {{ ?other skos:notation ?notation }}
              BIND(COALESCE(?name, ?sname, ?label) AS ?shown)
            }}""",
    )
    linked: dict[str, set[str]] = defaultdict(set)
    kinds: dict[str, str] = {}
    precedence = {page: listing.precedence for page, listing in listings().items()}
    labels: dict[str, str] = {}
    relations: dict[tuple[str, str], str] = {}
    for row in rows:
        other, paper = row["other"], row["paper"]
        linked[other].add(paper)
        # a node linked as two kinds (a dataset one paper introduces and others use) is filed as the site
        # files it: the kind of the lower precedence (kg.kinds.Listing)
        if other not in kinds or precedence[row["kind"]] < precedence[kinds[other]]:
            kinds[other] = row["kind"]
        shown, notation = row.get("shown", ""), row.get("notation", "")
        if shown and notation and shown != notation:
            shown = f"{shown} ({notation})"
        shown = shown or notation or other.rsplit("/", 1)[-1]
        if other not in labels or shown < labels[other]:
            labels[other] = shown
        key = (paper, other)
        relations[key] = min(relations.get(key, row["relation"]), row["relation"])
    for other in sorted(linked):
        if other in graph:  # a paper that is also an object (never in built graphs): keep it a paper
            continue
        years = [graph.nodes[p]["year_min"] for p in linked[other]]
        url = _github_url(other) if kinds[other] == "repository" else ""
        graph.add_node(other, **_node(labels[other], kinds[other], other, len(linked[other]), years, url))
    for (paper, other), relation in sorted(relations.items()):
        graph.add_edge(paper, other, weight=1.0, relation=relation)
    return graph


def _shorten(text: str, limit: int = 120) -> str:
    """The start of a text for a label, cut at a word.

    >>> _shorten("a b c d", 4)
    'a b…'
    """
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + "…"


def find(graph: nx.Graph, focus: str) -> str:
    """The node a user means: its IRI, its exact label (any case), or the one label containing ``focus``.

    >>> g = nx.Graph()
    >>> g.add_node("p/1", label="Ada Lovelace"); g.add_node("p/2", label="Alan Turing")
    >>> find(g, "ada lovelace"), find(g, "turing")
    ('p/1', 'p/2')
    """
    if focus in graph:
        return focus
    wanted = " ".join(focus.split()).casefold()
    exact = sorted(n for n, label in graph.nodes(data="label") if str(label).casefold() == wanted)
    if exact:
        return str(exact[0])
    partial = sorted(
        (str(label), n) for n, label in graph.nodes(data="label") if wanted in str(label).casefold()
    )
    if len(partial) == 1:
        return str(partial[0][1])
    if not partial:
        raise KgError(f"no node called {focus!r} in the graph", code="unknown-focus")
    shown = "; ".join(label for label, _ in partial[:10])
    raise KgError(f"{focus!r} names {len(partial)} nodes; be more precise: {shown}", code="ambiguous-focus")


def ego(store: Queryable, focus: str, depth: int = 2) -> nx.Graph:
    """The neighbourhood of one person, paper, subject, method or repository in the typed graph.

    ``focus`` is an IRI or a label (see :func:`find`); ``depth`` counts steps in
    the typed graph (a person's coauthors are 2 steps away, through a paper).
    The focus node has ``focus=True``.
    """
    whole = papers(store)
    node = find(whole, focus)
    graph: nx.Graph = nx.ego_graph(whole, node, radius=max(0, depth)).copy()
    for n in graph:
        graph.nodes[n]["focus"] = n == node
    graph.graph.update(view="ego", focus=node, depth=depth)
    return graph


# --- limiting and decorating -----------------------------------------------------------------------------


# --- the table of views ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ViewOptions:
    """Every option of every view (each view reads the ones it needs)."""

    counting: Counting = "full"
    max_authors: int = 25
    min_papers: int = 1
    min_occurrences: int = 1
    focus: str = ""
    depth: int = 2
    resolution: float = 1.0
    seed: int = 0
    size_by: SizeBy = "papers"
    max_nodes: int = DEFAULT_MAX_NODES
    max_edges: int | None = DEFAULT_MAX_EDGES
    """Links a view keeps at most (the strongest, see :func:`backbone`); ``None``: all of them."""
    generic: bool = False
    """topics: keep the generic (umbrella) concepts, ``kg:generic true``, that it leaves out by default."""
    method: str = ""
    """coauthors: only the papers of this method (and narrower ones), by label or slug."""
    subject: str = ""
    """coauthors: only the papers of this arXiv subject or conference area (and narrower ones)."""
    task: str = ""
    """coauthors: only the papers on this task (and narrower ones), by label, abbreviation or slug."""
    dataset: str = ""
    """coauthors: only the papers that use or introduce this dataset (and its variants)."""


def _coauthors(store: Queryable, o: ViewOptions) -> nx.Graph:
    """Persons linked by joint papers (full or fractional counting); of a method's, subject's, task's
    or dataset's papers (of all of those given)."""
    within, shown = None, ""
    scopes = (("method", o.method), ("subject", o.subject), ("task", o.task), ("dataset", o.dataset))
    given = [name for _, name in scopes if name]
    for kind, name in scopes:
        if name:
            shown, found = scope.papers(lambda text: _select(store, text), kind, name)
            within = found if within is None else within & found
    graph = coauthors(
        store,
        counting=o.counting,
        max_authors=o.max_authors,
        min_papers=o.min_papers,
        max_nodes=o.max_nodes,
        within=within,
    )
    if within is not None:
        graph.graph.update(within=" and ".join(given), within_papers=len(within))
        graph.graph["within_label"] = shown if len(given) == 1 else graph.graph["within"]
    return graph


def _topics(store: Queryable, o: ViewOptions) -> nx.Graph:
    """Methods and arXiv subjects linked by co-occurrence in papers."""
    return topics(store, min_occurrences=o.min_occurrences, generic=o.generic)


def _papers(store: Queryable, o: ViewOptions) -> nx.Graph:
    """Papers with their persons, subjects, methods, repositories and areas."""
    return papers(store)


def _ego(store: Queryable, o: ViewOptions) -> nx.Graph:
    """The neighbourhood of one person, paper or concept (--focus, --depth)."""
    if not o.focus:
        raise KgError(
            "the ego view needs --focus NAME (a person, paper, method or subject)", code="bad-option"
        )
    return ego(store, o.focus, o.depth)


@dataclass(frozen=True, slots=True)
class View:
    """A view in the table: how it is computed from a store, and what it is."""

    compute: Callable[[Queryable, ViewOptions], nx.Graph]
    """The undecorated graph of the view (cut and decorated by :func:`view`)."""
    whole: bool = True
    """It can be computed whole from the store alone (graph exports take it with ``--view``);
    ``False``: it needs more (the ego view needs ``--focus``)."""

    @property
    def about(self) -> str:
        """What it shows: the first line of its function's docstring."""
        return (self.compute.__doc__ or "").strip().splitlines()[0]


VIEWS: dict[str, View] = {
    "coauthors": View(_coauthors),
    "topics": View(_topics),
    "papers": View(_papers),
    "ego": View(_ego, whole=False),
}
"""The views by name (``kg viz VIEW``, ``kg export --view``, ``kg list views``); adding one is a
function that computes it plus one line here."""


def view(
    store: Queryable, name: str, options: ViewOptions | None = None, *, decorated: bool = True
) -> nx.Graph:
    """The named view, cut to ``max_nodes`` and (unless not ``decorated``) decorated with communities,
    colours, sizes and a layout (:func:`decorate`): what ``kg viz`` draws and exporters write.

    Louvain and the layout are most of a large view's cost: exports leave them to the tool that opens
    the file unless asked.

    >>> from kg.store import memory
    >>> view(memory(), "coauthors").graph["omitted_nodes"]
    0
    >>> view(memory(), "coautors")
    Traceback (most recent call last):
    ...
    kg.errors.KgError: error: unknown view 'coautors'; did you mean coauthors? choose from: coauthors, ego, papers, topics [unknown-view]
    """
    options = options or ViewOptions()
    try:
        compute = VIEWS[name].compute
    except KeyError:
        raise KgError(unknown("view", name, sorted(VIEWS)), code="unknown-view") from None
    graph = limit(compute(store, options), options.max_nodes, options.max_edges)
    if not decorated:
        return graph
    return decorate(graph, resolution=options.resolution, seed=options.seed, size_by=options.size_by)
