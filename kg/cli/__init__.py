"""The command line: a thin typer skin over the library (``kg --help``).

One module per command (``kg/cli/<command>.py``); each registers itself on ``kg.cli.app.app`` (or
``list_app``) when imported here.
"""

from __future__ import annotations

# the command modules: each registers its commands on import
from kg.cli import build as _build
from kg.cli import export as _export
from kg.cli import listing as _listing
from kg.cli import load as _load
from kg.cli import plot as _plot
from kg.cli import query as _query
from kg.cli import serve as _serve
from kg.cli import site as _site
from kg.cli import viz as _viz
from kg.cli.app import app, err, list_app, print_issue, progress_bar
from kg.errors import UsageError

__all__ = ["app", "err", "list_app", "main", "print_issue", "progress_bar"]

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
