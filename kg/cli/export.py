"""``kg export FORMAT``: write a persisted build in a format other tools read."""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from kg.cli.app import app, err
from kg.errors import KgError, UsageError, unknown


@app.command("export")
def export_command(
    format: Annotated[
        str,
        typer.Argument(
            help="turtle, ntriples, nquads, jsonld, graphml, gexf, csv or vosviewer (see: kg list exporters).",
            show_default=False,
        ),
    ],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Build folder to read (its store/, from kg build --out).")
    ] = Path("outputs"),
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            help="File (or folder, for csv) to write; default OUT/export/graph.EXT, OUT/export/VIEW.EXT "
            "or OUT/export/csv/.",
            show_default=False,
        ),
    ] = None,
    view: Annotated[
        str,
        typer.Option(
            "--view", help="View for graphml, gexf, vosviewer and csv edges: coauthors, topics, papers."
        ),
    ] = "coauthors",
    bom: Annotated[
        bool, typer.Option("--bom", help="Start CSV files with a UTF-8 byte order mark (Excel).")
    ] = False,
    layout: Annotated[
        bool,
        typer.Option(
            "--layout",
            help="graphml, gexf, vosviewer: add Louvain communities, colours, sizes and positions, as kg viz "
            "draws the view (Gephi, Cytoscape and VOSviewer otherwise cluster and lay it out themselves).",
        ),
    ] = False,
    base: Annotated[
        str | None, typer.Option(help="Base IRI of the built data (default: read from the store).")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
) -> None:
    """Export the graph built in OUT (kg build --out OUT) to a file other tools open.

    Example: kg export graphml --view coauthors --output coauthors.graphml

    Example: kg export vosviewer --view topics --layout   # with kg's clusters and positions
    """
    from kg.exporters import default_target, export, exporter
    from kg.exporters.built import BuiltGraph, ExportOptions, views
    from kg.lock import writing_into

    try:
        exporter(format)
        if view not in views():
            raise UsageError(unknown("view", view, views()), code="unknown-view")
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(2) from e
    target = output or default_target(out, format, view)
    # a terminated export unwinds like an interrupted one, so its temporary file is removed
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        with writing_into(out, target, "kg export"):  # not while a build replaces the folder
            source = BuiltGraph.open(out, base)
            written = export(format, source, target, ExportOptions(view=view, bom=bom, layout=layout))
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(2 if isinstance(e, UsageError) else 1) from e
    finally:
        signal.signal(signal.SIGTERM, previous)
    if not quiet:
        err.print(f"wrote {written}", markup=False)


def _terminated(signum: int, frame: FrameType | None) -> None:
    sys.exit(128 + signum)
