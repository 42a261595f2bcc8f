"""Running SPARQL: parameter binding, read-only guards, embedded or remote execution, W3C result formats.

Queries run in the embedded Oxigraph store of a build (``DIR/store/``) or
against any SPARQL 1.1 endpoint.  Parameters are bound as RDF terms in a
``VALUES`` clause written from N-Triples-escaped terms, never pasted into the
query text as they were given:

>>> import pyoxigraph as ox
>>> bind("SELECT ?p WHERE { ?p foaf:name ?author }", {"author": ox.Literal('x" } ; DROP ALL ; #')})
'SELECT ?p WHERE { VALUES (?author) { ("x\\\\" } ; DROP ALL ; #") } ?p foaf:name ?author }'

Results follow the W3C SPARQL 1.1 Query Results formats (JSON, CSV, TSV,
XML), serialized by pyoxigraph:

>>> store = ox.Store()
>>> store.add(ox.Quad(ox.NamedNode("http://e/a"), ox.NamedNode("http://e/p"), ox.Literal("1")))
>>> result = execute(store, "SELECT ?s ?o WHERE { ?s ?p ?o }")
>>> print(serialize(result, "csv").decode(), end="")
s,o\r
http://e/a,1\r
"""

from __future__ import annotations

import json
import re
import threading
import unicodedata
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal as TypingLiteral

import pyoxigraph as ox

from kg.errors import KgError, UsageError, unknown
from kg.records import Location
from kg.vocab import DATA_BASE, PREFIXES, XSD

Term = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple
Format = TypingLiteral["table", "csv", "tsv", "json", "xml"]
FORMATS: tuple[str, ...] = ("table", "csv", "tsv", "json", "xml")
"""Output formats of ``kg query --format``; CONSTRUCT and DESCRIBE always print Turtle."""

RESULT_FORMATS: dict[str, ox.QueryResultsFormat] = {
    "json": ox.QueryResultsFormat.JSON,
    "csv": ox.QueryResultsFormat.CSV,
    "tsv": ox.QueryResultsFormat.TSV,
    "xml": ox.QueryResultsFormat.XML,
}
MEDIA_TYPES: dict[str, str] = {
    "json": "application/sparql-results+json",
    "csv": "text/csv; charset=utf-8",
    "tsv": "text/tab-separated-values; charset=utf-8",
    "xml": "application/sparql-results+xml",
    "turtle": "text/turtle",
    "ntriples": "application/n-triples",
    "rdfxml": "application/rdf+xml",
}
GRAPH_FORMATS: dict[str, ox.RdfFormat] = {
    "turtle": ox.RdfFormat.TURTLE,
    "ntriples": ox.RdfFormat.N_TRIPLES,
    "rdfxml": ox.RdfFormat.RDF_XML,
}
MAX_QUERY_CHARS = 100_000
"""Longest query text accepted (text from outside is capped)."""
MAX_NESTING = 64
"""Deepest nesting of groups, parentheses and brackets accepted.  Oxigraph parses and plans a query
recursively: under a thousand nested ``FILTER EXISTS`` overflow its stack and kill the process (no
error is raised), well under :data:`MAX_QUERY_CHARS`; what was measured is in docs/reliability.md
(``benchmarks/query_depth.py``)."""
MAX_PARTS = 1_500
"""Most groups, parentheses, brackets and operators a query may have in all.  A long flat chain
(``MINUS {..} MINUS {..} ...``, ``BIND``s, ``a || b || ...``, ``UNION``s) becomes a left-deep tree
as deep as the chain is long, so it is bounded as nesting is."""


# --- results -------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Solutions:
    """The rows of a SELECT query; ``truncated`` says rows were cut at a cap."""

    variables: list[str]
    rows: list[tuple[Term | None, ...]]
    truncated: bool = False


@dataclass(slots=True)
class Boolean:
    """The answer of an ASK query."""

    value: bool


@dataclass(slots=True)
class Graph:
    """The triples of a CONSTRUCT or DESCRIBE query."""

    triples: list[ox.Triple] = field(default_factory=list)
    truncated: bool = False


Result = Solutions | Boolean | Graph


# --- lexing: a conservative token scan that skips strings, IRIs and comments -----------------------------
#
# The guards below trust this scan to say what is a string, an IRI or a comment, so it follows the SPARQL
# grammar's terminals where they can hide text: a \u escape in an IRI, the backslash escapes of a prefixed
# name's local part (``ex:a\#`` and ``ex:a\'`` are names, not a comment or a string), and keywords that a
# dot may follow (``true.SERVICE`` is ``true``, ``.``, ``SERVICE``).  A backslash anywhere else is refused.

_UCHAR = r"\\u[0-9A-Fa-f]{4}|\\U[0-9A-Fa-f]{8}"
_LOCAL_ESCAPE = r"\\[_~.\-!$&'()*+,;=/?\#@%]"
_TOKEN = re.compile(
    rf"""
    (?P<comment>\#[^\r\n]*)
  | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''
               |"(?:[^"\\\r\n]|\\.)*"|'(?:[^'\\\r\n]|\\.)*')
  | (?P<iri><(?:[^<>"{{}}|^`\\\x00-\x20]|{_UCHAR})*>)
  | (?P<var>[?$]\w+)
  | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
  | (?P<name>(?:[A-Za-z][\w.-]*)?:(?:[\w.%:-]|{_LOCAL_ESCAPE})*|_:[\w.-]*|[A-Za-z_]\w*)
  | (?P<open>\{{)
  | (?P<close>\}})
  | (?P<space>\s+)
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_UPDATE_WORDS = frozenset(
    {"INSERT", "DELETE", "LOAD", "CLEAR", "CREATE", "DROP", "COPY", "MOVE", "ADD", "WITH"}
)
_FORMS = frozenset({"SELECT", "ASK", "CONSTRUCT", "DESCRIBE"})


def _tokens(text: str, keep_comments: bool = False) -> Iterator[tuple[str, str, int]]:
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "other"
        if kind != "space" and (keep_comments or kind != "comment"):
            yield kind, m.group(), m.end()


def _keywords(text: str) -> Iterator[tuple[str, int, int]]:
    """Bare words (keywords), upper-cased, with the brace depth they stand at and their end offset."""
    depth = 0
    for kind, value, end in _tokens(text):
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
        elif kind == "name" and ":" not in value:
            yield value.upper(), depth, end


def query_form(text: str) -> str | None:
    """The form of a query: SELECT, ASK, CONSTRUCT, DESCRIBE, UPDATE (any update operation) or None.

    >>> query_form("PREFIX a: <http://a/> # SELECT\\n ask { ?s a:p 'DELETE' }")
    'ASK'
    >>> query_form("DELETE WHERE { ?s ?p ?o }")
    'UPDATE'
    """
    for word, _, _ in _keywords(text):
        if word in _FORMS:
            return word
        if word in _UPDATE_WORDS:
            return "UPDATE"
    return None


def uses_service(text: str) -> bool:
    """Whether the query calls ``SERVICE`` (outside strings, IRIs, comments and prefixed names).

    >>> uses_service("SELECT * { SERVICE <http://x/> { ?s ?p ?o } }")
    True
    >>> uses_service('SELECT * { ?s ex:service "SERVICE" } # SERVICE')
    False
    """
    return any(word == "SERVICE" for word, _, _ in _keywords(text))


def _where_offset(text: str) -> int | None:
    """Offset just after the ``{`` that opens the outermost WHERE group, or None if there is none."""
    form: str | None = None
    after_where = False
    depth = 0
    for kind, value, end in _tokens(text):
        if kind == "open":
            if depth == 0 and (after_where or form in ("SELECT", "ASK")):
                return end
            depth += 1
        elif kind == "close":
            depth -= 1
        elif kind == "name" and depth == 0:
            word = value.upper()
            if word in _FORMS and form is None:
                form = word
            elif word == "WHERE":
                after_where = True
    return None


# --- parameters ----------------------------------------------------------------------------------------


def bind(text: str, values: Mapping[str, Term]) -> str:
    """The query with ``values`` bound in one ``VALUES`` row at the start of its WHERE group.

    A query may mark better places with ``#@values`` comments ending lines: the row goes just
    before each (named queries put a lookup in a nested group there, so that it is evaluated first;
    a sub-select that needs the parameters too has a marker of its own).

    Terms are written in N-Triples syntax by pyoxigraph (quotes and backslashes
    escaped), and on the line of the opening brace, so error positions keep
    their line numbers.

    >>> bind("ASK { ?s ?p ?year }", {"year": ox.Literal("2024", datatype=XSD.gYear)})
    'ASK { VALUES (?year) { ("2024"^^<http://www.w3.org/2001/XMLSchema#gYear>) } ?s ?p ?year }'
    """
    if not values:
        return text
    for name in values:
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            raise UsageError(
                f"bad parameter name {name!r} (expected letters, digits and _)", code="bad-param"
            )
    names = " ".join(f"?{name}" for name in values)
    terms = " ".join(str(term) for term in values.values())
    row = f" VALUES ({names}) {{ ({terms}) }}"
    comments = {end for kind, _, end in _tokens(text, keep_comments=True) if kind == "comment"}
    markers = [
        m.start(1)
        for m in re.finditer(r"^[ \t]*\{?[ \t]*(#@values)[ \t]*$", text, re.MULTILINE)
        if m.end(1) in comments
    ]
    if markers:
        for at in reversed(markers):
            text = f"{text[:at]}{row} {text[at:]}"
        return text
    where = _where_offset(text)
    if where is None:
        raise UsageError("cannot bind parameters: the query has no WHERE group", code="bad-param")
    return f"{text[:where]}{row}{text[where:]}"


def text_value(value: str, limit: int = 300) -> str:
    """A parameter value as text: NFC, single spaces, capped.

    >>> text_value("  Thomas\\u00a0 Hofmann ")
    'Thomas Hofmann'
    """
    flat = " ".join(unicodedata.normalize("NFC", value).split())
    if not flat:
        raise UsageError("empty parameter value", code="bad-param")
    if len(flat) > limit:
        raise UsageError(f"parameter value longer than {limit} characters", code="bad-param")
    return flat


def guess_term(value: str) -> Term:
    """The term of a parameter of an ad-hoc query: ``<iri>``, an integer, or a string.

    >>> guess_term("<https://e/x>"), guess_term("42"), guess_term("cs.LG")
    (<NamedNode value=https://e/x>, <Literal value=42 datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#integer>>, <Literal value=cs.LG datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#string>>)
    """
    if value.startswith("<") and value.endswith(">"):
        try:
            return ox.NamedNode(value[1:-1])
        except ValueError as e:
            raise UsageError(f"bad IRI {value!r}: {e}", code="bad-param") from e
    if re.fullmatch(r"-?\d{1,18}", value):
        return ox.Literal(value, datatype=XSD.integer)
    return ox.Literal(text_value(value, MAX_QUERY_CHARS))


# --- running -------------------------------------------------------------------------------------------


def check_read_only(text: str, source: str = "query") -> str:
    """Refuse what a read-only query service must not run: updates and ``SERVICE`` calls, and queries
    nested deeper than the engine can parse (:func:`check_shape`); returns the form."""
    if len(text) > MAX_QUERY_CHARS:
        raise KgError(
            f"query longer than {MAX_QUERY_CHARS} characters", Location(source, 1), "query-too-long"
        )
    check_shape(text, source)
    if any(kind == "other" and value == "\\" for kind, value, _ in _tokens(text)):
        # only strings, IRIs and prefixed names hold a backslash: one elsewhere means this scan and the
        # parser could read the text differently, so it is refused rather than guessed at
        raise KgError(
            "bad SPARQL: a backslash outside a string, IRI or name", Location(source, 1), "bad-query"
        )
    form = query_form(text)
    if form == "UPDATE":
        raise KgError("updates are refused: the graph is read-only", Location(source, 1), "update-refused")
    if uses_service(text):
        raise KgError(
            "SERVICE calls are refused: queries run on the local graph only",
            Location(source, 1),
            "service-refused",
        )
    return form or "SELECT"


_OPERATOR = frozenset("|&=!<>+-*/^")


def check_shape(text: str, source: str = "query") -> None:
    """Refuse a query nested deeper than :data:`MAX_NESTING` or with more than :data:`MAX_PARTS`
    groups and operators, before the engine sees it (``query-too-complex``, with the line).

    >>> check_shape("SELECT * { ?s ?p ?o FILTER((?o > 1) && !BOUND(?x)) }")
    >>> check_shape("SELECT * " + "{ " * 100 + "?s ?p ?o" + " }" * 100)
    Traceback (most recent call last):
    ...
    kg.errors.KgError: query:1: error: query nests groups, parentheses or brackets 65 deep (expected at most 64) [query-too-complex]
    """
    depth = parts = 0
    after_operator = False
    for m in _TOKEN.finditer(text):
        kind, value = m.lastgroup or "other", m.group()
        if kind in ("space", "comment"):
            continue
        operator = kind == "other" and value in _OPERATOR
        if kind == "open" or (kind == "other" and value in "(["):
            depth += 1
            parts += 1
            if depth > MAX_NESTING:
                what = f"nests groups, parentheses or brackets {depth} deep (expected at most {MAX_NESTING})"
                raise KgError(f"query {what}", Location(source, _line(text, m.start())), "query-too-complex")
        elif kind == "close" or (kind == "other" and value in ")]"):
            depth = max(depth - 1, 0)
        elif operator and not after_operator and not text.startswith("^^", m.start()):
            parts += 1  # "||", "<=" and "!=" count once; "^^" of a typed literal is no operator
        after_operator = operator
        if parts > MAX_PARTS:
            what = f"has over {MAX_PARTS} groups, parentheses, brackets and operators (expected at most {MAX_PARTS})"
            raise KgError(f"query {what}", Location(source, _line(text, m.start())), "query-too-complex")


def _line(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def syntax_error(e: SyntaxError, source: str = "query") -> KgError:
    """A pyoxigraph parse error as a KgError with the line; the column is in the message.

    >>> print(syntax_error(SyntaxError("error at 2:7: expected '}'")))
    query:2: error: bad SPARQL at column 7: expected '}' [bad-query]
    """
    message = str(e)
    m = re.match(r"error at (\d+):(\d+)(?:-\d+:\d+)?: (.*)", message, re.DOTALL)
    if m:
        line, column, what = int(m.group(1)), m.group(2), m.group(3)
        return KgError(f"bad SPARQL at column {column}: {what}", Location(source, line), "bad-query")
    return KgError(f"bad SPARQL: {message}", Location(source, 1), "bad-query")


def execute(
    store: ox.Store,
    text: str,
    *,
    limit: int | None = None,
    timeout: float | None = None,
    source: str = "query",
) -> Result:
    """Run a read-only query in an embedded store; at most ``limit`` rows, within ``timeout`` seconds.

    pyoxigraph releases the GIL while it evaluates, so the query runs in a
    worker thread and the caller stops waiting at the deadline (the thread is
    a daemon: it is abandoned, not cancelled; ``kg serve`` runs queries in
    worker processes it can kill instead).
    """
    check_read_only(text, source)
    if timeout is None:
        return _evaluate(store, text, limit, source)
    box: list[Result | BaseException] = []

    def work() -> None:
        try:
            box.append(_evaluate(store, text, limit, source))
        except BaseException as e:  # noqa: BLE001  (handed to the waiting caller, who re-raises it)
            box.append(e)

    worker = threading.Thread(target=work, name="kg-query", daemon=True)
    worker.start()
    worker.join(timeout)
    if not box:
        raise KgError(
            f"query stopped at the time limit of {timeout:g} s", Location(source, 1), "query-timeout"
        )
    outcome = box[0]
    if isinstance(outcome, BaseException):
        raise outcome
    return outcome


def _evaluate(store: ox.Store, text: str, limit: int | None, source: str) -> Result:
    try:
        # every prefix kg prints (person:, paper:, ...) is declared, so a printed name can be pasted back
        answer = store.query(text, prefixes=compact_prefixes())
        return collect(answer, limit)
    except SyntaxError as e:
        raise syntax_error(e, source) from e
    except (OSError, ValueError, RuntimeError) as e:
        raise KgError(f"query failed: {e}", Location(source, 1), "query-failed") from e


def collect(answer: ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples, limit: int | None) -> Result:
    """pyoxigraph's lazy answer as a Result, reading at most ``limit`` rows (or triples)."""
    if isinstance(answer, ox.QueryBoolean):
        return Boolean(bool(answer))
    if isinstance(answer, ox.QueryTriples):
        return collect_triples(answer, limit)
    variables = [v.value for v in answer.variables]
    width = range(len(variables))
    rows: list[tuple[Term | None, ...]] = []
    for solution in answer:
        if limit is not None and len(rows) >= limit:
            return Solutions(variables, rows, truncated=True)
        rows.append(tuple(solution[i] for i in width))
    return Solutions(variables, rows)


def collect_triples(triples: Iterable[ox.Triple], limit: int | None) -> Graph:
    """At most ``limit`` triples; ``truncated`` when there were more."""
    got: list[ox.Triple] = []
    for triple in triples:
        if limit is not None and len(got) >= limit:
            return Graph(got, truncated=True)
        got.append(triple)
    return Graph(got)


_GRAPH_FORMATS = {"application/n-triples": ox.RdfFormat.N_TRIPLES, "text/turtle": ox.RdfFormat.TURTLE}
"""Graph media types an endpoint may answer CONSTRUCT and DESCRIBE with."""


def query_endpoint(url: str, text: str, *, limit: int | None = None, timeout: float | None = None) -> Result:
    """Run a query against a SPARQL 1.1 endpoint (protocol POST, results as JSON or N-Triples).

    Proxies from the environment are ignored: endpoints are reached directly.
    """
    form = query_form(text)
    if form == "UPDATE":
        raise KgError("updates are refused: kg query only reads", Location("query", 1), "update-refused")
    request = urllib.request.Request(
        url,
        data=text.encode(),
        method="POST",
        headers={
            "Content-Type": "application/sparql-query; charset=utf-8",
            "Accept": "application/sparql-results+json, application/n-triples;q=0.9, text/turtle;q=0.8",
            "User-Agent": "kg-query",
        },
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=timeout) as response:
            kind = response.headers.get_content_type()
            # kg serve says when it cut the rows at its --max-rows
            cut = response.headers.get("X-Kg-Truncated", "").strip().lower() == "true"
            body = response.read()
    except urllib.error.HTTPError as e:
        detail = " ".join(e.read().decode("utf-8", "replace").split())[:500]
        code = "bad-query" if e.code == 400 else "endpoint-error"
        raise KgError(f"endpoint {url} answered {e.code}: {detail}", Location("query", 1), code) from e
    except TimeoutError as e:
        raise KgError(f"endpoint {url} did not answer within {timeout:g} s", None, "query-timeout") from e
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", e)
        raise KgError(f"cannot reach endpoint {url}: {reason}", None, "endpoint-unreachable") from e
    try:
        got: Result | None = None
        if kind in ("application/sparql-results+json", "application/json"):
            got = collect(ox.parse_query_results(body, format=ox.QueryResultsFormat.JSON), limit)
        elif kind in ("application/sparql-results+xml", "application/xml"):
            got = collect(ox.parse_query_results(body, format=ox.QueryResultsFormat.XML), limit)
        elif kind in _GRAPH_FORMATS:
            triples = (
                ox.Triple(q.subject, q.predicate, q.object)
                for q in ox.parse(body, format=_GRAPH_FORMATS[kind])
            )
            got = collect_triples(triples, limit)
        if got is not None:
            if cut and isinstance(got, Solutions | Graph):
                got.truncated = True
            return got
    except (SyntaxError, ValueError) as e:
        raise KgError(f"endpoint {url} sent unreadable {kind}: {e}", None, "endpoint-error") from e
    raise KgError(f"endpoint {url} sent {kind}, not SPARQL results", None, "endpoint-error")


# --- formats -------------------------------------------------------------------------------------------


def json_term(term: Term) -> dict[str, object]:
    """One RDF term in the W3C SPARQL 1.1 Query Results JSON format.

    >>> json_term(ox.Literal("Hi", language="en"))
    {'type': 'literal', 'value': 'Hi', 'xml:lang': 'en'}
    """
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    if isinstance(term, ox.Triple):
        return {
            "type": "triple",
            "value": {
                "subject": json_term(term.subject),
                "predicate": json_term(term.predicate),
                "object": json_term(term.object),
            },
        }
    out: dict[str, object] = {"type": "literal", "value": term.value}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype != XSD.string:
        out["datatype"] = term.datatype.value
    return out


def to_json(result: Solutions | Boolean) -> bytes:
    """W3C SPARQL 1.1 Query Results JSON."""
    if isinstance(result, Boolean):
        document: dict[str, object] = {"head": {}, "boolean": result.value}
    else:
        bindings = [
            {
                name: json_term(term)
                for name, term in zip(result.variables, row, strict=True)
                if term is not None
            }
            for row in result.rows
        ]
        document = {"head": {"vars": result.variables}, "results": {"bindings": bindings}}
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def serialize(result: Result, fmt: str) -> bytes:
    """A result in one of ``RESULT_FORMATS`` (solutions, booleans) or ``GRAPH_FORMATS`` (triples).

    Solutions are written as JSON, then re-serialized by pyoxigraph, so every
    format is exactly the W3C one.  A graph asked for in a results format is
    written as Turtle.
    """
    if isinstance(result, Graph):
        graph_format = GRAPH_FORMATS.get(fmt, ox.RdfFormat.TURTLE)
        prefixes = compact_prefixes() if graph_format != ox.RdfFormat.N_TRIPLES else None
        written = ox.serialize(result.triples, format=graph_format, prefixes=prefixes)
        return written or b""
    if fmt not in RESULT_FORMATS:
        raise UsageError(
            unknown("result format", fmt, RESULT_FORMATS), code="bad-format"
        )
    data = to_json(result)
    if fmt == "json":
        return data
    parsed = ox.parse_query_results(data, format=ox.QueryResultsFormat.JSON)
    written = parsed.serialize(format=RESULT_FORMATS[fmt])
    return written or b""


# a SPARQL and Turtle local name: a letter, digit or "_" first (never "-" or "."), "%" only as an escape
_LOCAL_NAME = re.compile(r"(?:(?:[^\W]|%[0-9A-Fa-f]{2})(?:[\w.-]|%[0-9A-Fa-f]{2})*)?")


def compact_prefixes(base: str = DATA_BASE) -> dict[str, str]:
    """Prefixes for showing IRIs to people: the vocabulary's plus the data folders under ``base``."""
    data = ("area", "authorship", "evidence", "paper", "person", "record", "resource")
    return {**PREFIXES, **{name: f"{base}{name}/" for name in data}}


def show_term(term: Term | None, prefixes: Mapping[str, str]) -> str:
    """A term as a person reads it: a compact IRI, a literal's text, ``_:b`` for blank nodes.

    >>> show_term(ox.NamedNode("https://w3id.org/kg/id/person/ada"), compact_prefixes())
    'person:ada'
    """
    if term is None:
        return ""
    if isinstance(term, ox.NamedNode):
        best = max((iri for iri in prefixes.values() if term.value.startswith(iri)), key=len, default=None)
        if best is not None:
            name = next(k for k, v in prefixes.items() if v == best)
            rest = term.value[len(best) :]
            if _LOCAL_NAME.fullmatch(rest) and not rest.endswith("."):
                return f"{name}:{rest}"
        return f"<{term.value}>"
    if isinstance(term, ox.Literal):
        return term.value
    return str(term)
