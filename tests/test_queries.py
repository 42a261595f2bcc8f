"""Every named query on the seeds: rows compared with the same answer computed in Python over rdflib.

The expected rows are computed independently (plain loops over the graph read from graph.ttl, no
SPARQL), so the tests follow the graph as the extractors change it, plus hand-checked spot values.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pyoxigraph as ox
import pytest
import rdflib
from hypothesis import given
from hypothesis import strategies as st
from rdflib import RDF, Namespace, URIRef
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import KgError, UsageError
from kg.queries import QUERIES, Param, named_query, param_kinds, parse, sized
from kg.sparql import Solutions, bind, execute

DCT = Namespace("http://purl.org/dc/terms/")
FOAF = Namespace("http://xmlns.com/foaf/0.1/")
KG = Namespace("https://w3id.org/kg/ns#")
SCHEMA = Namespace("https://schema.org/")
SKOS = Namespace("http://www.w3.org/2004/02/skos/core#")
FABIO = Namespace("http://purl.org/spar/fabio/")
HOFMANN = "Thomas Hofmann"


@pytest.fixture(scope="session")
def built(seed_outputs: Path) -> Path:
    """The seeds built once into a temporary folder (graph.ttl and store/)."""
    return seed_outputs


@pytest.fixture(scope="session")
def store(built: Path) -> ox.Store:
    return ox.Store.read_only(str(built / "store"))


@pytest.fixture(scope="session")
def g(built: Path) -> rdflib.Graph:
    return rdflib.Graph().parse(built / "graph.ttl")


def run(store: ox.Store, name: str, **values: str) -> Solutions:
    query = named_query(name)
    cap = query.limit(values)
    result = execute(store, bind(sized(query.text, cap), query.bindings(values)), limit=cap, source=name)
    assert isinstance(result, Solutions)
    return result


def rows(result: Solutions, *names: str) -> list[tuple[str | None, ...]]:
    """Chosen columns as plain strings (None for unbound), in result order."""
    index = [result.variables.index(n) for n in names]
    return [tuple(None if row[i] is None else _text(row[i]) for i in index) for row in result.rows]


def _text(term: object) -> str:
    return term.value if isinstance(term, ox.NamedNode | ox.Literal | ox.BlankNode) else str(term)


def person_named(g: rdflib.Graph, name: str) -> URIRef:
    found = [p for p, n in g.subject_objects(FOAF.name) if str(n).lower() == name.lower()]
    assert len(found) == 1, found
    return URIRef(found[0])


def papers_of(g: rdflib.Graph, person: URIRef) -> set[URIRef]:
    return {URIRef(p) for p in g.subjects(DCT.creator, person)}


def label(g: rdflib.Graph, node: object) -> str:
    return str(g.value(node, SKOS.prefLabel))  # type: ignore[arg-type]


def generic(g: rdflib.Graph, concept: object) -> bool:
    """Whether a concept is an umbrella one (``kg:generic true``), left out of lists by default."""
    return any(v.toPython() is True for v in g.objects(concept, KG.generic))  # type: ignore[arg-type]


def methods(g: rdflib.Graph, paper: object) -> set[URIRef]:
    return {URIRef(m) for m in g.objects(paper, SCHEMA.mentions)}  # type: ignore[arg-type]


def matches_method(g: rdflib.Graph, concept: URIRef, key: str) -> bool:
    labels = {str(v).lower() for p in (SKOS.prefLabel, SKOS.altLabel) for v in g.objects(concept, p)}
    return str(concept).lower().endswith("/method/" + key.lower()) or key.lower() in labels


def some_method(g: rdflib.Graph) -> str:
    """The slug of the most mentioned method, or a known slug when the graph has no mentions yet."""
    counts = Counter(m for _, m in g.subject_objects(SCHEMA.mentions))
    if not counts:
        return "transformer"
    return str(max(counts, key=lambda m: (counts[m], str(m)))).rsplit("/", 1)[1]


def share(part: int, whole: int) -> str:
    return str((Decimal(1000 * part) / Decimal(whole)).quantize(Decimal(1), ROUND_HALF_UP) / 1000)


# --- the table -----------------------------------------------------------------------------------------


def test_at_least_twelve_documented_queries() -> None:
    assert len(QUERIES) >= 12
    for q in QUERIES.values():
        assert q.description and q.example.startswith(f"kg query {q.name}"), q.name
        assert all(p.name in param_kinds() for p in q.params)
        assert "PREFIX" in q.text  # runnable as is against any endpoint


def test_every_query_is_tested() -> None:
    from tests import test_task_queries  # the queries of tasks and datasets are tested there

    names = [*globals(), *vars(test_task_queries)]
    tested = {name.removeprefix("test_").replace("_", "-") for name in names if name.startswith("test_")}
    assert set(QUERIES) <= tested, set(QUERIES) - tested


def test_unknown_query_lists_shipped() -> None:
    with pytest.raises(
        UsageError, match=r"unknown query 'coauthor'; did you mean coauthors\? choose from: .*coauthors"
    ):
        named_query("coauthor")


def test_missing_and_unknown_params() -> None:
    with pytest.raises(UsageError, match="parameter 'author' is required: "):
        QUERIES["coauthors"].bindings({})
    with pytest.raises(UsageError, match="takes no parameter 'autor'"):
        QUERIES["coauthors"].bindings({"autor": "x"})
    with pytest.raises(UsageError, match="4-digit"):
        Param("year", "").term("20x4")
    with pytest.raises(UsageError, match="positive integer"):
        QUERIES["top-authors"].limit({"limit": "0"})


def test_injection_is_just_a_name(store: ox.Store) -> None:
    evil = 'x" } ; DROP ALL ; # \\ \n'
    assert run(store, "coauthors", author=evil).rows == []
    assert len(store) > 0


# --- one test per named query --------------------------------------------------------------------------


def test_coauthors(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "coauthors", author="THOMAS  hofmann"), "coauthor", "name", "papers")
    me = person_named(g, HOFMANN)
    expected = []
    for other in g.objects(me, KG.coauthor):
        joint = papers_of(g, me) & papers_of(g, URIRef(other))
        expected.append((str(other), str(g.value(other, FOAF.name)), str(len(joint))))
    expected.sort(key=lambda r: (-int(r[2]), r[1]))
    assert got == expected
    # hand-checked on the seed pages
    assert {r[1] for r in got} >= {"Damiano Meier", "Giulia Lanzillotta"}


def test_top_authors(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "top-authors"), "name", "papers")
    counts = Counter(p for _, p in g.subject_objects(DCT.creator))
    expected = sorted(
        ((str(g.value(p, FOAF.name)), str(n)) for p, n in counts.items()), key=lambda r: (-int(r[1]), r[0])
    )
    assert got == expected[:20]
    assert got[0] == (HOFMANN, "18")
    assert len(rows(run(store, "top-authors", limit="3"), "name")) == 3


def test_author_papers(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "author-papers", author=HOFMANN), "paper", "title", "year", "position")
    me = person_named(g, HOFMANN)
    assert {r[0] for r in got} == {str(p) for p in papers_of(g, me)}
    assert len(got) == 18
    years = [r[2] or "" for r in got]
    assert years == sorted(years, reverse=True)
    for paper, title, _, position in got:
        assert title == (
            str(g.value(URIRef(paper), DCT.title)) if g.value(URIRef(paper), DCT.title) else None
        )
        roles = [r for r in g.objects(URIRef(paper), KG.authorship) if g.value(r, KG.author) == me]
        assert position == (str(g.value(roles[0], KG.position)) if roles else None)


@pytest.mark.parametrize("with_generic", [False, True])
def test_author_topics(store: ox.Store, g: rdflib.Graph, with_generic: bool) -> None:
    values = {"author": HOFMANN, "generic": "true"} if with_generic else {"author": HOFMANN}
    got = rows(run(store, "author-topics", **values), "kind", "topic", "label", "papers")
    me = person_named(g, HOFMANN)
    counts: Counter[tuple[str, str, str]] = Counter()
    for paper in papers_of(g, me):
        for s in set(g.objects(paper, DCT.subject)):
            counts["subject", str(s), str(g.value(s, SKOS.notation))] += 1
        for a in set(g.objects(paper, KG.area)):
            counts["area", str(a), label(g, a)] += 1
        for m in methods(g, paper):
            if with_generic or not generic(g, m):
                counts["method", str(m), label(g, m)] += 1
    expected = sorted(((*k, str(n)) for k, n in counts.items()), key=lambda r: (r[0], -int(r[3]), r[2]))
    assert got == expected
    assert ("subject", "https://w3id.org/kg/arxiv/cs.LG", "cs.LG", "12") in got


def test_papers_with_code(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "papers-with-code"), "paper", "repository")
    expected = {(str(p), str(r)) for p, r in g.subject_objects(SCHEMA.codeRepository)}
    assert sorted(got) == sorted(expected)
    assert len(got) == len(expected) >= 15


def test_papers_with_code_pages_start_the_list(store: ox.Store) -> None:
    """The page's last year is found first (#@last) and older rows left out: every page is still the
    start of the whole list (newest first, papers without a year last), and a cut one says so."""
    whole = run(store, "papers-with-code", limit="100000")
    years = [row[whole.variables.index("year")] for row in whole.rows]
    dated = [int(y.value) for y in years if y is not None]  # type: ignore[union-attr]
    assert dated == sorted(dated, reverse=True) and len(set(dated)) > 1
    assert years.index(None) == len(dated) and len(dated) < len(years)  # undated last, and some are
    for cap in range(1, len(whole.rows) + 2):
        page = run(store, "papers-with-code", limit=str(cap))
        assert page.rows == whole.rows[:cap]
        assert page.truncated == (cap < len(whole.rows))


def test_code_share_by_year(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "code-share-by-year"), "year", "papers", "with_code", "share")
    per_year: dict[str, set[object]] = defaultdict(set)
    for paper in g.subjects(RDF.type, SCHEMA.ScholarlyArticle):
        for year in g.objects(paper, FABIO.hasPublicationYear):
            per_year[str(year)].add(paper)
    coded = set(g.subjects(SCHEMA.codeRepository, None))
    expected = [
        (y, str(len(ps)), str(len(ps & coded)), share(len(ps & coded), len(ps)))
        for y, ps in sorted(per_year.items())
    ]
    assert [(y, n, c) for y, n, c, _ in got] == [(y, n, c) for y, n, c, _ in expected]
    assert [Decimal(s or "0") for *_, s in got] == [Decimal(s) for *_, s in expected]


def test_code_share_by_subject(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "code-share-by-subject"), "subject", "papers", "with_code", "share")
    per: dict[str, set[object]] = defaultdict(set)
    for paper in g.subjects(RDF.type, SCHEMA.ScholarlyArticle):
        for s in g.objects(paper, DCT.subject):
            per[str(g.value(s, SKOS.notation))].add(paper)
    coded = set(g.subjects(SCHEMA.codeRepository, None))
    expected = sorted(
        ((c, str(len(ps)), str(len(ps & coded)), share(len(ps & coded), len(ps))) for c, ps in per.items()),
        key=lambda r: (-int(r[1]), r[0]),
    )
    assert [r[:3] for r in got] == [r[:3] for r in expected]
    assert [Decimal(r[3] or "0") for r in got] == [Decimal(r[3]) for r in expected]
    assert got[0][:3] == ("cs.LG", "12", "2")


def _trend(g: rdflib.Graph, key: str | None, with_generic: bool = False) -> list[tuple[str, str, str, str]]:
    counts: Counter[tuple[str, str, str]] = Counter()
    for paper, m in g.subject_objects(SCHEMA.mentions):
        if key is not None and not matches_method(g, URIRef(m), key):
            continue
        if key is None and not with_generic and generic(g, m):
            continue
        for year in g.objects(paper, FABIO.hasPublicationYear):
            counts[str(m), label(g, m), str(year)] += 1
    return sorted(((*k, str(n)) for k, n in counts.items()), key=lambda r: (r[1], r[2]))


def test_method_trend(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "method-trend"), "concept", "label", "period", "papers")
    assert got == _trend(g, None)
    every = rows(run(store, "method-trend", generic="true"), "concept", "label", "period", "papers")
    assert every == _trend(g, None, with_generic=True)
    key = some_method(g)
    assert rows(run(store, "method-trend", method=key), "concept", "label", "period", "papers") == _trend(
        g, key
    )


@pytest.fixture(scope="module")
def dated(tmp_path_factory: pytest.TempPathFactory) -> ox.Store:
    """A graph of arXiv papers over several months: ids that hold their month, some with dates."""
    import json

    import kg

    folder = tmp_path_factory.mktemp("dated")
    lines = []
    for n, (month, text) in enumerate(
        [
            ("2503", "We fine-tune with LoRA."),
            ("2503", "A transformer with LoRA."),
            ("2504", "LoRA again."),
            ("2506", "A transformer."),
            ("2506", "LoRA and a transformer."),
            ("2507", "Transformers at scale."),
            ("2409", "Old LoRA work."),
        ]
    ):
        record = {"id": f"{month}.{n:05d}", "title": f"Paper {n}", "authors": [f"Author {n}"],
                  "categories": ["cs.LG"], "summary": text}  # fmt: skip
        if n == 3:  # a date from the source wins over the id's month
            record["versions"] = [{"version": "v1", "created": "Tue, 1 Jul 2025 10:00:00 GMT"}]
        lines.append(json.dumps(record))
    (folder / "day.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    kg.build([str(folder / "day.jsonl")], str(folder / "out"))
    return ox.Store.read_only(str(folder / "out" / "store"))


def test_method_trend_by_month_and_quarter_counts_as_the_figure_does(dated: ox.Store) -> None:
    from kg.plots import trend
    from kg.plots.figures import PlotOptions

    store = dated

    for grain in ("month", "quarter"):
        drawn = trend.compute(store, PlotOptions(top=50, generic=True, grain=grain, min_period=1))
        figure = {
            (s.concept.iri, period): int(v)
            for s in drawn.series
            for period, v in zip(drawn.periods, s.values, strict=True)
            if v == v and v  # not a gap, not 0
        }
        found = run(store, "method-trend", generic="true", by=grain)
        answered = {(c, p): int(n) for c, _, p, n in rows(found, "concept", "label", "period", "papers")}
        assert figure and {k: n for k, n in answered.items() if k[1] in drawn.periods} == figure
    months = rows(run(store, "method-trend", method="lora", by="month"), "period", "papers")
    assert months == [("2024-09", "1"), ("2025-03", "2"), ("2025-04", "1"), ("2025-06", "1")]
    window = rows(
        run(store, "method-trend", by="month", **{"from": "2025-Q2", "to": "2025-06"}), "label", "period"
    )
    assert window == [("LoRA", "2025-04"), ("LoRA", "2025-06"), ("Transformer", "2025-06")]
    assert rows(run(store, "method-trend", method="lora", by="quarter", to="2025"), "period", "papers") == [
        ("2024-Q3", "1"),
        ("2025-Q1", "2"),
        ("2025-Q2", "2"),
    ]
    with pytest.raises(UsageError, match="by must be month, quarter or year"):
        run(store, "method-trend", by="week")


def test_method_cooccurrence(store: ox.Store, g: rdflib.Graph) -> None:
    key = some_method(g)
    for with_generic in (False, True):
        values = {"method": key.upper(), "generic": str(with_generic).lower()}
        got = rows(run(store, "method-cooccurrence", **values), "other", "label", "papers")
        counts: Counter[str] = Counter()
        for paper in set(g.subjects(SCHEMA.mentions, None)):
            mine = methods(g, paper)
            hits = {m for m in mine if matches_method(g, m, key)}
            for hit in hits:
                for other in mine - {hit}:
                    if with_generic or not generic(g, other):
                        counts[str(other)] += 1
        expected = sorted(
            ((o, label(g, URIRef(o)), str(n)) for o, n in counts.items()), key=lambda r: (-int(r[2]), r[1])
        )
        assert sorted(got) == sorted(expected)


def test_method_people(store: ox.Store, g: rdflib.Graph) -> None:
    key = some_method(g)
    got = rows(run(store, "method-people", method=key), "person", "name", "papers")
    per: dict[str, set[object]] = defaultdict(set)
    for paper, m in g.subject_objects(SCHEMA.mentions):
        if matches_method(g, URIRef(m), key):
            for person in g.objects(paper, DCT.creator):
                per[str(person)].add(paper)
    expected = sorted(
        ((p, str(g.value(URIRef(p), FOAF.name)), str(len(ps))) for p, ps in per.items()),
        key=lambda r: (-int(r[2]), r[1]),
    )
    assert got == expected


def test_introduced_methods(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "introduced-methods"), "paper", "method", "label", "related")
    expected = []
    for paper, method in g.subject_objects(KG.introduces):
        if (method, RDF.type, KG.Method) not in g:
            continue
        known = {label(g, k) for p in (SKOS.related, SKOS.broader) for k in g.objects(method, p)}
        expected.append((str(paper), str(method), label(g, method), known))
    assert sorted((p, m, lab, set(filter(None, (r or "").split("; ")))) for p, m, lab, r in got) == sorted(
        expected
    )


def test_introduced_methods_page_is_the_start_of_the_whole_list(store: ox.Store) -> None:
    """The row cap is written into the query's sorting sub-select (``#@limit``): a page of the
    list is its start, cut where the whole list would be, and the cut is still reported."""
    whole = run(store, "introduced-methods", limit="100000")
    assert not whole.truncated and len(whole.rows) > 20
    labels = [row[whole.variables.index("label")].value for row in whole.rows]  # type: ignore[union-attr]
    assert labels == sorted(labels)
    for cap in (1, 7, 20):
        page = run(store, "introduced-methods", limit=str(cap))
        assert page.rows == whole.rows[:cap]
        assert page.truncated
    assert "LIMIT 8\n" in sized(QUERIES["introduced-methods"].text, 7)
    assert "#@limit" not in sized(QUERIES["introduced-methods"].text, None)


@given(
    cap=st.none() | st.integers(min_value=1, max_value=10**9),
    expression=st.sampled_from(["SUM(?n)", "SUM(?rows_in_year) ", "COUNT(DISTINCT ?p)"]),
    indent=st.sampled_from(["", "  ", "\t"]),
)
def test_rows_marker_receives_one_row_more_than_the_cap(
    cap: int | None, expression: str, indent: str
) -> None:
    text = f"SELECT ?y WHERE {{ ?s ?p ?y }} GROUP BY ?y\n{indent}HAVING ({expression}>= 1001)  #@rows\n"
    got = sized(text, cap)
    assert "#@rows" not in got
    line = got.splitlines()[1]
    expected = f"{indent}HAVING (false)" if cap is None else f"{indent}HAVING ({expression}>= {cap + 1})"
    assert line == expected
    # the query stays valid SPARQL either way
    ox.Store().query(got)


def test_method_people_page_is_the_start_of_the_whole_list(store: ox.Store, g: rdflib.Graph) -> None:
    """method-people is cut to 1000 rows by default inside its sorting sub-select: any page is the
    start of the whole ranking (most papers first, then names), and the cut is reported."""
    key = some_method(g)
    whole = run(store, "method-people", method=key, limit="100000")
    assert not whole.truncated and len(whole.rows) > 3
    assert named_query("method-people").limit({}) == 1000
    for cap in (1, 2, len(whole.rows) - 1):
        page = run(store, "method-people", method=key, limit=str(cap))
        assert page.rows == whole.rows[:cap]
        assert page.truncated


def test_papers_in_subject(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "papers-in-subject", subject="cs.lg"), "paper", "via")
    lg = URIRef("https://w3id.org/kg/arxiv/cs.LG")
    assert sorted(got) == sorted((str(p), "cs.LG") for p in g.subjects(DCT.subject, lg))
    assert len(got) == 12
    # an archive takes in its categories
    archive = rows(run(store, "papers-in-subject", subject="cs"), "paper")
    cs_papers = {
        p for p, s in g.subject_objects(DCT.subject) if str(g.value(s, SKOS.notation)).startswith("cs.")
    }
    assert {r[0] for r in archive} == {str(p) for p in cs_papers}
    # a conference area takes in its subareas, found by label
    area = rows(run(store, "papers-in-subject", subject="deep learning"), "paper", "via")
    top = next(
        a for a in g.subjects(SKOS.prefLabel, None) if str(g.value(a, SKOS.prefLabel)) == "Deep Learning"
    )
    subareas = {top, *g.subjects(SKOS.broader, top)}
    expected = {(str(p), label(g, a)) for p, a in g.subject_objects(KG.area) if a in subareas}
    assert set(area) == expected and expected


def test_ego_network(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "ego-network", author=HOFMANN), "depth", "source", "target")
    me = person_named(g, HOFMANN)
    first = {URIRef(o) for o in g.objects(me, KG.coauthor)}
    expected = {("1", str(me), str(f)) for f in first}
    for f in first:
        for s in g.objects(f, KG.coauthor):
            if s != me and (str(f) < str(s) or s not in first):
                expected.add(("2", str(f), str(s)))
    assert set(got) == expected
    assert len(got) == len(expected)
    assert {r[2] for r in got if r[0] == "1"} == {
        "https://w3id.org/kg/id/person/damiano_meier",
        "https://w3id.org/kg/id/person/giulia_lanzillotta",
    }


def test_repositories_by_owner(store: ox.Store, g: rdflib.Graph) -> None:
    got = rows(run(store, "repositories-by-owner"), "owner_name", "repositories", "papers")
    repos: dict[str, set[object]] = defaultdict(set)
    names: dict[str, set[str]] = defaultdict(set)
    papers: dict[str, set[object]] = defaultdict(set)
    for repo in g.subjects(RDF.type, SCHEMA.SoftwareSourceCode):
        for owner in g.objects(repo, KG.owner):
            key = str(owner).lower()
            repos[key].add(repo)
            names[key].add(str(owner))
            papers[key] |= set(g.subjects(SCHEMA.codeRepository, repo))
    expected = sorted(
        ((min(names[k]), str(len(repos[k])), str(len(papers[k]))) for k in repos),
        key=lambda r: (-int(r[1]), -int(r[2]), r[0]),
    )
    assert got == expected
    assert rows(run(store, "repositories-by-owner", owner="ibm"), "owner_name", "repositories") == [
        ("IBM", "1")
    ]


def test_summary(store: ox.Store, g: rdflib.Graph) -> None:
    (got,) = rows(
        run(store, "summary"),
        "papers",
        "persons",
        "authorships",
        "single_author_papers",
        "subjects",
        "areas",
        "first_year",
        "last_year",
        "with_code",
        "share_with_code",
    )
    papers = set(g.subjects(RDF.type, SCHEMA.ScholarlyArticle))
    # an authorship is a place in an author list: a paper's count of them is its number of authors
    authors = Counter(p for p, _ in g.subject_objects(KG.authorship))
    years = [int(str(y)) for y in g.objects(None, FABIO.hasPublicationYear)]
    coded = set(g.subjects(SCHEMA.codeRepository, None))
    expected = (
        len(papers),
        len(set(g.subjects(RDF.type, FOAF.Person))),
        sum(authors.values()),
        sum(1 for n in authors.values() if n == 1),
        len(set(g.objects(None, DCT.subject))),
        len(set(g.objects(None, KG.area))),
        min(years),
        max(years),
        len(coded),
    )
    assert tuple(int(x or 0) for x in got[:9]) == expected
    assert Decimal(got[9] or "0") == Decimal(share(len(coded), len(papers)))
    assert got[:2] == ("157", "70")


def test_summary_counts_places_in_author_lists() -> None:
    """Authorships are places in author lists (a person listed twice on a paper holds two), and a
    single-author paper is one whose list has one place: counted as papers with a first place less
    papers with a second, which must agree with counting each paper's places."""
    a = "https://w3id.org/kg/id/authorship/"
    ttl = f"""
    @prefix kg: <https://w3id.org/kg/ns#> .
    @prefix dcterms: <http://purl.org/dc/terms/> .
    @prefix schema: <https://schema.org/> .
    @prefix e: <https://example.org/> .
    e:solo a schema:ScholarlyArticle ; dcterms:creator e:x ; kg:authorship <{a}solo-1> .
    <{a}solo-1> kg:position 1 ; kg:author e:x .
    e:twice a schema:ScholarlyArticle ; dcterms:creator e:x ; kg:authorship <{a}twice-1>, <{a}twice-2> .
    <{a}twice-1> kg:position 1 ; kg:author e:x .
    <{a}twice-2> kg:position 2 ; kg:author e:x .
    e:three a schema:ScholarlyArticle ; dcterms:creator e:x, e:y, e:z ;
        kg:authorship <{a}three-1>, <{a}three-2>, <{a}three-3> .
    <{a}three-1> kg:position 1 . <{a}three-2> kg:position 2 . <{a}three-3> kg:position 3 .
    e:nobody a schema:ScholarlyArticle .
    """
    small = ox.Store()
    small.load(ttl.encode(), ox.RdfFormat.TURTLE)
    (got,) = rows(run(small, "summary"), "papers", "authorships", "single_author_papers", "authors_per_paper")
    assert got == ("4", "6", "1", "1.5")


# --- the CLI -------------------------------------------------------------------------------------------


def test_cli_named_query_and_formats(built: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["query", "coauthors", "--out", str(built), "--param", f"author={HOFMANN}", "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "coauthor,name,papers"
    assert "Damiano Meier" in result.stdout
    table = runner.invoke(app, ["query", "summary", "--out", str(built)])
    assert table.exit_code == 0 and "papers" in table.stdout and "157" in table.stdout


def test_cli_explains_no_rows_from_a_graph_without_the_counts(built: Path, tmp_path: Path) -> None:
    """top-authors and method-trend read the build's counts; on a graph without them (an older build,
    a graph loaded from elsewhere) the empty answer is explained on stderr, not left silent."""
    old = ox.Store(str(tmp_path / "store"))
    old.load(
        b"<https://example.org/p> <http://purl.org/dc/terms/creator> <https://example.org/a> .\n"
        b'<https://example.org/a> <http://xmlns.com/foaf/0.1/name> "A" .\n',
        ox.RdfFormat.N_TRIPLES,
    )
    old.flush()
    del old
    runner = CliRunner()
    for name, term in (("top-authors", "paperCount"), ("method-trend", "countsByYear")):
        empty = runner.invoke(app, ["query", name, "--out", str(tmp_path)])
        assert empty.exit_code == 0, empty.output
        assert f"reads <https://w3id.org/kg/ns#{term}>" in empty.stderr and "[missing-counts]" in empty.stderr
        fine = runner.invoke(app, ["query", name, "--out", str(built)])
        assert fine.exit_code == 0 and "missing-counts" not in fine.stderr
    # a query with no rows on a graph that has the counts says nothing more
    none = runner.invoke(app, ["query", "method-trend", "--out", str(built), "-p", "method=no-such-method"])
    assert none.exit_code == 2 and "missing-counts" not in none.stderr  # it names no method: a usage error
    assert named_query("top-authors").needs == ("https://w3id.org/kg/ns#paperCount",)


@pytest.mark.parametrize("needs", ["foaf:name", "kg:noSuchTerm", "<https://w3id.org/kg/ns#paperCount>"])
def test_needs_header_takes_kg_terms_only(tmp_path: Path, needs: str) -> None:
    rq = tmp_path / "q.rq"
    rq.write_text(f"# description: d\n# needs: {needs}\nSELECT * WHERE {{ ?s ?p ?o }}\n", encoding="utf-8")
    with pytest.raises(KgError, match="'# needs:' takes kg: terms"):
        parse(rq)


def test_cli_bad_query_exits_1_with_position(built: Path) -> None:
    result = CliRunner().invoke(app, ["query", "SELECT * WHERE {\n  ?s ?p }", "--out", str(built)])
    assert result.exit_code == 1
    assert "query:2: error: bad SPARQL at column" in result.stderr and "[bad-query]" in result.stderr


def test_cli_rq_file_construct_and_ask(built: Path, tmp_path: Path) -> None:
    rq = tmp_path / "names.rq"
    rq.write_text("PREFIX foaf: <http://xmlns.com/foaf/0.1/>\nCONSTRUCT WHERE { ?p foaf:name ?n }\n")
    result = CliRunner().invoke(app, ["query", str(rq), "--out", str(built)])
    assert result.exit_code == 0
    parsed = rdflib.Graph().parse(data=result.stdout, format="turtle")
    assert len(parsed) == 70
    ask = CliRunner().invoke(app, ["query", "ASK { ?s a foaf:Person }", "--out", str(built), "-f", "json"])
    assert ask.stdout == '{"head":{},"boolean":true}'


def test_cli_limit_and_unknown_name(built: Path) -> None:
    result = CliRunner().invoke(
        app, ["query", "top-authors", "--out", str(built), "-f", "tsv", "--limit", "2"]
    )
    assert len(result.stdout.splitlines()) == 3
    assert "stopped at 2 rows" in result.stderr
    with pytest.raises(UsageError, match="choose from"):
        CliRunner().invoke(app, ["query", "coauthor", "--out", str(built)], catch_exceptions=False)


def test_list_queries() -> None:
    result = CliRunner().invoke(app, ["list", "queries"])
    assert result.exit_code == 0
    for name, q in QUERIES.items():
        assert name in result.stdout and q.description in result.stdout
    assert "parameters: author [limit]" in result.stdout
    assert "reads the build's counts: kg:paperCount" in result.stdout


def test_kg_open(built: Path) -> None:
    import kg

    graph = kg.open(built)
    assert len(graph) == len(ox.Store.read_only(str(built / "store")))
    me = URIRef("https://w3id.org/kg/id/person/thomas_hofmann")
    assert str(graph.value(me, FOAF.name)) == HOFMANN
    (count,) = next(
        iter(graph.query("SELECT (COUNT(*) AS ?n) WHERE { ?p a foaf:Person }", initNs={"foaf": FOAF}))
    )
    assert int(count) == 70


# --- forms that stand in for slower ones: the same rows -----------------------------------------------
#
# The method queries sort on a short prefix of a name or label before the whole of it, compare IRIs with
# sameTerm rather than != and count rows rather than distinct papers where a paper cannot come twice.
# A small graph where those shortcuts would show: names and labels alike in their first 12 characters,
# longer than the 15 bytes kept inline, with letters beyond ASCII, and a method name that two concepts
# answer to (one by its slug, one by a label).

_TIES = """
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix fabio: <http://purl.org/spar/fabio/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix schema: <https://schema.org/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix m: <https://w3id.org/kg/method/> .
@prefix e: <https://example.org/> .
@prefix kg: <https://w3id.org/kg/ns#> .
@prefix c: <https://example.org/counts/> .

m:conv a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "convolutional network"@en .
m:convnet a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "convolutional neural network"@en ;
    skos:altLabel "conv"@en .
m:convo a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "convolution"@en .
m:zeta a skos:Concept ; skos:inScheme m:scheme ; skos:prefLabel "Étude"@en .

e:p1 dcterms:creator e:a, e:b, e:c ; schema:mentions m:conv, m:convnet, m:zeta ;
    fabio:hasPublicationYear "2021"^^xsd:gYear .
e:p2 dcterms:creator e:b, e:d ; schema:mentions m:conv, m:convo ; fabio:hasPublicationYear "2022"^^xsd:gYear .
e:p3 dcterms:creator e:c, e:d, e:e ; schema:mentions m:convnet, m:convo, m:zeta ;
    fabio:hasPublicationYear "2021"^^xsd:gYear .
e:p4 dcterms:creator e:e ; schema:mentions m:conv .
e:a foaf:name "Alexandra Bergström-Smith" .
e:b foaf:name "Alexandra Bergström-Jones" .
e:c foaf:name "Alexandra B" .
e:d foaf:name "Ærøskøbing Ølund-Åberg" .
e:e foaf:name "Alexandra Bergström" .
# what the build counts (kg.assemble._statistics): each person's papers, each method's dated papers
e:a kg:paperCount 1 . e:b kg:paperCount 2 . e:c kg:paperCount 2 . e:d kg:paperCount 2 . e:e kg:paperCount 2 .
m:conv kg:countsByYear c:conv-2021, c:conv-2022 .
m:convnet kg:countsByYear c:convnet-2021 .
m:convo kg:countsByYear c:convo-2021, c:convo-2022 .
m:zeta kg:countsByYear c:zeta-2021 .
c:conv-2021 kg:year "2021"^^xsd:gYear ; kg:papers 1 .
c:conv-2022 kg:year "2022"^^xsd:gYear ; kg:papers 1 .
c:convnet-2021 kg:year "2021"^^xsd:gYear ; kg:papers 2 .
c:convo-2021 kg:year "2021"^^xsd:gYear ; kg:papers 1 .
c:convo-2022 kg:year "2022"^^xsd:gYear ; kg:papers 1 .
c:zeta-2021 kg:year "2021"^^xsd:gYear ; kg:papers 2 .
"""


@pytest.fixture(scope="module")
def ties() -> ox.Store:
    store = ox.Store()
    store.load(_TIES.encode(), ox.RdfFormat.TURTLE)
    return store


def _values(result: Solutions) -> list[tuple[str | None, ...]]:
    return [tuple(None if t is None else _text(t) for t in row) for row in result.rows]


def test_method_people_sorts_on_whole_names(ties: ox.Store) -> None:
    got = _values(run(ties, "method-people", method="conv"))
    # "conv" is m:conv's slug and m:convnet's label: p1, p2, p3 and p4 mention one or the other
    per = {"a": 1, "b": 2, "c": 2, "d": 2, "e": 2}
    names = {
        "a": "Alexandra Bergström-Smith",
        "b": "Alexandra Bergström-Jones",
        "c": "Alexandra B",
        "d": "Ærøskøbing Ølund-Åberg",
        "e": "Alexandra Bergström",
    }
    expected = sorted(
        ((f"https://example.org/{k}", names[k], str(n)) for k, n in per.items()),
        key=lambda r: (-int(r[2]), r[1]),
    )
    assert got == expected


def test_method_trend_sorts_on_whole_labels(ties: ox.Store) -> None:
    got = _values(run(ties, "method-trend"))
    base = "https://w3id.org/kg/method/"
    expected = [
        (base + "convo", "convolution", "2021", "1"),
        (base + "convo", "convolution", "2022", "1"),
        (base + "conv", "convolutional network", "2021", "1"),
        (base + "conv", "convolutional network", "2022", "1"),
        (base + "convnet", "convolutional neural network", "2021", "2"),
        (base + "zeta", "Étude", "2021", "2"),
    ]
    assert got == expected
    assert _values(run(ties, "method-trend", method="conv")) == expected[2:5]


def test_method_cooccurrence_of_two_concepts(ties: ox.Store) -> None:
    got = _values(run(ties, "method-cooccurrence", method="CONV"))
    base = "https://w3id.org/kg/method/"
    # each concept the name answers to counts the other one where both are mentioned (p1)
    assert sorted(got) == sorted(
        [
            (base + "convo", "convolution", "2"),
            (base + "zeta", "Étude", "2"),
            (base + "conv", "convolutional network", "1"),
            (base + "convnet", "convolutional neural network", "1"),
        ]
    )
    assert [r[2] for r in got] == ["2", "2", "1", "1"]
    assert [r[1] for r in got[:2]] == ["convolution", "Étude"]


# papers-in-subject sorts on two short keys of a paper IRI after kg's base (then on the IRI itself): IRIs
# alike in their first 14 or 29 characters after the base, one that ends where another goes on, IRIs
# outside the base on either side of it, letters beyond ASCII, papers without a year and a paper shown
# by two subjects.
_PAPERS = """
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix fabio: <http://purl.org/spar/fabio/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix s: <https://w3id.org/kg/arxiv/> .
@prefix p: <https://w3id.org/kg/id/paper/> .
@prefix kg: <https://w3id.org/kg/ns#> .
@prefix c: <https://example.org/counts/> .

s:cs skos:notation "cs" .
s:cs.LG skos:notation "cs.LG" ; skos:broader s:cs .
s:cs.AI skos:notation "cs.AI" ; skos:broader s:cs .
p:arxiv-2101.00417 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:arxiv-2101.00412 dcterms:subject s:cs.LG, s:cs.AI ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:arxiv-2101.0041 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:arxiv-2101.004 dcterms:subject s:cs.AI ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:a-0123456789abcdef0123456789abcdef01 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:a-0123456789abcdef0123456789abcdef0 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:a-0123456789abcdef0123456789abcdef00 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:é-2101 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:z-2101 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
<https://a.example/p1> dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
<https://w3id.org/kg/id/paperz> dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2021"^^xsd:gYear .
<urn:x:p2> dcterms:subject s:cs.AI ; fabio:hasPublicationYear "2021"^^xsd:gYear .
p:arxiv-2201.00001 dcterms:subject s:cs.LG ; fabio:hasPublicationYear "2022"^^xsd:gYear .
p:arxiv-2102.00001 dcterms:subject s:cs.LG .
p:arxiv-2101.00001 dcterms:subject s:cs.AI .
<https://a.example/p3> dcterms:subject s:cs.LG .
# what the build counts (kg.assemble._statistics): each subject's dated papers per year
s:cs.LG kg:countsByYear c:lg-2021, c:lg-2022 .
s:cs.AI kg:countsByYear c:ai-2021 .
c:lg-2021 kg:year "2021"^^xsd:gYear ; kg:papers 10 .
c:lg-2022 kg:year "2022"^^xsd:gYear ; kg:papers 1 .
c:ai-2021 kg:year "2021"^^xsd:gYear ; kg:papers 3 .
"""


def _loaded(turtle: str) -> ox.Store:
    store = ox.Store()
    store.load(turtle.encode(), ox.RdfFormat.TURTLE)
    return store


def _assert_pages_start_the_list(store: ox.Store, subject: str, whole: Solutions) -> None:
    """Every page of papers-in-subject is the start of the whole list, and cut ones say so."""
    for cap in range(1, len(whole.rows) + 2):
        page = run(store, "papers-in-subject", subject=subject, limit=str(cap))
        assert page.rows == whole.rows[:cap]
        assert page.truncated == (cap < len(whole.rows))


def test_papers_in_subject_sorts_on_whole_iris() -> None:
    store = _loaded(_PAPERS)
    whole = run(store, "papers-in-subject", subject="cs", limit="1000")
    got = [(r[0], r[1], r[2]) for r in rows(whole, "paper", "year", "via")]
    dated = sorted((r for r in got if r[1] is not None), key=lambda r: (-int(r[1]), r[0], r[2]))  # type: ignore[arg-type]
    undated = sorted((r for r in got if r[1] is None), key=lambda r: (r[0], r[2]))
    assert got == dated + undated
    assert len(got) == 17 and len(undated) == 3
    assert ("https://w3id.org/kg/id/paper/arxiv-2101.00412", "2021", "cs.AI") in got
    _assert_pages_start_the_list(store, "cs", whole)
    # the oldest year the page can reach is found from the subjects' counts per year (#@rows) and
    # older rows left out; without a cap, nothing is
    query = named_query("papers-in-subject")
    assert "HAVING (SUM(?rows_in_year) >= 8)\n" in sized(query.text, 7)
    uncapped = execute(store, bind(sized(query.text, None), query.bindings({"subject": "cs"})))
    assert isinstance(uncapped, Solutions) and uncapped.rows == whole.rows


# two concepts under the subject shown by the same label: a paper in both is one row, so their counts
# must not be added up (3 + 3 papers of 2022 would put the page's cutoff at 2022 and lose p4)
_SAME_LABEL = """
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix fabio: <http://purl.org/spar/fabio/> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix kg: <https://w3id.org/kg/ns#> .
@prefix e: <https://example.org/> .

e:s skos:prefLabel "Deep Learning" .
e:a skos:prefLabel "Everything Else" ; skos:broader e:s .
e:b skos:prefLabel "Everything Else" ; skos:broader e:s .
e:p1 kg:area e:a, e:b ; fabio:hasPublicationYear "2022"^^xsd:gYear .
e:p2 kg:area e:a, e:b ; fabio:hasPublicationYear "2022"^^xsd:gYear .
e:p3 kg:area e:a, e:b ; fabio:hasPublicationYear "2022"^^xsd:gYear .
e:p4 kg:area e:a ; fabio:hasPublicationYear "2021"^^xsd:gYear .
e:a kg:countsByYear e:a-2022, e:a-2021 .
e:b kg:countsByYear e:b-2022 .
e:a-2022 kg:year "2022"^^xsd:gYear ; kg:papers 3 .
e:a-2021 kg:year "2021"^^xsd:gYear ; kg:papers 1 .
e:b-2022 kg:year "2022"^^xsd:gYear ; kg:papers 3 .
"""


def test_papers_in_subject_counts_concepts_of_one_label_once() -> None:
    store = _loaded(_SAME_LABEL)
    whole = run(store, "papers-in-subject", subject="deep learning", limit="1000")
    assert [r[0] for r in rows(whole, "paper")] == [f"https://example.org/p{i}" for i in (1, 2, 3, 4)]
    _assert_pages_start_the_list(store, "deep learning", whole)


# --- a value that names nothing fails; printed names paste back -------------------------------


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["method-people", "-p", "method=diffusion"],
            "no method named 'diffusion' in this graph; did you mean",
        ),
        (["coauthors", "-p", "author=Nobody Here"], "no person named 'Nobody Here' in this graph"),
        (["coauthors", "-p", "author=Thomas Hofman"], "did you mean 'Thomas Hofmann'?"),
        (["papers-in-subject", "-p", "subject=cs.LGG"], "no subject or area named 'cs.LGG'"),
        (["repositories-by-owner", "-p", "owner=nobody-at-all"], "no GitHub owner named 'nobody-at-all'"),
        (["task-methods", "-p", "task=nosuchtask"], "no task named 'nosuchtask' in this graph"),
        (["task-datasets", "-p", "task=code generaton"], "did you mean 'code generation'"),
        (["dataset-papers", "-p", "dataset=no-such-set"], "no dataset named 'no-such-set' in this graph"),
        # a dataset papers coined is found as written: another case is told, not answered with nothing
        (["dataset-papers", "-p", "dataset=slimpajama"], "matched as written: did you mean 'SlimPajama'?"),
    ],
)
def test_a_value_that_names_nothing_is_a_usage_error(built: Path, args: list[str], said: str) -> None:
    result = CliRunner().invoke(app, ["query", *args, "--out", str(built)])
    assert result.exit_code == 2, result.output
    assert said in result.output and "[unknown-term]" in result.output


def test_a_real_name_with_no_rows_is_still_an_empty_answer(built: Path, store: ox.Store) -> None:
    # a person of the seeds with no coauthor: a true empty answer, not an error
    lonely = execute(
        store,
        "SELECT ?name WHERE { ?p a foaf:Person ; foaf:name ?name FILTER NOT EXISTS { ?p kg:coauthor ?q } } "
        "ORDER BY ?name LIMIT 1",
    )
    assert isinstance(lonely, Solutions) and lonely.rows, "the seeds have a person without coauthors"
    name = lonely.rows[0][0]
    assert name is not None
    result = CliRunner().invoke(
        app, ["query", "coauthors", "-p", f"author={name.value}", "--out", str(built)]
    )
    assert result.exit_code == 0, result.output
    assert "0 rows" in result.output


def test_every_prefix_kg_prints_is_declared_in_queries(built: Path, store: ox.Store) -> None:
    from kg.sparql import compact_prefixes, show_term

    prefixes = compact_prefixes()
    shown = set()
    for (kind,) in (("person",), ("paper",), ("authorship",), ("record",), ("area",)):
        found = execute(
            store, f"SELECT ?s WHERE {{ ?s ?p ?o FILTER(STRSTARTS(STR(?s), '{prefixes[kind]}')) }} LIMIT 200"
        )
        assert isinstance(found, Solutions)
        shown |= {show_term(row[0], prefixes) for row in found.rows}
    shown |= {"method:lora", "arxiv:cs.LG"}
    compact = sorted(s for s in shown if not s.startswith("<"))
    assert {s.split(":", 1)[0] for s in compact} >= {
        "person",
        "paper",
        "authorship",
        "record",
        "method",
        "arxiv",
    }
    for name in compact:  # pasted back, each one parses and names what it was printed for
        result = CliRunner().invoke(
            app, ["query", f"ASK {{ {{ {name} ?p ?o }} UNION {{ ?s ?p {name} }} }}", "--out", str(built)]
        )
        assert result.exit_code == 0, f"{name}: {result.output}"
        assert result.output.startswith("true"), name


@pytest.mark.parametrize("rest", ["-x", ".x", "a.", "a/b"])
def test_a_name_that_would_not_parse_is_printed_whole(rest: str) -> None:
    from kg.sparql import compact_prefixes, show_term

    iri = "https://w3id.org/kg/id/person/" + rest
    assert show_term(ox.NamedNode(iri), compact_prefixes()) == f"<{iri}>"
