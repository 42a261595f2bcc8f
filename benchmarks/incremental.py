"""Incremental rebuild against a full build, on the synthetic corpus.

    python benchmarks/incremental.py --papers 10000 [--workers N]

Builds a corpus of N papers, then adds 1% more papers (another seeded corpus
in a new sub-folder) and times: the incremental rebuild (only the new files
are read), and a full build of the same inputs (``--full``).  Checks the two
graphs have the same number of triples and prints a table.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def timed_build(folder: Path, out: Path, workers: int, full: bool) -> tuple[float, int, int, str]:
    from kg.build_folder import write_outputs
    from kg.errors import IssueLog
    from kg.pipeline import BuildOptions, build
    from kg.store import staging

    started = time.perf_counter()
    result = build([folder], BuildOptions(cache=out, full=full, workers=workers, store=staging(out)), IssueLog())
    write_outputs(result, out)
    return time.perf_counter() - started, result.triples, result.files_read, str(result.changes)


def main() -> None:
    from synth import generate

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--root", type=Path, default=Path("/tmp/kg-bench-incremental"))
    args = parser.parse_args()
    shutil.rmtree(args.root, ignore_errors=True)
    corpus, out = args.root / "corpus", args.root / "out"
    generate(args.papers, corpus / "base", seed=0)
    first = timed_build(corpus, out, args.workers, full=True)
    generate(max(1, args.papers // 100), corpus / "added", seed=1)
    incremental = timed_build(corpus, out, args.workers, full=False)
    full = timed_build(corpus, out, args.workers, full=True)
    print("build | seconds | files read | triples | changes")
    print("--- | --- | --- | --- | ---")
    for name, (seconds, triples, read, changes) in (
        (f"full, {args.papers:,} papers", first),
        ("incremental, +1% papers", incremental),
        ("full, same inputs", full),
    ):
        print(f"{name} | {seconds:.1f} | {read} | {triples:,} | {changes}")
    assert incremental[1] == full[1], "incremental and full builds differ"
    print(f"\nincremental / full: {incremental[0] / full[0]:.2f}")


if __name__ == "__main__":
    main()
