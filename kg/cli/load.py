"""``kg load``: push a built graph into a running SPARQL store (Graph Store Protocol), resumably."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app, err, progress_bar
from kg.errors import KgError


def _endpoint(value: str) -> str:
    if not value.startswith(("http://", "https://")):
        raise typer.BadParameter(f"{value!r} is not an http:// or https:// URL")
    return value


def _graph(value: str | None) -> str | None:
    if value is None:
        return None
    import pyoxigraph as ox

    try:
        ox.NamedNode(value)
    except ValueError as e:
        raise typer.BadParameter(f"{value!r} is not an absolute IRI ({e})") from None
    if ":" not in value:
        raise typer.BadParameter(f"{value!r} is not an absolute IRI")
    return value


@app.command()
def load(
    endpoint: Annotated[
        str,
        typer.Option(
            "--endpoint",
            "-e",
            callback=_endpoint,
            help="Graph Store Protocol URL of the store (for 'oxigraph serve': http://HOST:PORT/store).",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="Build folder whose store/ is loaded.")] = Path(
        "outputs"
    ),
    graph: Annotated[
        str | None,
        typer.Option(
            "--graph", "-g", callback=_graph, help="Load into this named graph (default: the default graph)."
        ),
    ] = None,
    batch: Annotated[int, typer.Option("--batch", "-b", min=1, help="Triples per request.")] = 10_000,
    resume: Annotated[
        bool,
        typer.Option("--resume/--no-resume", help="Go on after the last batch a failed run got through."),
    ] = True,
    retries: Annotated[int, typer.Option(min=1, help="Attempts per batch before giving up.")] = 5,
    timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds to wait for the server per request.")
    ] = 60.0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
) -> None:
    """Push a built graph into a running SPARQL store over the Graph Store HTTP Protocol.

    Batches of N-Triples are POSTed (added, never replacing) in a stable order; progress is kept
    in OUT/load-state.json, so rerunning after a failure resumes from the next batch.

    Example: kg load --out outputs --endpoint http://127.0.0.1:7878/store
    """
    from kg.push import STATE_FILE, Batch
    from kg.push import push as run_load
    from kg.store import open_store

    try:
        store = open_store(out)
        with progress_bar(quiet) as bar:
            task = bar.add_task("loading", total=None)

            def progress(done: Batch, total: int) -> None:
                bar.update(task, completed=done.number, total=total, description=f"batch {done.number}")

            report = run_load(
                store,
                endpoint,
                out / STATE_FILE,
                graph=graph,
                batch_size=batch,
                resume=resume,
                retries=retries,
                timeout=timeout,
                progress=progress,
            )
    except KgError as e:
        err.print(f"kg load: {e}", markup=False)
        raise typer.Exit(1) from None
    if quiet:
        return
    if report.note:
        err.print(f"kg load: {report.note}", markup=False)
    if report.sent == 0 and report.batches:
        return  # already loaded: the note says so
    where = f"graph <{graph}>" if graph else "the default graph"
    resumed = f", resumed at batch {report.first}" if report.resumed else ""
    err.print(
        f"kg load: {report.triples_sent} triples in {report.sent} batches to {where} of {endpoint}"
        f"{resumed} in {report.seconds:.2f} s ({report.triples} triples, {report.batches} batches in all)",
        markup=False,
    )
