"""The command line: a thin typer skin over the library (``kg --help``).

One module per command (``kg/cli/<command>.py``); each registers itself on
``app`` (or ``list_app``) when imported at the bottom of this module.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from kg import __version__
from kg.errors import Issue, UsageError

app = typer.Typer(
    name="kg",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)
list_app = typer.Typer(
    help="List the readers (input formats), extractors, exporters (output formats), figures (kg plot), "
    "named queries and issue codes kg knows.\n\nExample: kg list readers; kg list issues",
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


# one import per command module: each registers its commands on import
from kg.cli import build as _build  # noqa: E402
from kg.cli import export as _export  # noqa: E402
from kg.cli import listing as _listing  # noqa: E402
from kg.cli import load as _load  # noqa: E402
from kg.cli import plot as _plot  # noqa: E402
from kg.cli import query as _query  # noqa: E402
from kg.cli import serve as _serve  # noqa: E402
from kg.cli import site as _site  # noqa: E402
from kg.cli import viz as _viz  # noqa: E402

COMMAND_MODULES = (_build, _listing, _export, _query, _serve, _viz, _load, _plot, _site)


def main() -> None:
    """Entry point of the ``kg`` console script."""
    try:
        app()
    except UsageError as e:
        err.print(str(e), markup=False)
        raise SystemExit(2) from e


if __name__ == "__main__":
    main()
