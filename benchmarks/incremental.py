"""Delta rebuilds against full builds of the same inputs, on the synthetic corpus, side by side.

    python benchmarks/incremental.py --papers 10000 [--workers N] [--root DIR]

Builds a corpus of N papers (``synth.py``), then times, each time beside a full build (``--full``)
of the same inputs into another folder, run right after:

- **add 1%**: another seeded corpus of N/100 papers in a new sub-folder;
- **change one file**: one record of the median-sized input file edited (its title);
- **remove one file**: that file removed.

After each step the delta's store is compared with the full build's (every triple, as a set) and
the table says whether they are equal.  Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def timed_build(inputs: Path, out: Path, workers: int, full: bool) -> tuple[float, str, str]:
    """Seconds, the summary line of what changed, and the kind of build it was."""
    from kg.build_folder import build_into
    from kg.errors import IssueLog
    from kg.pipeline import BuildOptions

    started = time.perf_counter()
    result, _ = build_into([inputs], out, BuildOptions(full=full, workers=workers), IssueLog())
    seconds = time.perf_counter() - started
    kind = f"full ({result.full_because})" if result.delta is None else "delta"
    if result.delta is not None:
        d = result.delta
        kind += f" (-{d['papers_removed']} +{d['papers_made']} papers, -{d['triples_deleted']:,} +{d['triples_inserted']:,} triples)"
    del result
    return seconds, kind, f"{out}"


def fingerprint(out: Path) -> tuple[int, str]:
    """The number of triples of a build's store and an order-free hash of them."""
    import pyoxigraph as ox

    store = ox.Store.read_only(str(out / "store"))
    total, count = 0, 0
    for quad in store.quads_for_pattern(None, None, None, None):
        total ^= int.from_bytes(hashlib.blake2b(str(quad).encode(), digest_size=8).digest(), "big")
        count += 1
    return count, f"{total:016x}"


def median_file(corpus: Path) -> Path:
    files = sorted((p for p in corpus.rglob("*") if p.is_file()), key=lambda p: (p.stat().st_size, p.name))
    return files[len(files) // 2]


def edit(path: Path) -> None:
    """Change one record of ``path``: the first title-like line gets words appended."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        if '"title": "' in line:
            lines[i] = line.replace('"title": "', '"title": "Revised: ', 1)
            break
        if line.startswith(("Title:", "title:")) or (i and lines[i - 1].strip() == "" and len(line) > 40):
            lines[i] = line.rstrip("\n") + " (revised)\n"
            break
    path.write_text("".join(lines), encoding="utf-8")


def main() -> None:
    from synth import generate

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--papers", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--root", type=Path, default=Path("/tmp/kg-bench-incremental"))
    args = parser.parse_args()
    shutil.rmtree(args.root, ignore_errors=True)
    corpus, out, full_out = args.root / "corpus", args.root / "out", args.root / "full"
    generate(args.papers, corpus / "base", seed=0)
    rows: list[tuple[str, float, float, str, bool]] = []
    first, _, _ = timed_build(corpus, out, args.workers, full=True)
    print(f"full build of {args.papers:,} papers: {first:.1f} s", flush=True)

    def step(name: str) -> None:
        delta, kind, _ = timed_build(corpus, out, args.workers, full=False)
        shutil.rmtree(full_out, ignore_errors=True)
        full, _, _ = timed_build(corpus, full_out, args.workers, full=True)
        same = fingerprint(out) == fingerprint(full_out)
        rows.append((name, delta, full, kind, same))
        print(f"{name}: delta {delta:.1f} s, full {full:.1f} s, same graph: {same}", flush=True)

    generate(max(1, args.papers // 100), corpus / "added", seed=1)
    step("add 1% (one new folder)")
    changed = median_file(corpus / "base")
    edit(changed)
    step(f"change one file ({changed.name}, {changed.stat().st_size / 1e6:.1f} MB)")
    changed.unlink()
    step(f"remove one file ({changed.name})")
    print(f"\n{args.papers:,} papers, {args.workers} workers\n")
    print("| change | delta s | full build s (same inputs) | delta / full | what the delta did | same graph |")
    print("|---|---:|---:|---:|---|---|")
    for name, delta, full, kind, same in rows:
        print(f"| {name} | {delta:.1f} | {full:.1f} | {delta / full:.2f} | {kind} | {'yes' if same else 'NO'} |")


if __name__ == "__main__":
    main()
