"""How deep Oxigraph parses and plans a query before its stack overflows, per construct.

Each try runs one query on a one-triple store in a process of its own (a stack overflow kills the
process: no exception is raised), and a bisection finds the smallest size that kills it (or, for a
construct whose parsing slows down first, that takes longer than ``--seconds``).  The limits
of ``kg.sparql.check_shape`` (``MAX_NESTING``, ``MAX_PARTS``) stand well below what this prints.

    python benchmarks/query_depth.py                 # every construct, main thread
    python benchmarks/query_depth.py bind minus --thread
"""

from __future__ import annotations

import argparse
import subprocess
import sys

QUERIES = {
    "exists": lambda n: "SELECT * WHERE { ?s ?p ?o " + "FILTER EXISTS { ?s ?p ?o " * n + "}" * n + "}",
    "group": lambda n: "SELECT * WHERE " + "{ " * n + "?s ?p ?o" + " }" * n,
    "optional": lambda n: "SELECT * WHERE { ?s ?p ?o " + "OPTIONAL { ?s ?p ?o " * n + "}" * n + "}",
    "paren": lambda n: "SELECT * WHERE { ?s ?p ?o FILTER(" + "(" * n + "1" + ")" * n + ") }",
    "bind": lambda n: "SELECT * WHERE { ?s ?p ?o " + "".join(f"BIND(1 AS ?b{i}) " for i in range(n)) + "}",
    "minus": lambda n: "SELECT * WHERE { ?s ?p ?o " + "MINUS { ?s ?p 1 } " * n + "}",
    "union": lambda n: "SELECT * WHERE { " + "{ ?s ?p ?o } UNION " * n + "{ ?s ?p ?o } }",
    "plus": lambda n: "SELECT * WHERE { ?s ?p ?o FILTER(" + "1 + " * n + "1 > 0) }",
    "or": lambda n: "SELECT * WHERE { ?s ?p ?o FILTER(" + "false || " * n + "true) }",
    "not": lambda n: "SELECT * WHERE { ?s ?p ?o FILTER(" + "!" * n + "true) }",
}

_RUN = """
import sys, threading, pyoxigraph as ox
store = ox.Store()
store.add(ox.Quad(ox.NamedNode("http://a"), ox.NamedNode("http://p"), ox.Literal("x")))
text = sys.stdin.read()
def run():
    try:
        list(store.query(text))
    except (SyntaxError, ValueError, OSError, RuntimeError):
        pass  # refused with an error: the process lives
if sys.argv[1] == "thread":
    worker = threading.Thread(target=run); worker.start(); worker.join()
else:
    run()
"""


def survives(text: str, thread: bool, seconds: float) -> bool:
    """Whether a process running ``text`` ends normally within ``seconds`` (a query that takes longer
    counts as failing: the sizes that merely take long lie above the crash, so this stays a bound)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _RUN, "thread" if thread else "main"],
            input=text,
            text=True,
            capture_output=True,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def threshold(kind: str, thread: bool, seconds: float, high: int = 40_000) -> tuple[int, int | None]:
    """The largest size that survived and the smallest that failed (None: none up to ``high``)."""
    low = 1
    if survives(QUERIES[kind](high), thread, seconds):
        return high, None
    while high - low > max(5, low // 50):
        middle = (low + high) // 2
        if survives(QUERIES[kind](middle), thread, seconds):
            low = middle
        else:
            high = middle
    return low, high


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", metavar="KIND", help=f"of: {', '.join(QUERIES)} (default: all)")
    parser.add_argument("--thread", action="store_true", help="run the query in a thread, as kg query --timeout does")
    parser.add_argument("--seconds", type=float, default=60.0, help="time allowed to one try")
    args = parser.parse_args()
    print(f"{'construct':<10} {'survives':>9} {'fails':>8}")
    unknown = sorted(set(args.kinds) - set(QUERIES))
    if unknown:
        parser.error(f"unknown construct {unknown[0]!r}; choose from: {', '.join(QUERIES)}")
    for kind in args.kinds or list(QUERIES):
        low, high = threshold(kind, args.thread, args.seconds)
        fails = "none" if high is None else f"{high:,}"
        print(f"{kind:<10} {low:>9,} {fails:>8}", flush=True)


if __name__ == "__main__":
    main()
