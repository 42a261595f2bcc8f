"""``kg build``: read inputs, build the graph, write the outputs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app, err, print_issue, progress_bar
from kg.errors import IssueLog, KgError, UsageError


@app.command()
def build(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="Input files or folders (default: seeds/).", show_default=False),
    ] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("outputs"),
    base: Annotated[str | None, typer.Option(help="Base IRI of built data.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 on warnings too.")] = False,
    workers: Annotated[
        int, typer.Option("--workers", "-j", help="Extraction processes (0: one per core).", min=0)
    ] = 0,
    scheduler: Annotated[
        str | None,
        typer.Option(
            help="Run extraction on a Dask cluster at this address (tcp://HOST:PORT; needs kg[dask])."
        ),
    ] = None,
    shards: Annotated[
        Path | None,
        typer.Option(
            "--shards", metavar="DIR", help="Also write the graph as sorted gzip N-Quads shards into DIR."
        ),
    ] = None,
    full: Annotated[
        bool, typer.Option("--full", help="Read every file again instead of reusing OUT's cache.")
    ] = False,
    thesaurus: Annotated[
        Path | None,
        typer.Option(
            "--thesaurus",
            metavar="FILE",
            exists=True,
            dir_okay=False,
            help="A VOSviewer thesaurus (label<TAB>replace by) that merges, renames or drops methods and "
            "persons; an empty replacement drops the term (see docs/thesaurus.md).",
        ),
    ] = None,
) -> None:
    """Build the graph from paper listings and write OUT/graph.ttl and OUT/store/.

    Example: kg build seeds/ --out outputs/

    Example: kg build seeds/ --thesaurus thesaurus.txt
    """
    from kg.build_folder import build_into
    from kg.executors import Step
    from kg.pipeline import DEFAULT_INPUT, BuildOptions
    from kg.vocab import DATA_BASE

    inputs = paths or [DEFAULT_INPUT]
    log = IssueLog(echo=None if quiet else print_issue)
    options = BuildOptions(
        base=base or DATA_BASE,
        full=full,
        workers=workers or (os.cpu_count() or 1),
        scheduler=scheduler,
        thesaurus=thesaurus,
    )
    with progress_bar(quiet) as bar:
        task = bar.add_task("identifying", total=None)

        def progress(step: Step) -> None:
            where = f" {step.file.shown}" if step.file is not None else ""
            bar.update(task, completed=step.done, total=step.total, description=step.stage + where)

        try:
            result, written = build_into(inputs, out, options, log, progress, shards)
        except UsageError as e:  # a typo: nothing was read or written
            err.print(str(e), markup=False)
            raise typer.Exit(2) from e
        except KgError as e:
            for issue in log.issues if quiet else ():  # -q: the errors that led here, then why it stopped
                if issue.severity == "error":
                    print_issue(issue)
            err.print(str(e), markup=False)
            raise typer.Exit(1) from e
    if quiet:
        for issue in log.issues:
            if issue.severity == "error":
                print_issue(issue)
    else:
        s = result.summary()
        err.print(
            f"kg build: {s['files']} files ({s['files_failed']} failed), {s['records']} records, "
            f"{s['papers']} papers, {s['persons']} persons, {s['coauthor_pairs']} coauthor pairs, "
            f"{s['triples']} triples in {result.seconds:.2f} s",
            markup=False,
        )
        err.print(
            f"files read {s['files_read']}, reused from the cache {s['files_reused']}; changes: {result.changes}",
            markup=False,
        )
        if result.delta is not None:
            d = result.delta
            err.print(
                f"delta build: {d['papers_removed']} papers taken out, {d['papers_made']} made, "
                f"{d['triples_deleted']} triples deleted, {d['triples_inserted']} inserted",
                markup=False,
            )
        elif result.full_because and result.full_because != "no previous build":
            err.print(f"full build: {result.full_because}", markup=False)
        if result.lazy:
            err.print(
                f"not rewritten (a delta build of a big graph): {', '.join(result.lazy)}; "
                "'kg export' and 'kg viz' make them from the store, 'kg build --full' writes them",
                markup=False,
            )
        counts = log.counts()
        if counts:
            err.print("issues: " + ", ".join(f"{code} {n}" for code, n in counts.items()), markup=False)
        else:
            err.print("issues: none", markup=False)
        err.print("wrote " + (", ".join(str(p) for p in written) or "nothing (nothing changed)"), markup=False)
    if log.has_errors or (strict and log.issues):
        raise typer.Exit(1)
