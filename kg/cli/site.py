"""``kg site``: write a static, offline website of a built graph."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app, err
from kg.errors import KgError


@app.command()
def site(
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Build folder to read (its graph is in OUT/store).")
    ] = Path("outputs"),
    output: Annotated[
        Path | None, typer.Option("--output", help="Site folder to write [default: OUT/site].")
    ] = None,
    min_papers: Annotated[
        int,
        typer.Option(
            min=0,
            help="Persons, methods, subjects and areas with fewer papers get no page; 0: by the graph's "
            "size (1 under 1,000 papers, 2 under 50,000, else 3).",
        ),
    ] = 0,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            help="Processes that read the store and render the pages (0: one per core for a large site).",
        ),
    ] = 0,
) -> None:
    """Write a static website of a built graph: an index with search, a page per person, method,
    subject, area, repository and paper. It works offline, from disk or any static server.

    Example: kg site --out outputs --min-papers 2

    Example: kg serve --out outputs   # then open http://127.0.0.1:7878/site/
    """
    from kg.lock import writing_into
    from kg.site import SITE_DIR, SiteOptions, write
    from kg.store import located, open_store
    from kg.viz import link_views

    target = output or out / SITE_DIR
    try:
        with writing_into(out, target, "kg site"):  # not while a build replaces the folder
            written = write(
                open_store(out), target, SiteOptions(min_papers=min_papers, jobs=jobs), located(out)
            )
            views = link_views(target)
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(2 if e.code == "bad-option" else 1) from e
    kinds = ", ".join(f"{n:,} {kind}" for kind, n in written.entities.items())
    linked = f"; linked {views} view page{'s' if views != 1 else ''} to it" if views else ""
    err.print(
        f"kg site: wrote {target} ({written.pages:,} pages, {written.bytes / 1e6:.1f} MB; {kinds}){linked}",
        markup=False,
    )
