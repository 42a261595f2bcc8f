"""``kg plot`` and ``kg list figures``: figures for papers and slides (SVG or 300 dpi PNG) from a built graph."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app, err, list_app
from kg.errors import KgError, UsageError

USAGE_CODES = frozenset({"unknown-figure", "bad-option", "unknown-term", "bad-output"})


@app.command()
def plot(
    figure: Annotated[str, typer.Argument(help="trend, bursts, thematic-map or overlay (kg list figures).")],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Build folder to read (its graph is in OUT/store).")
    ] = Path("outputs"),
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", help="File to write, .svg or .png (300 dpi) [default: OUT/plots/FIGURE.svg]."
        ),
    ] = None,
    method: Annotated[
        list[str] | None,
        typer.Option("--method", "-m", help="trend: a method to draw, slug or label (repeatable)."),
    ] = None,
    subject: Annotated[
        list[str] | None,
        typer.Option("--subject", help="trend: an arXiv subject, code or name (repeatable)."),
    ] = None,
    area: Annotated[
        list[str] | None, typer.Option("--area", help="trend: a conference area (repeatable).")
    ] = None,
    task: Annotated[
        list[str] | None,
        typer.Option("--task", help="trend: a task, label, abbreviation or slug (repeatable)."),
    ] = None,
    dataset: Annotated[
        list[str] | None, typer.Option("--dataset", help="trend: a dataset, name or slug (repeatable).")
    ] = None,
    kind: Annotated[
        str, typer.Option(help="trend, bursts: what to rank when nothing is named: method, subject, area, task or dataset.")
    ] = "method",
    top: Annotated[
        int, typer.Option(min=1, help="trend: the N most used; bursts: the N strongest bursts.")
    ] = 8,
    share: Annotated[
        bool, typer.Option("--share", help="trend: share of each period's papers, not counts.")
    ] = False,
    by: Annotated[
        str,
        typer.Option(
            "--by", help="trend, bursts: count by month, quarter or year; auto chooses by the span of the data."
        ),
    ] = "auto",
    start: Annotated[
        str, typer.Option("--from", help="trend, bursts: first period drawn: YYYY, YYYY-MM or YYYY-Qn.")
    ] = "",
    stop: Annotated[str, typer.Option("--to", help="trend, bursts: last period drawn (as --from).")] = "",
    min_period: Annotated[
        int,
        typer.Option(
            min=1,
            help="trend, bursts: a period with fewer papers gets no share and no burst; the axis starts "
            "and ends at periods with at least this many.",
        ),
    ] = 10,
    generic: Annotated[
        bool, typer.Option("--generic", help="Keep umbrella methods (kg:generic), left out by default.")
    ] = False,
    ratio: Annotated[
        float,
        typer.Option(min=1.01, help="bursts: rate of the burst state over the base rate (Kleinberg's s)."),
    ] = 2.0,
    gamma: Annotated[
        float, typer.Option(min=0.0, help="bursts: cost of entering a burst, times ln(years).")
    ] = 1.0,
    min_duration: Annotated[int, typer.Option(min=1, help="bursts: shortest burst shown, in periods.")] = 1,
    min_papers: Annotated[
        int, typer.Option(min=1, help="thematic-map: methods used by fewer papers are left out.")
    ] = 2,
    terms: Annotated[int, typer.Option(min=2, help="thematic-map: at most this many methods.")] = 250,
    theme_terms: Annotated[int, typer.Option(min=1, help="thematic-map: terms named on each theme.")] = 3,
    view: Annotated[str, typer.Option(help="overlay: coauthors or topics.")] = "coauthors",
    max_nodes: Annotated[int, typer.Option(min=1, help="overlay: keep the strongest nodes.")] = 300,
    labels: Annotated[int, typer.Option(min=0, help="overlay: label at most this many nodes.")] = 30,
    resolution: Annotated[
        float, typer.Option(min=0.0, help="Louvain resolution (thematic-map, overlay).")
    ] = 1.0,
    seed: Annotated[int, typer.Option(help="Seed of clustering and layout (same seed, same figure).")] = 0,
    title: Annotated[str, typer.Option(help="A title instead of the figure's own.")] = "",
) -> None:
    """Draw a figure of a built graph (trend, bursts, thematic-map, overlay) as SVG or 300 dpi PNG.

    Examples: kg plot trend --method lora --method transformer --share --output trend.png;
    kg plot trend --by month --from 2025-03 --to 2026-06;
    kg plot bursts --kind subject; kg plot thematic-map; kg plot overlay --view topics
    """
    from kg.lock import writing_into
    from kg.plots.figures import PlotOptions, figure_module, plot
    from kg.store import open_store

    options = PlotOptions(
        methods=tuple(method or ()),
        subjects=tuple(subject or ()),
        areas=tuple(area or ()),
        tasks=tuple(task or ()),
        datasets=tuple(dataset or ()),
        kind=kind,
        top=top,
        share=share,
        grain=by,
        start=start,
        stop=stop,
        min_period=min_period,
        generic=generic,
        ratio=ratio,
        gamma=gamma,
        min_duration=min_duration,
        min_papers=min_papers,
        terms=terms,
        theme_terms=theme_terms,
        labels=labels,
        resolution=resolution,
        seed=seed,
        view=view,
        max_nodes=max_nodes,
        title=title,
    )
    target = output or out / "plots" / f"{figure}.svg"
    try:
        figure_module(figure)
        check_periods(by, start, stop)
        with writing_into(out, target, "kg plot"):  # not while a build replaces the folder
            written = plot(open_store(out), figure, target, options)
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(2 if isinstance(e, UsageError) or e.code in USAGE_CODES else 1) from e
    err.print(f"kg plot: wrote {written}", markup=False)


def check_periods(by: str, start: str, stop: str) -> None:
    """``--by``, ``--from`` and ``--to`` checked before the graph is opened."""
    from kg.plots import periods

    if by not in periods.CHOICES:
        raise KgError(f"unknown grain {by!r}; choose from: {', '.join(periods.CHOICES)}", code="bad-option")
    for given, end in ((start, False), (stop, True)):
        if given:
            periods.bound(given, "month", end=end)


@list_app.command("figures")
def list_figures() -> None:
    """Print the figures kg plot draws.

    Example: kg list figures
    """
    from kg.cli.listing import print_table
    from kg.plots.figures import FIGURES

    print_table(FIGURES)
