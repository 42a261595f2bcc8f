"""Named SPARQL queries: the common questions, shipped as ``kg/queries/<name>.rq`` files.

Each file starts with a header of comments that this module reads::

    # description: An author's coauthors, with the number of papers they wrote together.
    # param author: a person's name (required)
    # param limit: at most this many rows (default 20)
    # example: kg query coauthors --param author="Thomas Hofmann"

``QUERIES`` is the table (name -> ``NamedQuery``), in name order.  Parameters
are named for what they take and bound as RDF terms (see ``kg.sparql.bind``):

- ``author``: a person's name; matched against ``foaf:name`` ignoring case
  (the value is NFC-normalized and its spaces collapsed first);
- ``method``: a method's slug (``lora``, the end of its IRI) or one of its
  labels (``skos:prefLabel`` or ``skos:altLabel``, ignoring case);
- ``subject``: an arXiv code (``cs.LG``; an archive like ``cs`` takes in its
  categories), an arXiv subject name or a conference area label;
- ``year``: a year, as an integer (bound as ``xsd:gYear``);
- ``owner``: a GitHub owner, as written (ignoring case);
- ``by``: ``month``, ``quarter`` or ``year``: the grain of a trend;
- ``from``, ``to``: periods (``2025``, ``2025-03``, ``2025-Q2``), bound as the first or last month they
  hold (``2025-01``, ``2025-06``);
- ``generic``: ``true`` or ``false`` (also ``yes``/``no``, ``1``/``0``), bound as ``xsd:boolean``:
  whether generic concepts (``kg:generic true``: neural network, language model, ...) are listed
  and counted; the queries that take it default to ``false``;
- ``limit``: at most this many rows (a row cap, not a binding).

>>> QUERIES["coauthors"].params[0].name
'author'
>>> sorted(QUERIES["coauthors"].bindings({"author": "Thomas  Hofmann"}).items())
[('author', <Literal value=Thomas Hofmann datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#string>>)]
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from kg.errors import KgError, UsageError, unknown
from kg.sparql import Term, text_value
from kg.vocab import KG, XSD

FOLDER = Path(__file__).resolve().parent

PARAM_KINDS: dict[str, str] = {
    "author": "a person's name (case-insensitive)",
    "method": "a method's slug or label",
    "subject": "an arXiv code, subject name or area label",
    "year": "a year (integer)",
    "owner": "a GitHub owner",
    "generic": "true or false: include generic (umbrella) concepts",
    "by": "month, quarter or year: the grain of a trend",
    "from": "the first period: YYYY, YYYY-MM or YYYY-Qn",
    "to": "the last period: YYYY, YYYY-MM or YYYY-Qn",
    "limit": "at most this many rows",
}
"""Parameter names a named query may declare, and what each takes; besides them, the kind of page of
any kind of fact (``kg.kinds.Listing.page``: ``task``, ``dataset`` ...) takes an entity's label."""


def param_kinds() -> dict[str, str]:
    """Every parameter name a named query may declare (see :data:`PARAM_KINDS`)."""
    from kg.kinds.table import listings

    return {**{page: f"a {page}'s label" for page in listings()}, **PARAM_KINDS}


_BOOLEANS = {"true": "true", "yes": "true", "1": "true", "false": "false", "no": "false", "0": "false"}


@dataclass(frozen=True, slots=True)
class Param:
    """A declared parameter of a named query."""

    name: str
    description: str
    required: bool = False
    default: str | None = None

    def term(self, value: str) -> Term:
        """The RDF term a value is bound as (``year`` as ``xsd:gYear``, ``generic`` as ``xsd:boolean``,
        the others as strings).

        >>> Param("year", "").term("2024")
        <Literal value=2024 datatype=<NamedNode value=http://www.w3.org/2001/XMLSchema#gYear>>
        >>> Param("generic", "").term("Yes").value
        'true'
        """
        if self.name == "generic":
            flag = _BOOLEANS.get(value.strip().casefold())
            if flag is None:
                raise UsageError(f"generic must be true or false, not {value!r}", code="bad-param")
            return ox.Literal(flag, datatype=XSD.boolean)
        if self.name == "by":
            if value.strip().casefold() not in ("month", "quarter", "year"):
                raise UsageError(f"by must be month, quarter or year, not {value!r}", code="bad-param")
            return ox.Literal(value.strip().casefold())
        if self.name in ("from", "to"):
            from kg.plots.periods import bound, label

            try:  # bound as the period's first (from) or last (to) month
                return ox.Literal(label(bound(value, "month", end=self.name == "to"), "month"))
            except KgError as e:
                raise UsageError(f"{self.name}: {e.message}", code="bad-param") from e
        if self.name == "year":
            if not re.fullmatch(r"\d{4}", value.strip()):
                raise UsageError(f"year must be a 4-digit integer, not {value!r}", code="bad-param")
            return ox.Literal(value.strip(), datatype=XSD.gYear)
        return ox.Literal(text_value(value))


@dataclass(frozen=True, slots=True)
class NamedQuery:
    """A shipped query: its name, one-line description, parameters and SPARQL text."""

    name: str
    description: str
    params: tuple[Param, ...]
    text: str
    path: Path
    example: str = ""
    needs: tuple[str, ...] = ()
    """The ``kg:`` properties the query reads that only kg's build writes (``# needs: kg:paperCount``):
    a graph without them (built by an older kg, loaded from elsewhere) answers with no rows, which
    ``kg query`` then explains (``kg.cli.query.explain_empty``)."""

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        declared = ", ".join(p.name for p in self.params) or "none"
        near = difflib.get_close_matches(name, [p.name for p in self.params], n=1, cutoff=0.6)
        hint = f"; did you mean {near[0]}?" if near else ""
        raise UsageError(
            f"query {self.name!r} takes no parameter {name!r}{hint}; its parameters: {declared}", code="bad-param"
        )

    def bindings(self, values: Mapping[str, str]) -> dict[str, Term]:
        """The terms to bind for ``values`` (name -> text), with defaults; ``limit`` is not bound."""
        for name in values:
            self.param(name)
        out: dict[str, Term] = {}
        for p in self.params:
            value = values.get(p.name, p.default)
            if value is None:
                if p.required:
                    raise UsageError(
                        # said the same over HTTP and on the command line (which adds how to give it)
                        f"parameter {p.name!r} is required: {p.description} (query {self.name!r})",
                        code="missing-param",
                    )
                continue
            if p.name != "limit":
                out[p.name] = p.term(value)
        return out

    def limit(self, values: Mapping[str, str]) -> int | None:
        """The row cap asked for with the ``limit`` parameter (or its default)."""
        if not any(p.name == "limit" for p in self.params):
            return None
        value = values.get("limit", self.param("limit").default)
        return None if value is None else positive(value, "limit")

    @property
    def signature(self) -> str:
        """Parameters as shown by ``kg list queries``: ``author`` required, ``[limit=20]`` optional."""
        shown = []
        for p in self.params:
            if p.required:
                shown.append(p.name)
            else:
                shown.append(f"[{p.name}={p.default}]" if p.default is not None else f"[{p.name}]")
        return " ".join(shown)


def positive(value: str, name: str) -> int:
    """A positive integer parameter.

    >>> positive("20", "limit")
    20
    """
    if not re.fullmatch(r"\s*\d{1,9}\s*", value) or int(value) < 1:
        raise UsageError(f"{name} must be a positive integer, not {value!r}", code="bad-param")
    return int(value)


_LIMIT_MARKER = re.compile(r"^([ \t]*)LIMIT[ \t]+\d+[ \t]*#@limit[ \t]*$", re.MULTILINE)
_LAST_MARKER = re.compile(r"^([ \t]*)LIMIT[ \t]+1[ \t]+OFFSET[ \t]+\d+[ \t]*#@last[ \t]*$", re.MULTILINE)
_ROWS_MARKER = re.compile(r"^([ \t]*)HAVING[ \t]*\((.*?)>=[ \t]*\d+[ \t]*\)[ \t]*#@rows[ \t]*$", re.MULTILINE)


def sized(text: str, cap: int | None) -> str:
    r"""The query with the row cap written into its ``LIMIT n  #@limit`` line, if it has one.

    A named query whose rows are a page of a long sorted list (introduced methods on a big graph
    run to tens of thousands of rows) sorts and cuts in a sub-select marked so, and joins titles and labels to that
    page only.  The line gets one row more than ``cap``, so that a cut is still seen as one; without
    a cap the line goes (every row).

    A ``LIMIT 1 OFFSET n  #@last`` line marks a sub-select that finds the page's last row (that
    row more than ``cap``) on a cheap sort key, so that rows which cannot be on the page are left
    out before the full sort: it gets ``OFFSET cap``, and without a cap ``LIMIT 0`` (no such row,
    nothing left out).  A ``HAVING (expression >= n)  #@rows`` line keeps the groups whose
    expression counts more rows than the page holds: it gets ``cap + 1``, and without a cap
    ``HAVING (false)`` (no group).

    >>> text = "SELECT ?s { { SELECT ?s { ?s ?p ?o } ORDER BY ?s\n  LIMIT 20  #@limit\n} }"
    >>> sized(text, 5)
    'SELECT ?s { { SELECT ?s { ?s ?p ?o } ORDER BY ?s\n  LIMIT 6\n} }'
    >>> sized(text, None)
    'SELECT ?s { { SELECT ?s { ?s ?p ?o } ORDER BY ?s\n\n} }'
    >>> sized("  LIMIT 1 OFFSET 20  #@last", 5), sized("  LIMIT 1 OFFSET 20  #@last", None)
    ('  LIMIT 1 OFFSET 5', '  LIMIT 0')
    >>> sized("  HAVING (SUM(?n) >= 21)  #@rows", 5), sized("  HAVING (SUM(?n) >= 21)  #@rows", None)
    ('  HAVING (SUM(?n) >= 6)', '  HAVING (false)')
    """
    text = _ROWS_MARKER.sub(
        lambda m: (
            f"{m.group(1)}HAVING (false)" if cap is None else f"{m.group(1)}HAVING ({m.group(2)}>= {cap + 1})"
        ),
        text,
    )
    text = _LAST_MARKER.sub(
        lambda m: f"{m.group(1)}LIMIT 0" if cap is None else f"{m.group(1)}LIMIT 1 OFFSET {cap}", text
    )
    return _LIMIT_MARKER.sub(lambda m: "" if cap is None else f"{m.group(1)}LIMIT {cap + 1}", text)


_HEADER = re.compile(r"#\s*(description|param\s+(\w+)|example|needs)\s*:\s*(.*)")
_FLAGS = re.compile(r"\s*\((required|default\s+([^)]*))\)\s*$")


def parse(path: Path) -> NamedQuery:
    """Read a ``.rq`` file and its header comments."""
    text = path.read_text(encoding="utf-8")
    description = example = ""
    params: list[Param] = []
    needs: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        m = _HEADER.match(line)
        if not m:
            continue
        key, name, value = m.group(1), m.group(2), m.group(3).strip()
        if key == "description":
            description = value
        elif key == "example":
            example = value
        elif key == "needs":
            for term in value.split():
                if not term.startswith("kg:") or term[3:] not in KG:
                    raise KgError(
                        f"{path.name}: '# needs:' takes kg: terms, not {term!r}", code="bad-named-query"
                    )
                needs.append(KG[term[3:]].value)
        elif name is not None:
            if name not in param_kinds():
                raise KgError(f"unknown parameter name {name!r}", code="bad-named-query")
            required, default = False, None
            flags = _FLAGS.search(value)
            if flags:
                value = value[: flags.start()].strip()
                required = flags.group(1) == "required"
                default = flags.group(2).strip() if flags.group(2) else None
            params.append(Param(name, value, required, default))
    if not description:
        raise KgError(f"{path.name} has no '# description:' line", code="bad-named-query")
    return NamedQuery(path.stem, description, tuple(params), text, path, example, tuple(needs))


def _load() -> dict[str, NamedQuery]:
    return {path.stem: parse(path) for path in sorted(FOLDER.glob("*.rq"))}


QUERIES: dict[str, NamedQuery] = _load()
"""Every shipped named query, by name."""


def named_query(name: str) -> NamedQuery:
    """The named query called ``name``; an unknown name lists the shipped ones."""
    try:
        return QUERIES[name]
    except KeyError:
        raise UsageError(
            unknown("query", name, QUERIES) + " (or give SPARQL text or a .rq file)",
            code="unknown-query",
        ) from None
