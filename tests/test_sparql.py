"""kg.sparql: binding, read-only guards, time limits and the W3C result formats (against pyoxigraph's)."""

from __future__ import annotations

import pyoxigraph as ox
import pytest

from kg.errors import KgError, UsageError
from kg.sparql import (
    RESULT_FORMATS,
    Boolean,
    Graph,
    Solutions,
    bind,
    check_read_only,
    execute,
    guess_term,
    query_form,
    serialize,
    uses_service,
)

E = "http://e/"


@pytest.fixture
def store() -> ox.Store:
    s = ox.Store()
    a, p = ox.NamedNode(E + "a"), ox.NamedNode(E + "p")
    for o in (
        ox.Literal('x,"y"\ttab\nline', language="en"),
        ox.Literal("5", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")),
        ox.Literal("plain"),
        ox.BlankNode("b1"),
        ox.NamedNode(E + "b"),
    ):
        s.add(ox.Quad(a, p, o))
    return s


QUERY = "SELECT ?s ?o ?u WHERE { ?s ?p ?o OPTIONAL { ?s <http://e/q> ?u } } ORDER BY ?o"


@pytest.mark.parametrize("fmt", list(RESULT_FORMATS))
def test_formats_are_pyoxigraphs(store: ox.Store, fmt: str) -> None:
    ours = serialize(execute(store, QUERY), fmt)
    theirs = store.query(QUERY).serialize(format=RESULT_FORMATS[fmt])
    assert ours == theirs


def test_ask_and_construct(store: ox.Store) -> None:
    assert execute(store, "ASK { ?s ?p 5 }") == Boolean(True)
    assert serialize(Boolean(False), "json") == b'{"head":{},"boolean":false}'
    graph = execute(store, "CONSTRUCT WHERE { ?s ?p ?o }", limit=2)
    assert isinstance(graph, Graph) and len(graph.triples) == 2 and graph.truncated
    assert b"<http://e/a>" in serialize(graph, "turtle")


def test_limit_marks_truncation(store: ox.Store) -> None:
    cut = execute(store, QUERY, limit=3)
    assert isinstance(cut, Solutions) and len(cut.rows) == 3 and cut.truncated
    whole = execute(store, QUERY, limit=5)
    assert isinstance(whole, Solutions) and not whole.truncated


def test_binding_is_not_injection(store: ox.Store) -> None:
    evil = 'plain" } ; DROP ALL ; #'
    text = bind("SELECT ?s WHERE { ?s ?p ?o . FILTER(?o = ?v) }", {"v": ox.Literal(evil)})
    result = execute(store, text)
    assert isinstance(result, Solutions) and result.rows == []
    assert len(store) == 5
    found = execute(store, bind("SELECT ?s WHERE { ?s ?p ?v }", {"v": ox.Literal("plain")}))
    assert isinstance(found, Solutions) and [r[0] for r in found.rows] == [ox.NamedNode(E + "a")]


def test_bind_keeps_line_numbers_and_finds_the_where_group() -> None:
    text = "PREFIX x: <http://x/{}>\n# { not here\nSELECT ?a {\n  ?a ?b ?c }"
    bound = bind(text, {"c": ox.Literal("1")})
    assert bound.splitlines()[2] == 'SELECT ?a { VALUES (?c) { ("1") }'
    construct = bind("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", {"o": ox.Literal("1")})
    assert construct == 'CONSTRUCT { ?s ?p ?o } WHERE { VALUES (?o) { ("1") } ?s ?p ?o }'
    with pytest.raises(UsageError):
        bind("DESCRIBE <http://e/a>", {"o": ox.Literal("1")})
    with pytest.raises(UsageError):
        bind("ASK { }", {"bad name": ox.Literal("1")})


def test_bind_puts_the_row_at_every_marker() -> None:
    """Each ``#@values`` comment ending a line gets the row (a sub-select that needs the
    parameters has its own); a marker inside a string or mid-line is not one."""
    text = (
        "SELECT ?a {\n  { SELECT ?a {\n    {  #@values\n      ?a ?b ?c } } }\n"
        '  {  #@values\n    ?a ?d ?c . FILTER(?a != "#@values") } }  #@values inside\n'
    )
    bound = bind(text, {"c": ox.Literal("1")})
    lines = bound.splitlines()
    assert lines[2] == '    {   VALUES (?c) { ("1") } #@values'
    assert lines[4] == '  {   VALUES (?c) { ("1") } #@values'
    assert bound.count("VALUES") == 2 and len(lines) == len(text.splitlines())


def test_guards() -> None:
    assert query_form("PREFIX a: <http://a/>\nCONSTRUCT WHERE { ?s ?p ?o }") == "CONSTRUCT"
    for update in (
        "INSERT DATA { <http://a> <http://b> 1 }",
        "drop all",
        "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
    ):
        with pytest.raises(KgError, match="updates are refused"):
            check_read_only(update)
    assert uses_service("select * { service silent <http://x> { ?s ?p ?o } }")
    assert not uses_service('SELECT * { ?s <http://x/SERVICE> \'SERVICE\' ; ex:service """SERVICE""" }')
    with pytest.raises(KgError, match="SERVICE calls are refused"):
        execute(ox.Store(), "SELECT * WHERE { SERVICE <http://127.0.0.1:9/> { ?s ?p ?o } }")


def test_syntax_error_has_line_and_column(store: ox.Store) -> None:
    with pytest.raises(KgError) as caught:
        execute(store, "SELECT *\nWHERE { ?s ?p }", source="mine.rq")
    assert str(caught.value).startswith("mine.rq:2: error: bad SPARQL at column")
    assert caught.value.code == "bad-query"


def test_timeout(store: ox.Store) -> None:
    big = ox.Store()
    big.extend(
        ox.Quad(ox.NamedNode(f"{E}{i}"), ox.NamedNode(E + "p"), ox.Literal(str(i))) for i in range(3000)
    )
    slow = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"
    with pytest.raises(KgError, match=r"time limit of 0\.2 s"):
        execute(big, slow, timeout=0.2)
    fast = execute(store, "ASK { ?s ?p ?o }", timeout=5)
    assert fast == Boolean(True)


def test_guess_term() -> None:
    assert guess_term("<http://e/a>") == ox.NamedNode("http://e/a")
    assert guess_term("7").datatype.value.endswith("#integer")  # type: ignore[union-attr]
    assert guess_term(" a  b ") == ox.Literal("a b")
