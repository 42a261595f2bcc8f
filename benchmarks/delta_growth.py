"""How a delta build's cost grows with the graph: the same 100 papers added to builds of N papers.

    python benchmarks/delta_growth.py --papers 10000 --papers 50000 [--papers 100000] [--workers N]
        [--root DIR] [--profile DIR]

For each N: a seeded corpus of N papers (``synth.py``, seed 0, cached under ``--root``), built in full
into a build folder; then the same folder of 100 other papers (seed 1, the same for every N) is added
and the build is run again, as a delta, and timed (best of ``--repeat``: each repeat starts from a
copy of the full build).  With ``--profile DIR`` each delta's profile is written there
(``delta-N.prof``; read it with ``python -m pstats``).  Prints a Markdown table: the full build, the
delta, their ratio and the delta's stages (``Build.timings``).  The issue's figures: a delta at 50k
costs at most 2x the delta at 10k, and at most 3% of the full 50k build.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def corpus(papers: int, root: Path, seed: int) -> Path:
    """A seeded corpus, generated once under ``root`` and reused."""
    from synth import generate

    folder = root / f"corpus-{papers}-{seed}"
    if not (folder / ".complete").exists():
        shutil.rmtree(folder, ignore_errors=True)
        generate(papers, folder / "papers", seed=seed)
        (folder / ".complete").write_text("ok\n")
    return folder / "papers"


def build(paths: list[Path], out: Path, workers: int, profile: Path | None = None) -> tuple[float, object]:
    from kg.build_folder import build_into
    from kg.errors import IssueLog
    from kg.pipeline import BuildOptions

    profiler = cProfile.Profile() if profile is not None else None
    started = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    result, _ = build_into(paths, out, BuildOptions(workers=workers), IssueLog())
    if profiler is not None:
        profiler.disable()
        assert profile is not None
        profiler.dump_stats(str(profile))
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, action="append", help="base sizes (repeatable)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--root", type=Path, default=Path("/tmp/kg-bench-delta-growth"))
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--profile", type=Path)
    args = parser.parse_args()
    sizes = args.papers or [10_000, 50_000]
    added = corpus(100, args.root, seed=1)
    rows = []
    for n in sizes:
        base = corpus(n, args.root, seed=0)
        full_out = args.root / f"full-{n}"
        shutil.rmtree(full_out, ignore_errors=True)
        full_s, full = build([base], full_out, args.workers)
        papers = getattr(full, "counts", {}).get("papers", 0)
        del full
        best: tuple[float, object] | None = None
        for i in range(args.repeat):
            out = args.root / f"delta-{n}"
            shutil.rmtree(out, ignore_errors=True)
            shutil.copytree(full_out, out, symlinks=True)
            prof = args.profile / f"delta-{n}.prof" if args.profile is not None and i == 0 else None
            if prof is not None:
                prof.parent.mkdir(parents=True, exist_ok=True)
            seconds, result = build([base, added], out, args.workers, prof)
            if getattr(result, "delta", None) is None:
                sys.exit(f"the build after adding 100 papers to {n} was not a delta: {result.full_because}")
            if best is None or seconds < best[0]:
                best = (seconds, result)
        assert best is not None
        seconds, result = best
        stages = ", ".join(f"{k} {v:.2f}" for k, v in getattr(result, "timings", {}).items())
        rows.append((n, papers, full_s, seconds, getattr(result, "delta", {}), stages))
        print(f"{n:,}: full {full_s:.1f} s, delta {seconds:.2f} s ({stages})", flush=True)
    print(f"\n{args.workers} workers, best of {args.repeat} deltas\n")
    print("| papers | full build s | delta (+100 papers) s | delta / full | what the delta did | stages (s) |")
    print("|---:|---:|---:|---:|---|---|")
    for _, papers, full_s, seconds, delta, stages in rows:
        did = f"-{delta['papers_removed']} +{delta['papers_made']} papers" if delta else ""
        print(f"| {papers:,} | {full_s:.1f} | {seconds:.2f} | {seconds / full_s:.3f} | {did} | {stages} |")


if __name__ == "__main__":
    main()
