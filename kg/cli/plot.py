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
    kind: Annotated[
        str, typer.Option(help="trend, bursts: what to rank when nothing is named: method, subject or area.")
    ] = "method",
    top: Annotated[
        int, typer.Option(min=1, help="trend: the N most used; bursts: the N strongest bursts.")
    ] = 8,
    share: Annotated[
        bool, typer.Option("--share", help="trend: share of each year's papers, not counts.")
    ] = False,
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
    min_duration: Annotated[int, typer.Option(min=1, help="bursts: shortest burst shown, in years.")] = 1,
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
    kg plot bursts --kind subject; kg plot thematic-map; kg plot overlay --view topics
    """
    from kg.plots.figures import PlotOptions, figure_module, plot
    from kg.store import open_store

    options = PlotOptions(
        methods=tuple(method or ()),
        subjects=tuple(subject or ()),
        areas=tuple(area or ()),
        kind=kind,
        top=top,
        share=share,
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
        written = plot(open_store(out), figure, target, options)
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(2 if isinstance(e, UsageError) or e.code in USAGE_CODES else 1) from e
    err.print(f"kg plot: wrote {written}", markup=False)


@list_app.command("figures")
def list_figures() -> None:
    """Print the figures kg plot draws.

    Example: kg list figures
    """
    from kg.cli.listing import print_table
    from kg.plots.figures import FIGURES

    print_table(FIGURES)
