"""``kg list ...``: print the tables of readers, extractors and exporters."""

from __future__ import annotations

from collections.abc import Mapping

import typer

from kg.cli import list_app


@list_app.command("readers")
def list_readers() -> None:
    """Print the input formats kg detects, in the order it tries them.

    Example: kg list readers
    """
    from kg.readers import READERS

    print_table(READERS)


@list_app.command("extractors")
def list_extractors() -> None:
    """Print the extractors run on every record.

    Example: kg list extractors
    """
    from kg.extractors import EXTRACTORS

    print_table(EXTRACTORS)


@list_app.command("exporters")
def list_exporters() -> None:
    """Print the output formats kg writes.

    Example: kg list exporters
    """
    from kg.exporters import EXPORTERS

    print_table(EXPORTERS)


def print_table(table: Mapping[str, object]) -> None:
    width = max(len(name) for name in table)
    for name, module in table.items():
        doc = (getattr(module, "__doc__", None) or "").strip().splitlines()
        typer.echo(f"{name:<{width}}  {doc[0] if doc else ''}")
