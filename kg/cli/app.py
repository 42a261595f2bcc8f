"""The ``kg`` application the commands register on (``app``, ``list_app``), its global options, and
the console and progress bar they print with."""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kg import __version__
from kg.errors import Issue

app = typer.Typer(
    name="kg",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
list_app = typer.Typer(
    help="List the readers (input formats), extractors, exporters (output formats), figures (kg plot), "
    "views (kg viz), named queries and issue codes kg knows.\n\nExample: kg list readers; kg list issues",
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


def progress_bar(quiet: bool) -> Progress:
    """The progress bar of long commands: on stderr, only on a terminal and never with ``-q``."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        disable=quiet or not sys.stderr.isatty(),
        transient=True,
    )


def print_issue(issue: Issue) -> None:
    err.print(str(issue), markup=False)
