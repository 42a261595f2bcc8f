"""The command line: a thin typer skin over the library (``kg --help``)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kg import __version__
from kg.errors import Issue, IssueLog, KgError, UsageError

app = typer.Typer(
    name="kg",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
list_app = typer.Typer(
    help="List the readers, extractors and exporters kg knows.\n\nExample: kg list readers",
    no_args_is_help=True,
)
app.add_typer(list_app, name="list")

err = Console(stderr=True, highlight=False, soft_wrap=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kg {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit.")
    ] = False,
) -> None:
    """Turn scholarly paper listings into a knowledge graph you can query, look at and export.

    Example: kg build seeds/ --out outputs/
    """


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
) -> None:
    """Build the graph from paper listings and write OUT/graph.ttl and OUT/store/.

    Example: kg build seeds/ --out outputs/
    """
    from kg.pipeline import DEFAULT_INPUT, BuildOptions, InputFile, write_outputs
    from kg.pipeline import build as run_build
    from kg.vocab import DATA_BASE

    inputs = paths or [DEFAULT_INPUT]
    log = IssueLog(echo=None if quiet else _print_issue)
    options = BuildOptions(base=base or DATA_BASE)
    show_bar = not quiet and sys.stderr.isatty()
    with Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=not show_bar,
        transient=True,
    ) as bar:
        task = bar.add_task("reading", total=None)

        def progress(item: InputFile) -> None:
            bar.update(task, advance=1, description=f"reading {item.shown}")

        try:
            result = run_build(inputs, options, log, progress)
            bar.update(task, description="writing")
            written = write_outputs(result, out)
        except KgError as e:
            err.print(str(e), markup=False)
            raise typer.Exit(1) from e
    if quiet:
        for issue in log.issues:
            if issue.severity == "error":
                _print_issue(issue)
    else:
        s = result.summary()
        err.print(
            f"kg build: {s['files']} files ({s['files_failed']} failed), {s['records']} records, "
            f"{s['papers']} papers, {s['persons']} persons, {s['coauthor_pairs']} coauthor pairs, "
            f"{s['triples']} triples in {result.seconds:.2f} s",
            markup=False,
        )
        counts = log.counts()
        if counts:
            err.print("issues: " + ", ".join(f"{code} {n}" for code, n in counts.items()), markup=False)
        else:
            err.print("issues: none", markup=False)
        err.print("wrote " + ", ".join(str(p) for p in written), markup=False)
    if log.has_errors or (strict and log.issues):
        raise typer.Exit(1)


@list_app.command("readers")
def list_readers() -> None:
    """Print the input formats kg detects, in the order it tries them.

    Example: kg list readers
    """
    from kg.readers import READERS

    _print_table(READERS)


@list_app.command("extractors")
def list_extractors() -> None:
    """Print the extractors run on every record.

    Example: kg list extractors
    """
    from kg.extractors import EXTRACTORS

    _print_table(EXTRACTORS)


@list_app.command("exporters")
def list_exporters() -> None:
    """Print the output formats kg writes.

    Example: kg list exporters
    """
    from kg.exporters import EXPORTERS

    _print_table(EXPORTERS)


def _print_table(table: Mapping[str, object]) -> None:
    width = max(len(name) for name in table)
    for name, module in table.items():
        doc = (getattr(module, "__doc__", None) or "").strip().splitlines()
        typer.echo(f"{name:<{width}}  {doc[0] if doc else ''}")


def _print_issue(issue: Issue) -> None:
    err.print(str(issue), markup=False)


def main() -> None:
    """Entry point of the ``kg`` console script."""
    try:
        app()
    except UsageError as e:
        err.print(str(e), markup=False)
        raise SystemExit(2) from e


if __name__ == "__main__":
    main()
