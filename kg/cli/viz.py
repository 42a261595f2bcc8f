"""``kg viz``: draw a view of a built graph as one self-contained, interactive HTML page."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app, err
from kg.errors import KgError, unknown


class CountingName(StrEnum):
    full = "full"
    fractional = "fractional"


class SizeName(StrEnum):
    papers = "papers"
    degree = "degree"


def _view_name(value: str) -> str:
    """A known view name; an unknown one is a usage error that suggests the nearest."""
    from kg.project import VIEWS

    if value not in VIEWS:
        raise typer.BadParameter(unknown("view", value, list(VIEWS)))
    return value


@app.command()
def viz(
    view: Annotated[
        str,
        typer.Argument(
            help="What to draw: a view (kg list views shows them).", metavar="VIEW", callback=_view_name
        ),
    ] = "coauthors",
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Build folder to read (its graph is in OUT/store).")
    ] = Path("outputs"),
    output: Annotated[
        Path | None, typer.Option("--output", help="HTML file to write [default: OUT/VIEW.html].")
    ] = None,
    endpoint: Annotated[
        str | None,
        typer.Option(help="Read the graph from this SPARQL 1.1 endpoint URL instead of OUT/store."),
    ] = None,
    timeout: Annotated[
        float, typer.Option(min=0.1, help="--endpoint: seconds to wait for each of the view's queries.")
    ] = 600.0,
    open_page: Annotated[bool, typer.Option("--open", help="Open the page in a browser.")] = False,
    counting: Annotated[
        CountingName,
        typer.Option(help="coauthors: a paper with n authors adds 1 (full) or 1/(n-1) to each pair."),
    ] = CountingName.full,
    max_authors: Annotated[
        int, typer.Option(min=2, help="coauthors: papers with more authors add no links.")
    ] = 25,
    min_papers: Annotated[
        int, typer.Option(min=1, help="coauthors: persons with fewer papers are left out.")
    ] = 1,
    min_occurrences: Annotated[
        int, typer.Option(min=1, help="topics: concepts used by fewer papers are left out.")
    ] = 1,
    generic: Annotated[
        bool,
        typer.Option(
            "--generic",
            help="topics: keep generic concepts (neural network, language model, ...) left out by default.",
        ),
    ] = False,
    focus: Annotated[
        str, typer.Option(help="ego: the person, paper, method or subject (label or IRI).")
    ] = "",
    method: Annotated[
        str,
        typer.Option(help="coauthors: only the papers of this method and narrower ones (label or slug)."),
    ] = "",
    subject: Annotated[
        str,
        typer.Option(help="coauthors: only the papers of this arXiv subject or area (code or name)."),
    ] = "",
    task: Annotated[
        str,
        typer.Option(
            help="coauthors: only the papers on this task and narrower ones (label, abbreviation or slug)."
        ),
    ] = "",
    dataset: Annotated[
        str,
        typer.Option(
            help="coauthors: only the papers that use or introduce this dataset or a variant (name or slug)."
        ),
    ] = "",
    depth: Annotated[int, typer.Option(min=0, help="ego: steps from the focus in the typed graph.")] = 2,
    resolution: Annotated[
        float, typer.Option(min=0.0, help="Louvain resolution (higher: more, smaller communities).")
    ] = 1.0,
    seed: Annotated[int, typer.Option(help="Seed of communities and layout (same seed, same picture).")] = 0,
    size_by: Annotated[
        SizeName, typer.Option(help="Node size grows with papers or degree.")
    ] = SizeName.papers,
    max_nodes: Annotated[
        int, typer.Option(min=1, help="Keep the strongest nodes of a larger view and say what was left out.")
    ] = 2000,
    max_edges: Annotated[
        int,
        typer.Option(
            min=0,
            help="Keep at most this many links: each node's strongest, then the heaviest (0: all of them).",
        ),
    ] = 20_000,
) -> None:
    """Draw a view (coauthors, topics, papers, ego) of a built graph as an interactive HTML page.

    The page works offline (everything inlined) and is the same for the same graph and seed.

    Example: kg viz coauthors --out outputs --counting fractional --min-papers 2

    Example: kg viz coauthors --method "diffusion model"   # who works on diffusion models, with whom

    Example: kg viz coauthors --task "robot manipulation"   # who works on robot manipulation, with whom

    Example: kg viz topics --endpoint http://localhost:7878/query --output topics.html
    """
    from kg import viz as pages
    from kg.lock import writing_into
    from kg.node_papers import node_papers
    from kg.project import Endpoint, Queryable, ViewOptions
    from kg.project import view as compute
    from kg.store import open_store

    options = ViewOptions(
        counting=counting.value,
        max_authors=max_authors,
        min_papers=min_papers,
        min_occurrences=min_occurrences,
        generic=generic,
        focus=focus,
        method=method,
        subject=subject,
        task=task,
        dataset=dataset,
        depth=depth,
        resolution=resolution,
        seed=seed,
        size_by=size_by.value,
        max_nodes=max_nodes,
        max_edges=max_edges or None,
    )
    target = output or out / f"{view}.html"
    try:
        with writing_into(out, target, "kg viz"):  # not while a build replaces the folder
            queryable: Queryable = Endpoint(endpoint, timeout) if endpoint is not None else open_store(out)
            graph = compute(queryable, view, options)
            left_out = pages.notice(graph)
            pages.write(graph, target, papers=node_papers(queryable, graph))
    except KgError as e:
        err.print(str(e), markup=False)
        usage = ("bad-option", "unknown-focus", "ambiguous-focus", "unknown-term")
        raise typer.Exit(2 if e.code in usage else 1) from e
    if left_out:  # said once the page is written: a failed write prints its error alone
        err.print(f"kg viz: {left_out}", markup=False)
    err.print(
        f"kg viz: wrote {target} ({graph.number_of_nodes():,} nodes, {graph.number_of_edges():,} links, "
        f"{graph.graph.get('communities', 0)} communities)",
        markup=False,
    )
    if open_page:
        import webbrowser

        webbrowser.open(target.resolve().as_uri())
