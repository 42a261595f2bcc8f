"""``kg list ...``: print the tables of readers, extractors, exporters and named queries."""

from __future__ import annotations

import re
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
        typer.echo(f"{name:<{width}}  {plain(doc[0]) if doc else ''}")


_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def plain(text: str) -> str:
    """A docstring line for a terminal: reStructuredText markup taken off.

    >>> plain("Atom ``<feed>`` documents, see :func:`~kg.readers.atom.read`")
    'Atom <feed> documents, see read'
    """
    text = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], text)
    return _LITERAL.sub(r"\1", text)
