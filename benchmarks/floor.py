"""The least time a build of a corpus could take on this machine: its unavoidable parts, each alone.

    python benchmarks/floor.py --corpus DIR --built OUT [--cores 2]

``DIR`` is a synthetic corpus of ``benchmarks/synth.py`` and ``OUT`` the folder ``benchmarks/build.py``
built it into (its ``graph.ttl``; ``/tmp/kg-bench/out-N`` by default there).  Each part runs alone in
this process, and its CPU seconds are read from the kernel (every thread of the process):

- the bare ``spacy.blank("en")`` tokenizer over every abstract (the ratio's denominator);
- reading every file into records (``kg.readers.read_file``), without extracting;
- every extractor over every record, and of it the methods extractor's share;
- Oxigraph's bulk load of the built ``graph.ttl`` into a new on-disk store, all in Rust (no Python
  makes a triple), and the compaction ``kg build`` runs after it.

A build must at least read the records, extract them and load their triples: the sum of those CPU
seconds spread evenly over ``--cores`` cores, and no less than the bulk load's own wall time, is a
floor that no arrangement of the work can get under.  The table prints the floor and the floor's
ratio to the tokenizer pass, beside the build's own time when ``OUT/build.json`` exists (written by
``benchmarks/build.py``).
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cpu_seconds() -> float:
    """CPU seconds of this process so far, every thread included (Oxigraph's loader's too)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(work: Callable[[], Any]) -> tuple[Any, float, float]:
    """``work()``'s result, wall seconds and CPU seconds."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = work()
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def parts(corpus: Path, built: Path) -> dict[str, Any]:
    from build import tokenizer_seconds

    from kg.errors import IssueLog
    from kg.extractors import EXTRACTORS, warm
    from kg.readers import read_file
    from kg.readers.discover import discover

    log = IssueLog()
    files = discover([corpus], log)
    warm()
    figures: dict[str, Any] = {}

    records, figures["read_wall"], figures["read_cpu"] = timed(
        lambda: [r for item in files for r in read_file(item.path, log, item.shown)]
    )
    figures["records"] = len(records)
    abstracts = [r.abstract.text for r in records if r.abstract is not None]
    figures["abstracts"] = len(abstracts)

    # benchmarks/build.py's pass (one thread: its wall time is its CPU time on an idle machine)
    figures["tokenizer_wall"] = figures["tokenizer_cpu"] = tokenizer_seconds(abstracts)

    by_extractor: dict[str, float] = {}
    for name, module in EXTRACTORS.items():

        def run(module: Any = module) -> int:
            return sum(1 for record in records for _ in module.extract(record, log))

        mentions, _, by_extractor[name] = timed(run)
        figures[f"mentions_{name}"] = mentions
    figures["extract_cpu"] = sum(by_extractor.values())
    figures["extractors_cpu"] = by_extractor
    records.clear()
    figures.update(load(built / "graph.ttl"))
    return figures


def load(graph: Path) -> dict[str, Any]:
    """Wall and CPU seconds of bulk-loading ``graph`` (Turtle) into a new on-disk store beside it,
    and of compacting the store."""
    import pyoxigraph as ox

    figures: dict[str, Any] = {}
    folder = Path(tempfile.mkdtemp(prefix="kg-floor-", dir=graph.parent))
    try:
        store = ox.Store(str(folder / "store"))
        _, figures["load_wall"], figures["load_cpu"] = timed(
            lambda: store.bulk_load(path=str(graph), format=ox.RdfFormat.TURTLE)
        )
        figures["triples"] = len(store)
        _, figures["optimize_wall"], figures["optimize_cpu"] = timed(store.optimize)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", type=Path, required=True, help="a corpus of benchmarks/synth.py")
    parser.add_argument("--built", type=Path, required=True, help="the folder it was built into")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args()
    f = parts(args.corpus, args.built)
    need = f["read_cpu"] + f["extract_cpu"] + f["load_cpu"] + f["optimize_cpu"]
    floor = max(need / args.cores, f["load_wall"] + f["optimize_wall"])
    f["floor_s"] = floor
    f["floor_ratio"] = floor / f["tokenizer_wall"]
    rows = [
        ("tokenizer pass", f["tokenizer_wall"], f["tokenizer_cpu"]),
        ("read records", f["read_wall"], f["read_cpu"]),
        *((f"extract: {n}", None, s) for n, s in f["extractors_cpu"].items()),
        ("bulk load graph.ttl", f["load_wall"], f["load_cpu"]),
        ("compaction", f["optimize_wall"], f["optimize_cpu"]),
    ]
    print(f"{f['records']:,} records, {f['abstracts']:,} abstracts, {f['triples']:,} triples")
    print("part | wall s | CPU s | CPU / tokenizer")
    print("---|---:|---:|---:")
    for name, wall, cpu in rows:
        shown = "" if wall is None else f"{wall:.1f}"
        print(f"{name} | {shown} | {cpu:.1f} | {cpu / f['tokenizer_cpu']:.1f}")
    print(
        f"read + extract + load + compaction: {need:.1f} CPU s; on {args.cores} cores at least "
        f"{floor:.1f} s, {f['floor_ratio']:.1f} times the tokenizer pass"
    )
    report = args.built / "build.json"
    if report.exists():
        build = json.loads(report.read_text())
        f["build_s"] = build["build_s"]
        print(
            f"the build: {build['build_s']:.1f} s, {build['build_s'] / f['tokenizer_wall']:.1f} times "
            f"this tokenizer pass ({build['build_s'] / floor:.2f} times the floor)"
        )
    if args.json is not None:
        args.json.write_text(json.dumps(f, indent=1) + "\n")


if __name__ == "__main__":
    main()
