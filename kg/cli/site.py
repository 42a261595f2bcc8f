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
        typer.Option(min=1, help="Persons, methods, subjects and areas with fewer papers get no page."),
    ] = 1,
) -> None:
    """Write a static website of a built graph: an index with search, a page per person, method,
    subject, area, repository and paper. It works offline, from disk or any static server.

    Example: kg site --out outputs --min-papers 2

    Example: kg serve --out outputs   # then open http://127.0.0.1:7878/site/
    """
    from kg.site import SITE_DIR, SiteOptions, write
    from kg.store import open_store

    target = output or out / SITE_DIR
    try:
        written = write(open_store(out), target, SiteOptions(min_papers=min_papers))
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(2 if e.code == "bad-option" else 1) from e
    kinds = ", ".join(f"{n:,} {kind}" for kind, n in written.entities.items())
    err.print(
        f"kg site: wrote {target} ({written.pages:,} pages, {written.bytes / 1e6:.1f} MB; {kinds})",
        markup=False,
    )
