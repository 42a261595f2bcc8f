"""Write ``docs/reference.md`` from the code: ``python -m kg.docs`` (``--check`` says whether it is current).

The reference is what the code itself knows: the help of every command, the readers, extractors,
exporters and figures with their one-line docstrings, the named queries with their parameters, and
the issue codes. ``tests/test_docs.py`` fails when the committed page differs from what this writes.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import typer
from typer.core import TyperCommand, TyperGroup

HELP_WIDTH = 80
"""Columns the help text is wrapped to: fixed, so the page does not depend on the terminal."""


def reference() -> str:
    """The whole reference page, in Markdown."""
    from kg.cli import app
    from kg.exporters import EXPORTERS
    from kg.extractors import EXTRACTORS
    from kg.plots.figures import FIGURES
    from kg.readers import READERS

    parts = [
        "# Reference",
        "",
        "Generated from the code by `python -m kg.docs`; do not edit by hand (`tests/test_docs.py` fails",
        "when this page is stale). The user guide is [guide.md](guide.md).",
        "",
        "- [Commands](#commands)",
        "- [Readers](#readers)",
        "- [Extractors](#extractors)",
        "- [Exporters](#exporters)",
        "- [Figures](#figures)",
        "- [Named queries](#named-queries)",
        "- [Issue codes](#issue-codes)",
        "- [Python API](#python-api)",
        "",
        "## Commands",
        "",
    ]
    top = typer.main.get_command(app)
    assert isinstance(top, TyperGroup)
    for words, text in _helps(top, ["kg"]):
        parts += [f"### `{' '.join(words)}`", "", "```text", text.rstrip(), "```", ""]
    parts += _table("Readers", "The input formats, in the order they are tried (`kg list readers`).", READERS)
    parts += _table("Extractors", "What is extracted from every record (`kg list extractors`).", EXTRACTORS)
    parts += _table("Exporters", "The output formats of `kg export` (`kg list exporters`).", EXPORTERS)
    parts += _table("Figures", "The figures of `kg plot` (`kg list figures`).", FIGURES)
    parts += _queries()
    parts += _issue_codes()
    parts += _python_api()
    return "\n".join(parts).rstrip() + "\n"


def _helps(command: TyperCommand | TyperGroup, words: list[str]) -> Iterator[tuple[list[str], str]]:
    """``kg ... --help`` of ``command`` and of every command under it, in the order ``--help`` lists them."""
    context = typer.Context(
        command, info_name=" ".join(words), terminal_width=HELP_WIDTH, max_content_width=HELP_WIDTH
    )
    yield words, command.get_help(context)
    if isinstance(command, TyperGroup):
        for name in command.list_commands(context):
            sub = command.get_command(context, name)
            if isinstance(sub, TyperCommand | TyperGroup) and not sub.hidden:
                yield from _helps(sub, [*words, name])


def _table(title: str, about: str, table: Mapping[str, object]) -> list[str]:
    """A registry as a table: each entry's name and the first paragraph of its docstring."""
    from kg.cli.listing import plain

    docs = {name: (getattr(entry, "__doc__", None) or "").strip().split("\n\n")[0] for name, entry in table.items()}
    rows = [(f"`{name}`", plain(" ".join(doc.split()))) for name, doc in docs.items()]
    return _section(title, about, ("name", "what it is"), rows)


def _queries() -> list[str]:
    from kg.queries import QUERIES

    about = "The shipped queries of `kg query NAME` (`kg list queries`), each a documented `.rq` file in `kg/queries/`."
    rows = [(f"`{name}`", q.signature if q.params else "-", q.description) for name, q in QUERIES.items()]
    return _section("Named queries", about, ("named query", "parameters", "answers"), rows)


def _issue_codes() -> list[str]:
    from kg.issue_codes import ISSUE_CODES

    about = (
        "Every code kg reports (`kg list issues`): a *warning* skips one record or field and the build goes on; "
        "an *error* makes a file unusable or stops the command (exit 1); a *usage* error stops a command that "
        "was asked for something it cannot do (exit 2)."
    )
    rows = [(f"`{code}`", c.severity, c.meaning) for code, c in ISSUE_CODES.items()]
    return _section("Issue codes", about, ("code", "severity", "meaning"), rows)


def _section(title: str, about: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    """A section of the page: its title, a paragraph, and a table."""
    lines = [f"## {title}", "", about, "", f"| {' | '.join(header)} |", "|" + "---|" * len(header)]
    lines += [f"| {' | '.join(_cell(cell) for cell in row)} |" for row in rows]
    return [*lines, ""]


def _python_api() -> list[str]:
    """``kg.build`` and ``kg.open``: their signatures as written and their docstrings."""
    import kg

    lines = ["## Python API", "", "The functions of the `kg` package (`import kg`).", ""]
    for function in (kg.build, kg.open):
        signature = inspect.signature(function)  # annotations stay text, as written (postponed evaluation)
        params: list[str] = []
        for p in signature.parameters.values():
            if p.kind is p.KEYWORD_ONLY and "*" not in params:
                params.append("*")
            default = "" if p.default is p.empty else f" = {p.default!r}"
            params.append(f"{p.name}: {p.annotation}{default}")
        returns = signature.return_annotation
        doc = inspect.getdoc(function) or ""
        lines += [f"### `kg.{function.__name__}`", "", "```python", f"kg.{function.__name__}({', '.join(params)}) -> {returns}"]
        lines += ["```", "", "```text", doc.replace("  # doctest: +SKIP", ""), "```", ""]
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def main(argv: list[str]) -> int:
    """Write the reference to ``docs/reference.md`` (or the path given); ``--check`` writes nothing and
    exits 1 when the file is stale."""
    check = "--check" in argv
    paths = [a for a in argv if a != "--check"]
    target = Path(paths[0]) if paths else Path(__file__).resolve().parents[1] / "docs" / "reference.md"
    text = reference()
    if check:
        current = target.read_text(encoding="utf-8") if target.exists() else ""
        if current != text:
            print(f"{target} is stale: run python -m kg.docs", file=sys.stderr)
            return 1
        return 0
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
