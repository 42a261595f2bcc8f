"""``kg query`` and ``kg list queries``: run SPARQL (text, a .rq file or a named query) on a built graph."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kg.cli.app import app, err, list_app
from kg.errors import KgError, UsageError, unknown

if TYPE_CHECKING:
    from kg.sparql import Term


@app.command()
def query(
    query: Annotated[
        str, typer.Argument(help="SPARQL text, a .rq file, or the name of a shipped query (kg list queries).")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Build folder whose store/ is queried.")] = Path(
        "outputs"
    ),
    endpoint: Annotated[
        str | None, typer.Option(help="Query this SPARQL 1.1 endpoint URL instead of a build folder.")
    ] = None,
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="NAME=VALUE, bound as an RDF term (repeatable)."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", "-f", help="table, csv, tsv, json or xml.")] = "table",
    limit: Annotated[
        int | None,
        typer.Option(help="Row cap: at most N rows; raises or lowers a named query's own cap (its limit=).", min=1),
    ] = None,
    timeout: Annotated[float | None, typer.Option(help="Stop the query after S seconds.", min=0.001)] = None,
) -> None:
    """Run a SPARQL query on the graph and print the results (W3C formats or a table) on stdout.

    Examples: kg query summary; kg query coauthors --param author="Thomas Hofmann";
    kg query 'SELECT ?s WHERE { ?s a foaf:Person }' --format csv --limit 5
    """
    from kg.queries import sized
    from kg.sparql import FORMATS, Graph, Solutions, bind, execute, query_endpoint, serialize

    if fmt not in FORMATS:
        raise UsageError(unknown("format", fmt, FORMATS), code="bad-format")
    values = parse_params(param or [])
    try:
        text, source, terms, cap = prepare(query, values)
        if limit is not None:  # one row cap: --limit raises or lowers a named query's own (its limit=)
            cap = limit
        bound = bind(sized(text, cap), terms)
        if endpoint is not None:
            result = query_endpoint(endpoint, bound, limit=cap, timeout=timeout)
        else:
            from kg.store import open_store

            result = execute(open_store(out), bound, limit=cap, timeout=timeout, source=source)
    except UsageError as e:
        if e.code == "missing-param":
            raise UsageError(f"{e.message}; give it with --param NAME=VALUE", e.at, e.code) from e
        raise
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(1) from e
    if isinstance(result, Solutions) and not result.rows:
        refuse_unknown_names(query, values, out, endpoint, timeout)
    if fmt == "table" and not isinstance(result, Graph):
        print_table(result)
    else:
        sys.stdout.buffer.write(serialize(result, fmt))
        sys.stdout.buffer.flush()
    if isinstance(result, Solutions | Graph) and result.truncated:
        err.print(f"kg query: stopped at {cap} rows (more exist; raise --limit)", markup=False)
    if isinstance(result, Solutions) and not result.rows:
        explain_empty(query, out, endpoint, timeout)


def refuse_unknown_names(
    query: str, values: dict[str, str], out: Path, endpoint: str | None, timeout: float | None
) -> None:
    """No rows from a named query: a parameter value that names nothing in the graph is a usage error
    (exit 2) with the nearest names, as kg plot and kg viz say it (``kg.queries.values``)."""
    import pyoxigraph as ox

    from kg.queries import QUERIES
    from kg.queries.values import unmatched
    from kg.sparql import Solutions, execute, query_endpoint
    from kg.vocab import PREFIXES

    named = QUERIES.get(query)
    if named is None:
        return

    def select(text: str) -> list[dict[str, str]]:
        if endpoint is not None:
            declared = "".join(f"PREFIX {name}: <{iri}>\n" for name, iri in sorted(PREFIXES.items()))
            found = query_endpoint(endpoint, declared + text, timeout=timeout)
        else:
            from kg.store import open_store

            found = execute(open_store(out), text, timeout=timeout)
        assert isinstance(found, Solutions)
        return [
            {
                name: term.value
                for name, term in zip(found.variables, row, strict=True)
                if term is not None and not isinstance(term, ox.Triple)
            }
            for row in found.rows
        ]

    try:
        problem = unmatched(named, values, select)
    except KgError as e:
        err.print(f"kg query: cannot check the parameters against the graph: {e}", markup=False)
        return
    if problem is not None:
        err.print(str(problem), markup=False)
        raise typer.Exit(2)


def explain_empty(query: str, out: Path, endpoint: str | None, timeout: float | None) -> None:
    """No rows from a named query that reads the build's counts: say so if the graph has none."""
    from kg.queries import QUERIES
    from kg.sparql import Boolean, execute, query_endpoint

    named = QUERIES.get(query)
    for iri in named.needs if named is not None else ():
        ask = f"ASK {{ ?s <{iri}> ?o }}"
        try:
            if endpoint is not None:
                found = query_endpoint(endpoint, ask, timeout=timeout)
            else:
                from kg.store import open_store

                found = execute(open_store(out), ask, timeout=timeout)
        except KgError as e:
            err.print(f"kg query: cannot check the graph for <{iri}>: {e}", markup=False)
            return
        if isinstance(found, Boolean) and not found.value:
            err.print(
                f"kg query: warning: {query} reads <{iri}>, which kg build writes and this graph lacks "
                "(built by an older kg, or loaded from elsewhere); rebuild it with kg build [missing-counts]",
                markup=False,
            )


def parse_params(items: list[str]) -> dict[str, str]:
    """``NAME=VALUE`` options as a dict; a malformed one is a usage error."""
    values: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--param takes NAME=VALUE, not {item!r}", code="bad-param")
        values[name.strip()] = value
    return values


def prepare(query: str, values: dict[str, str]) -> tuple[str, str, dict[str, Term], int | None]:
    """The query text, its source name, the terms to bind and the row cap, for QUERY and the params."""
    from kg.queries import QUERIES, named_query
    from kg.sparql import guess_term

    if query in QUERIES:
        named = named_query(query)
        return named.text, f"{named.name}.rq", named.bindings(values), named.limit(values)
    path = Path(query)
    if query.endswith(".rq") or (len(query) < 1000 and "{" not in query and path.is_file()):
        from kg.readers.text import read_side_file
        from kg.sparql import MAX_QUERY_CHARS

        try:  # a regular file of a bounded size: a FIFO or /dev/zero is refused, never waited on
            text = read_side_file(path, 4 * MAX_QUERY_CHARS, "query file", query).decode("utf-8")
        except UnicodeDecodeError as e:
            raise KgError(f"cannot read query file {query}: {e}", code="unreadable-query") from e
        source = query
    elif "{" in query or query.strip().upper().startswith(
        ("SELECT", "ASK", "CONSTRUCT", "DESCRIBE", "PREFIX")
    ):
        text, source = query, "query"
    else:
        named_query(query)  # raises: unknown name, lists the shipped queries
        raise AssertionError("unreachable")
    terms = {name: guess_term(value) for name, value in values.items()}
    return text, source, terms, None


def print_table(result: object) -> None:
    """Solutions (or a boolean) as a rich table for people, IRIs compacted with the usual prefixes."""
    from rich.console import Console
    from rich.table import Table

    from kg.sparql import Boolean, Solutions, compact_prefixes, show_term

    # a terminal's width when there is one; piped output is not squeezed to 80 columns
    out = Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 240)
    if isinstance(result, Boolean):
        out.print("true" if result.value else "false", markup=False)
        return
    assert isinstance(result, Solutions)
    prefixes = compact_prefixes()
    if len(result.rows) == 1 and len(result.variables) > 4:  # one wide row (a summary) reads better down
        table = Table("name", "value", header_style="bold")
        for name, term in zip(result.variables, result.rows[0], strict=True):
            table.add_row(name, show_term(term, prefixes))
    else:
        table = Table(*result.variables, header_style="bold")
        for row in result.rows:
            table.add_row(*(show_term(term, prefixes) for term in row))
    out.print(table)
    err.print(f"{len(result.rows)} row{'s' if len(result.rows) != 1 else ''}", markup=False)


@list_app.command("queries")
def list_queries() -> None:
    """Print the shipped named queries with their parameters and one-line descriptions.

    Example: kg list queries
    """
    from kg.queries import QUERIES

    width = max(len(name) for name in QUERIES)
    for name, named in QUERIES.items():
        typer.echo(f"{name:<{width}}  {named.description}")
        if named.params:
            typer.echo(f"{'':<{width}}  parameters: {named.signature}")
        if named.needs:
            reads = ", ".join("kg:" + iri.rsplit("#", 1)[1] for iri in named.needs)
            typer.echo(f"{'':<{width}}  reads the build's counts: {reads}")
