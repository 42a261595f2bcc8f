"""Median latency of every named query: the embedded Oxigraph store against rdflib's memory store.

Generates a synthetic corpus (``synth.generate``), builds it with kg, then times each named query
as ``kg query NAME`` runs it (parameters bound to values found in the graph, the query's default row
cap applied): the median of ``--repeat`` runs in the persisted store (``kg.sparql.execute``), as wall
time and as CPU time of the process (the fair figure on a shared machine: Oxigraph evaluates a query
on one thread), and the same query in rdflib's memory store.  The rdflib graph is filled from the
store's quads (term by term, as ``rdflib.Graph.add`` would from a parser, but without the Turtle
parser's own cost) and each query runs in a forked child, killed after ``--rdflib-timeout`` seconds
(shown as ``>T``).  Prints a Markdown table.

Usage::

    python benchmarks/queries.py --papers 100000 [--work /tmp/kg-query-bench] [--repeat 5]
        [--rdflib-timeout 120] [--skip-rdflib] [--only NAME,...]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from itertools import islice
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyoxigraph as ox
import rdflib

from kg.build_folder import write_outputs
from kg.errors import IssueLog
from kg.pipeline import build
from kg.queries import QUERIES, sized
from kg.sparql import Solutions, bind, execute
from kg.vocab import PREFIXES


def prepare(papers: int, work: Path) -> Path:
    """The build folder of a synthetic corpus of ``papers`` papers (reused when already built)."""
    from synth import generate

    corpus, out = work / f"corpus-{papers}", work / f"built-{papers}"
    if (out / "store").is_dir() and (out / "graph.ttl").is_file():
        return out
    if not corpus.is_dir():
        started = time.perf_counter()
        generate(papers, corpus, formats=("profile", "listing", "daily"))
        print(f"generated {papers} papers in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    started = time.perf_counter()
    result = build([corpus], log=IssueLog())
    write_outputs(result, out)
    print(f"built {result.summary()} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return out


def texts(store: ox.Store) -> dict[str, str]:
    """Each named query with its parameters bound to values that exist in the graph."""
    top = execute(store, bind(QUERIES["top-authors"].text, {}), limit=1)
    author = top.rows[0][1].value if isinstance(top, Solutions) and top.rows else "nobody"  # type: ignore[union-attr]
    mentioned = execute(
        store,
        "SELECT ?m (COUNT(*) AS ?n) WHERE { ?p schema:mentions ?m } GROUP BY ?m ORDER BY DESC(?n)",
        limit=1,
    )
    method = "transformer"
    if isinstance(mentioned, Solutions) and mentioned.rows:
        method = mentioned.rows[0][0].value.rsplit("/", 1)[1]  # type: ignore[union-attr]
    values = {"author": author, "method": method, "subject": "cs.LG"}
    out = {}
    for name, query in QUERIES.items():
        given = {p.name: values[p.name] for p in query.params if p.name in values and p.required}
        cap = query.limit(given)
        out[name] = (bind(sized(query.text, cap), query.bindings(given)), cap)
    return out


def time_oxigraph(store: ox.Store, text: str, limit: int | None, repeat: int) -> tuple[float, float, int]:
    """Median wall and CPU seconds, and the number of rows."""
    times, cpu, rows = [], [], 0
    for _ in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = execute(store, text, limit=limit)
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - started_cpu)
        rows = len(result.rows) if isinstance(result, Solutions) else 1
    return statistics.median(times), statistics.median(cpu), rows


_GRAPH: rdflib.Graph | None = None


def _rdflib_child(conn: Connection, text: str, limit: int | None, repeat: int) -> None:
    assert _GRAPH is not None
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        rows = len(list(islice(_GRAPH.query(text), limit)))
        times.append(time.perf_counter() - started)
        conn.send((statistics.median(times), rows))


def rdflib_graph(store: ox.Store) -> rdflib.Graph:
    """The store's default graph in an rdflib memory graph (terms converted once each)."""
    converted: dict[object, rdflib.term.Node] = {}

    def term(t: object) -> rdflib.term.Node:
        got = converted.get(t)
        if got is None:
            if isinstance(t, ox.NamedNode):
                got = rdflib.URIRef(t.value)
            elif isinstance(t, ox.BlankNode):
                got = rdflib.BNode(t.value)
            else:
                assert isinstance(t, ox.Literal)
                if t.language:
                    got = rdflib.Literal(t.value, lang=t.language)
                else:
                    got = rdflib.Literal(t.value, datatype=rdflib.URIRef(t.datatype.value))
            if not isinstance(t, ox.Literal) or len(converted) < 2_000_000:
                converted[t] = got
        return got

    graph = rdflib.Graph()
    add = graph.add
    for q in store.quads_for_pattern(None, None, None, ox.DefaultGraph()):
        add((term(q.subject), term(q.predicate), term(q.object)))
    return graph


def time_rdflib(text: str, limit: int | None, repeat: int, timeout: float) -> str:
    """Median over the runs finished within ``timeout`` (a forked child shares the parsed graph)."""
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe()
    process = context.Process(target=_rdflib_child, args=(child, text, limit, repeat))
    process.start()
    deadline = time.monotonic() + timeout
    last: tuple[float, int] | None = None
    while time.monotonic() < deadline and process.is_alive():
        if parent.poll(0.2):
            last = parent.recv()
    while parent.poll(0):
        last = parent.recv()
    if process.is_alive():
        process.kill()
    process.join()
    return f">{timeout:g} s" if last is None else f"{last[0]:.3f} s"


def main() -> None:
    global _GRAPH
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--work", type=Path, default=Path("/tmp/kg-query-bench"))
    parser.add_argument("--built", type=Path, help="use this build folder instead of generating one")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rdflib-timeout", type=float, default=120.0)
    parser.add_argument("--skip-rdflib", action="store_true")
    parser.add_argument("--only", help="time only these named queries (comma-separated)")
    args = parser.parse_args()
    out = args.built or prepare(args.papers, args.work)
    store = ox.Store.read_only(str(out / "store"))
    print(f"{out}: {len(store):,} triples", file=sys.stderr)
    queries = texts(store)
    if args.only:
        wanted = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = sorted(set(wanted) - set(queries))
        if unknown:
            parser.error(f"unknown queries: {', '.join(unknown)}; choose from: {', '.join(queries)}")
        queries = {name: queries[name] for name in wanted}
    if not args.skip_rdflib:
        started = time.perf_counter()
        _GRAPH = rdflib_graph(store)
        for prefix, iri in PREFIXES.items():
            _GRAPH.bind(prefix, iri)
        print(
            f"rdflib memory graph of {len(_GRAPH):,} triples filled in {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
        )
    print(f"load average at start: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    print("| query | row cap | rows | Oxigraph wall | Oxigraph CPU | rdflib (memory) wall |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (text, limit) in queries.items():
        seconds, cpu, rows = time_oxigraph(store, text, limit, args.repeat)
        other = "-" if args.skip_rdflib else time_rdflib(text, limit, args.repeat, args.rdflib_timeout)
        cap = "-" if limit is None else str(limit)
        print(f"| {name} | {cap} | {rows} | {seconds:.3f} s | {cpu:.3f} s | {other} |", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.1f}", file=sys.stderr)


if __name__ == "__main__":
    main()
