"""Time and peak memory of each ``kg plot`` figure on a built graph (a ``kg build --out`` folder).

Each figure runs in a fresh child process (so the peak resident memory is that figure's alone,
interpreter and imports included) that opens the build's on-disk store, computes the figure's
numbers (SPARQL), draws it and writes it as SVG and as 300 dpi PNG; the child reports each stage's
seconds.  Prints a Markdown table.

Usage::

    python benchmarks/plot.py BUILD_DIR [--figures trend,bursts,thematic-map,overlay] [--view coauthors]
        [--runs 1] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from kg.plots.figures import FIGURES


def one(build: Path, name: str, folder: Path, view: str) -> dict[str, float]:
    """Run in the child: the stages of one figure, timed."""
    from kg.plots.canvas import save, style
    from kg.plots.figures import PlotOptions, figure_module
    from kg.store import open_store

    options = PlotOptions(view=view)
    module = figure_module(name)
    start = time.perf_counter()
    store = open_store(build)
    with style():
        data = module.compute(store, options)
        computed = time.perf_counter()
        figure = module.draw(data, options)
    drawn = time.perf_counter()
    svg = save(figure, folder / f"{name}.svg")
    saved_svg = time.perf_counter()
    png = save(figure, folder / f"{name}.png")
    saved_png = time.perf_counter()
    return {
        "compute_s": computed - start,
        "draw_s": drawn - computed,
        "svg_s": saved_svg - drawn,
        "png_s": saved_png - saved_svg,
        "total_s": saved_png - start,
        "svg_kb": svg.stat().st_size / 1024,
        "png_kb": png.stat().st_size / 1024,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def run(build: Path, name: str, folder: Path, view: str) -> dict[str, float]:
    """One figure in a child process; its report."""
    done = subprocess.run(
        [sys.executable, __file__, str(build), "--child", name, "--keep", str(folder), "--view", view],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{name} failed:\n{done.stderr}")
    report: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path, help="a kg build --out folder")
    parser.add_argument("--figures", default=",".join(FIGURES))
    parser.add_argument("--view", default="coauthors", help="overlay: coauthors or topics")
    parser.add_argument("--runs", type=int, default=1, help="runs per figure (the fastest is shown)")
    parser.add_argument("--keep", type=Path, help="write the figures here (default: a temporary folder)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(args.build, args.child, args.keep, args.view)))
        return
    folder = args.keep or Path(tempfile.mkdtemp(prefix="kg-plot-bench-"))
    print(f"build: {args.build}  figures written to: {folder}\n")
    print("| figure | compute s | draw s | SVG s | PNG s | total s | SVG KB | PNG KB | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in args.figures.split(","):
        reports = [run(args.build, name, folder, args.view) for _ in range(max(1, args.runs))]
        r = min(reports, key=lambda x: x["total_s"])
        label = f"{name} ({args.view})" if name == "overlay" else name
        print(
            f"| {label} | {r['compute_s']:.2f} | {r['draw_s']:.2f} | {r['svg_s']:.2f} | {r['png_s']:.2f} | "
            f"{r['total_s']:.2f} | {r['svg_kb']:,.0f} | {r['png_kb']:,.0f} | {max(x['peak_mb'] for x in reports):,.0f} |"
        )


if __name__ == "__main__":
    main()
