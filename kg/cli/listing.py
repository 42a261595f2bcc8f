"""``kg list ...``: print the tables of readers, extractors, exporters, views, named queries and issue codes."""

from __future__ import annotations

import re
from collections.abc import Mapping

import typer

from kg.cli.app import list_app


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


@list_app.command("views")
def list_views() -> None:
    """Print the network views kg viz draws (and graph exports take with --view).

    Example: kg list views
    """
    from kg.project import VIEWS

    print_columns({name: plain(view.about) for name, view in VIEWS.items()})


@list_app.command("issues")
def list_issues() -> None:
    """Print every issue code kg reports, with its severity and meaning.

    Example: kg list issues
    """
    from kg.issue_codes import ISSUE_CODES

    print_columns({code: f"{about.severity:<7}  {about.meaning}" for code, about in ISSUE_CODES.items()})


def print_table(table: Mapping[str, object]) -> None:
    """Each entry's name and the first line of its docstring."""
    lines = {name: (getattr(module, "__doc__", None) or "").strip().splitlines() for name, module in table.items()}
    print_columns({name: plain(doc[0]) if doc else "" for name, doc in lines.items()})


def print_columns(rows: Mapping[str, str]) -> None:
    """One line a row: the name, padded to the longest, then the text."""
    width = max(len(name) for name in rows)
    for name, text in rows.items():
        typer.echo(f"{name:<{width}}  {text}")


_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")
_LITERAL = re.compile(r"``([^`]+)``")


def plain(text: str) -> str:
    """A docstring line for a terminal: reStructuredText markup taken off.

    >>> plain("Atom ``<feed>`` documents, see :func:`~kg.readers.atom.read`")
    'Atom <feed> documents, see read'
    """
    text = _ROLE.sub(lambda m: m.group(1).rsplit(".", 1)[-1], text)
    return _LITERAL.sub(r"\1", text)
