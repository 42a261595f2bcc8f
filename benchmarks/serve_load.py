"""Load test of ``kg serve``: C concurrent clients for T seconds of mixed named and raw SPARQL queries.

Starts ``kg serve`` on a free loopback port over a built graph (or targets a running one with
``--url``), then runs ``--clients`` clients (threads, one httpx client and connection each) for ``--seconds`` seconds.  Each
client loops over a weighted mix: the named queries (``/queries/NAME``) with parameter values taken
from the graph itself (real author names, mentioned methods, used subjects, repository owners), and
raw SPARQL through the three protocol forms (GET ``?query=``, POST form, POST
``application/sparql-query``) with varied ``Accept`` headers (JSON, XML, CSV, TSV; Turtle and
N-Triples for CONSTRUCT).  Every request is expected to answer 200.

It is bounded: requests time out after ``--request-timeout`` seconds, clients stop at ``--seconds``,
and a watchdog stops the server it started and exits (code 3) at a hard deadline.  Prints requests,
errors by status (or exception), requests/s and p50/p90/p99/max latency, overall and per kind.
Exits 1 when any request failed.

Usage::

    python benchmarks/serve_load.py                          # the seeds, built into a temp folder
    python benchmarks/serve_load.py --papers 10000 [--work /tmp/kg-serve-load]   # a synthetic corpus
    python benchmarks/serve_load.py --out outputs --clients 50 --seconds 30 [--workers 2] [--timeout 10]
    python benchmarks/serve_load.py --url http://127.0.0.1:7878   # a server already running
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT))

RESULT_ACCEPTS = (
    "application/sparql-results+json",
    "application/sparql-results+xml",
    "text/csv",
    "text/tab-separated-values",
    "application/json, */*;q=0.5",
    "*/*",
)
GRAPH_ACCEPTS = ("text/turtle", "application/n-triples", "application/rdf+xml", "*/*")

RAW_SELECTS = (
    "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
    "SELECT ?paper ?title WHERE { ?paper a schema:ScholarlyArticle ; dcterms:title ?title } LIMIT 25",
    "SELECT ?name WHERE { ?p a foaf:Person ; foaf:name ?name } ORDER BY ?name LIMIT 50",
    "SELECT ?code (COUNT(?paper) AS ?papers) WHERE { ?paper dcterms:subject ?c . ?c skos:notation ?code }"
    " GROUP BY ?code ORDER BY DESC(?papers) LIMIT 10",
    "ASK { ?p a foaf:Person }",
)
RAW_CONSTRUCT = "CONSTRUCT { ?p foaf:name ?n } WHERE { ?p a foaf:Person ; foaf:name ?n } LIMIT 100"

# the values queries get when the graph has none of a kind
FALLBACK = {"author": "Thomas Hofmann", "method": "transformer", "subject": "cs.LG", "owner": "google"}


# --- the graph and the server ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def build(inputs: list[Path], out: Path) -> None:
    """``kg build`` into ``out`` (one extraction process: the machine is shared)."""
    command = [sys.executable, "-m", "kg", "build", *map(str, inputs), "--out", str(out), "-q", "-j", "1"]
    started = time.perf_counter()
    subprocess.run(command, check=True, cwd=ROOT)
    print(
        f"built {', '.join(map(str, inputs))} into {out} in {time.perf_counter() - started:.0f} s",
        file=sys.stderr,
    )


def prepare(args: argparse.Namespace, scratch: Path) -> Path:
    """The build folder to serve: ``--out``, a synthetic corpus of ``--papers``, or the seeds."""
    if args.out is not None:
        if not (args.out / "store").is_dir():
            build([ROOT / "seeds"], args.out)
        return Path(args.out)
    if args.papers:
        from synth import generate

        corpus, out = args.work / f"corpus-{args.papers}", args.work / f"built-{args.papers}"
        if not (out / "store").is_dir():
            if not corpus.is_dir():
                started = time.perf_counter()
                generate(args.papers, corpus, args.seed)
                print(
                    f"generated {args.papers} papers in {time.perf_counter() - started:.0f} s",
                    file=sys.stderr,
                )
            build([corpus], out)
        return out
    out = scratch / "seeds-built"
    build([ROOT / "seeds"], out)
    return out


@contextmanager
def running_server(out: Path, args: argparse.Namespace, log: Path) -> Iterator[str]:
    """``kg serve`` on a free loopback port, its log in ``log``; yields the base URL; always stopped."""
    port = free_port()
    command = [sys.executable, "-m", "kg", "serve", "--out", str(out), "--port", str(port)]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    if args.timeout is not None:
        command += ["--timeout", str(args.timeout)]
    with log.open("wb") as sink:  # a file, not a pipe: one log line per request would fill a pipe
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=sink)
    _STARTED.append(process)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"kg serve exited with {process.returncode}: {log.read_text()[-2000:]}")
            try:
                if httpx.get(base + "/queries", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"kg serve not up within 120 s: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield base
    finally:
        stop(process)


_STARTED: list[subprocess.Popen[bytes]] = []


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def watchdog(seconds: float) -> threading.Timer:
    """Stops the servers started here and exits with 3 if the run is still going after ``seconds``."""

    def fire() -> None:
        print(f"hard deadline of {seconds:.0f} s reached: stopping", file=sys.stderr, flush=True)
        for process in _STARTED:
            if process.poll() is None:
                process.kill()
        os._exit(3)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    return timer


# --- the request mix -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Call:
    """One request of the mix: a kind for the report, then what httpx sends."""

    kind: str
    method: str
    path: str
    params: dict[str, str] = field(default_factory=dict)
    data: dict[str, str] | None = None
    content: bytes | None = None
    headers: dict[str, str] = field(default_factory=dict)


def values_from_graph(client: httpx.Client, base: str) -> dict[str, list[str]]:
    """Parameter values that exist in the served graph (a few of each kind), asked over the endpoint."""
    asks = {
        "author": "SELECT ?v WHERE { ?paper dcterms:creator ?p . ?p foaf:name ?v } GROUP BY ?v "
        "ORDER BY DESC(COUNT(?paper)) ?v LIMIT 40",
        "method": "SELECT ?v WHERE { ?paper schema:mentions ?m . ?m skos:prefLabel ?v } GROUP BY ?v "
        "ORDER BY DESC(COUNT(?paper)) ?v LIMIT 20",
        "subject": "SELECT ?v WHERE { ?paper dcterms:subject ?c . ?c skos:notation ?v } GROUP BY ?v "
        "ORDER BY DESC(COUNT(?paper)) ?v LIMIT 20",
        "owner": "SELECT DISTINCT ?v WHERE { ?r kg:owner ?v } ORDER BY ?v LIMIT 20",
    }
    found: dict[str, list[str]] = {}
    for name, text in asks.items():
        r = client.post(
            base + "/sparql", data={"query": text}, headers={"Accept": "application/sparql-results+json"}
        )
        r.raise_for_status()
        got = [b["v"]["value"] for b in r.json()["results"]["bindings"] if "v" in b]
        found[name] = got or [FALLBACK[name]]
    found["subject"] += ["cs", "Deep Learning"]  # an archive and an area label
    found["year"] = ["2024"]
    found["limit"] = ["5", "20", "100"]
    return found


def mix(
    listing: list[dict[str, object]], values: dict[str, list[str]], raw_share: float
) -> list[tuple[Call, float]]:
    """The weighted calls: every named query (its parameters from the graph) and raw SPARQL in each form."""
    rng = random.Random(0)
    calls: list[tuple[Call, float]] = []
    named = 1.0 - raw_share
    per_query = named / max(1, len(listing))
    for q in listing:
        name = str(q["name"])
        params = q["params"]
        assert isinstance(params, list)
        variants = []
        for _ in range(8):
            chosen: dict[str, str] = {}
            for p in params:
                wanted = p["required"] or rng.random() < 0.4
                if wanted and p["name"] in values:
                    chosen[p["name"]] = rng.choice(values[p["name"]])
            if rng.random() < 0.3:
                chosen["format"] = rng.choice(("json", "csv", "tsv", "xml"))
            headers = {} if "format" in chosen else {"Accept": rng.choice(RESULT_ACCEPTS)}
            variants.append(Call(f"named {name}", "GET", f"/queries/{name}", chosen, headers=headers))
        calls += [(v, per_query / len(variants)) for v in variants]
    raws: list[Call] = []
    for text in RAW_SELECTS:
        for accept in RESULT_ACCEPTS:
            h = {"Accept": accept}
            raws.append(Call("raw GET", "GET", "/sparql", {"query": text}, headers=h))
            raws.append(Call("raw POST form", "POST", "/sparql", data={"query": text}, headers=h))
            raws.append(
                Call(
                    "raw POST direct",
                    "POST",
                    "/sparql",
                    content=text.encode(),
                    headers={**h, "Content-Type": "application/sparql-query; charset=utf-8"},
                )
            )
    for accept in GRAPH_ACCEPTS:
        raws.append(
            Call(
                "raw CONSTRUCT", "POST", "/sparql", data={"query": RAW_CONSTRUCT}, headers={"Accept": accept}
            )
        )
    calls += [(r, raw_share / len(raws)) for r in raws]
    return calls


# --- the load ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: collections.defaultdict(list))
    outcomes: collections.Counter[str] = field(default_factory=collections.Counter)
    failures: dict[str, str] = field(default_factory=dict)
    """One example message per failed outcome."""
    lock: threading.Lock = field(default_factory=threading.Lock)


def client_loop(
    base: str,
    calls: list[Call],
    weights: list[float],
    until: float,
    seed: int,
    request_timeout: float,
    tally: Tally,
) -> None:
    """One client: its own connection (kept alive), requests one after the other until ``until``."""
    rng = random.Random(seed)
    with httpx.Client(timeout=request_timeout, trust_env=False) as http:
        while time.monotonic() < until:
            call = rng.choices(calls, weights)[0]
            started = time.perf_counter()
            try:
                r = http.request(
                    call.method,
                    base + call.path,
                    params=call.params or None,
                    data=call.data,
                    content=call.content,
                    headers=call.headers,
                )
                outcome = str(r.status_code)
                failure = f"{call.kind}: {r.text[:200]}" if r.status_code != 200 else None
            except httpx.HTTPError as e:
                outcome, failure = type(e).__name__, f"{call.kind}: {e}"
            took = time.perf_counter() - started
            with tally.lock:
                tally.latencies[call.kind].append(took)
                tally.outcomes[outcome] += 1
                if failure is not None:
                    tally.failures.setdefault(outcome, failure)


def load(
    base: str, clients: int, seconds: float, raw_share: float, request_timeout: float, skip: frozenset[str]
) -> tuple[Tally, float]:
    """``clients`` threads, each a client with its own keep-alive connection, for ``seconds``.

    Threads with a synchronous client each, rather than one asyncio client: httpx's shared async
    connection pool spends more CPU than the server under 50 concurrent requests on a small machine.
    """
    with httpx.Client(timeout=30, trust_env=False) as c:
        listing = [q for q in c.get(base + "/queries").json() if q["name"] not in skip]
        values = values_from_graph(c, base)
    weighted = mix(listing, values, raw_share)
    calls, weights = [c for c, _ in weighted], [w for _, w in weighted]
    tally = Tally()
    started = time.monotonic()
    until = started + seconds
    threads = [
        threading.Thread(
            target=client_loop,
            args=(base, calls, weights, until, i, request_timeout, tally),
            daemon=True,
            name=f"client-{i}",
        )
        for i in range(clients)
    ]
    for t in threads:
        t.start()
    for t in threads:  # each stops by itself at ``until``, after its last request (bounded by the timeout)
        t.join(max(0.0, until + request_timeout + 5 - time.monotonic()))
    elapsed = time.monotonic() - started
    with tally.lock:  # a client still stuck past its timeout is left behind (daemon), counted as it is
        return tally, elapsed


def quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(tally: Tally, elapsed: float, clients: int, seconds: float, title: str) -> int:
    """Prints the figures; returns the number of failed requests."""
    every = sorted(x for xs in tally.latencies.values() for x in xs)
    total = len(every)
    failed = sum(n for outcome, n in tally.outcomes.items() if outcome != "200")
    ms = lambda x: f"{1000 * x:.0f} ms"  # noqa: E731
    print(f"\n## kg serve under load: {title}\n")
    print(f"clients {clients}, {seconds:g} s asked, {elapsed:.1f} s run")
    print(f"requests {total}, errors {failed}, {total / elapsed:.1f} requests/s")
    print("outcomes: " + ", ".join(f"{k}: {v}" for k, v in sorted(tally.outcomes.items())))
    print(
        f"latency p50 {ms(quantile(every, 0.5))}, p90 {ms(quantile(every, 0.9))}, "
        f"p99 {ms(quantile(every, 0.99))}, max {ms(every[-1] if every else float('nan'))}\n"
    )
    print("| kind | requests | p50 | p99 | max |")
    print("|---|---:|---:|---:|---:|")
    for kind in sorted(tally.latencies):
        xs = sorted(tally.latencies[kind])
        print(
            f"| {kind} | {len(xs)} | {ms(statistics.median(xs))} | {ms(quantile(xs, 0.99))} | {ms(xs[-1])} |"
        )
    for outcome, example in sorted(tally.failures.items()):
        print(f"\nfirst {outcome}: {example}")
    return failed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", help="a running kg serve (base URL, or its /sparql endpoint)")
    where.add_argument(
        "--out", type=Path, help="build folder to serve (built from the seeds if it has no store/)"
    )
    where.add_argument(
        "--papers", type=int, help="serve a synthetic corpus of this many papers (benchmarks/synth.py)"
    )
    parser.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "kg-serve-load",
        help="where --papers corpora and builds are kept (reused)",
    )
    parser.add_argument("--seed", type=int, default=0, help="synthetic corpus seed")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--skip", default="", help="named queries left out of the mix, comma-separated (e.g. the slowest)"
    )
    parser.add_argument("--raw-share", type=float, default=0.3, help="share of raw SPARQL requests (0..1)")
    parser.add_argument("--workers", type=int, help="kg serve --workers (default: kg serve's)")
    parser.add_argument("--timeout", type=float, help="kg serve --timeout (default: kg serve's)")
    parser.add_argument("--request-timeout", type=float, default=60.0, help="client timeout per request")
    parser.add_argument(
        "--deadline", type=float, default=900.0, help="hard limit in seconds on the whole run, build included"
    )
    parser.add_argument("--server-log", type=Path, help="keep kg serve's log here")
    args = parser.parse_args()

    skip = frozenset(name for name in args.skip.split(",") if name)
    timer = watchdog(args.deadline)
    scratch = Path(tempfile.mkdtemp(prefix="kg-serve-load-"))
    try:
        if args.url:
            base = args.url.rstrip("/").removesuffix("/sparql")
            tally, elapsed = load(
                base, args.clients, args.seconds, args.raw_share, args.request_timeout, skip
            )
            failed = report(tally, elapsed, args.clients, args.seconds, base)
        else:
            out = prepare(args, scratch)
            log = args.server_log or scratch / "serve.log"
            with running_server(out, args, log) as base:
                tally, elapsed = load(
                    base, args.clients, args.seconds, args.raw_share, args.request_timeout, skip
                )
            failed = report(
                tally, elapsed, args.clients, args.seconds, f"{out}{' without ' + args.skip if skip else ''}"
            )
    finally:
        timer.cancel()
        shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
