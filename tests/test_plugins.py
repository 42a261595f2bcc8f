"""Extending kg is one new file plus one registry line: a toy reader, extractor, exporter, view and
named query, each written as a module of its own and put in its table, work end to end; an unknown
name in any table is an error that lists the choices (issue 25)."""

from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from kg import project
from kg.cli import app
from kg.errors import KgError, UsageError
from kg.exporters import EXPORTERS, Exporter, exporter
from kg.extractors import EXTRACTORS, Extractor, check
from kg.queries import QUERIES, parse
from kg.readers import READERS, Reader, rank

runner = CliRunner()

TOY_READER = '''
"""Toy listings: a TOY header, then one paper a line, title|year|authors separated by ;."""
from kg.records import Location, Record, Span

NAME = "toy"
RANK = 3


def sniff(head):
    return head.startswith("TOY\\n")


def read(text, source, log):
    for number, line in text.lines():
        if number == 1 or not line.strip():
            continue
        title, year, authors = line.rstrip("\\n").split("|")
        at = Location(text.name, number)
        yield Record(reader=NAME, source=source, at=at, title=Span(title, at), year=Span(year, at),
                     abstract=Span(f"{title}. We release toy:kg-team/{year} for everyone.", at),
                     authors=tuple(Span(a, at) for a in authors.split(";")))
'''

TOY_EXTRACTOR = '''
"""Repositories written toy:OWNER/NAME."""
import re
from kg.records import Mention

NAME = "toy-links"
KINDS = ("repository",)
PATTERN = re.compile(r"toy:([\\w-]+)/([\\w-]+)")


def extract(record, log):
    if record.abstract is None:
        return
    for m in PATTERN.finditer(record.abstract.text):
        url = f"https://github.com/{m.group(1)}/{m.group(2)}"
        detail = (("name", m.group(2)), ("owner", m.group(1)), ("url", url))
        yield Mention(kind="repository", key=url, text=m.group(0), at=record.abstract.at, extractor=NAME,
                      position=m.start(), detail=detail)
'''

TOY_EXPORTER = '''
"""A count of the statements of the graph."""
from kg.files import write_bytes

NAME = "toy"
SUFFIX = ".count"
VIEW = False


def export(source, target, options=None):
    return write_bytes(target, f"{len(source.store)}\\n".encode())
'''

TOY_VIEW = '''
"""Persons alone, without links."""
import networkx as nx
from kg.project import coauthors


def compute(store, options):
    """Persons without links (a toy view)."""
    whole = coauthors(store)
    alone = nx.Graph(view="toy")
    alone.add_nodes_from(whole.nodes(data=True))
    return alone
'''

TOY_QUERY = """# description: How many papers the graph holds (a toy query).
# example: kg query toy
SELECT (COUNT(?p) AS ?papers) WHERE { ?p a schema:ScholarlyArticle }
"""


def module(tmp_path: Path, name: str, text: str) -> ModuleType:
    """The one new file of a plugin, imported."""
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def test_a_toy_of_each_kind_of_plugin_works_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader: Reader = module(tmp_path, "toy_reader", TOY_READER)
    extractor: Extractor = module(tmp_path, "toy_extractor", TOY_EXTRACTOR)
    toy_exporter: Exporter = module(tmp_path, "toy_exporter", TOY_EXPORTER)
    view = module(tmp_path, "toy_view", TOY_VIEW)
    (tmp_path / "toy.rq").write_text(TOY_QUERY, encoding="utf-8")
    # the one registry line of each
    monkeypatch.setitem(READERS, reader.NAME, reader)
    monkeypatch.setitem(EXTRACTORS, extractor.NAME, extractor)
    monkeypatch.setitem(EXPORTERS, toy_exporter.NAME, toy_exporter)
    monkeypatch.setitem(project.VIEWS, "toy", project.View(view.compute))
    monkeypatch.setitem(QUERIES, "toy", parse(tmp_path / "toy.rq"))

    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "mine.txt").write_text(
        "TOY\nToy graphs for everyone at scale|2024|Ada Lovelace;Alan Turing\n"
        "Another toy paper about graphs|2025|Ada Lovelace\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    done = runner.invoke(app, ["build", str(inputs), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert "2 papers" in done.output and "unknown-format" not in done.output
    assert rank("toy") == 3

    # the reader's papers and the extractor's repositories are in the graph
    done = runner.invoke(
        app,
        [
            "query", "--out", str(out), "--format", "csv",
            "SELECT ?r WHERE { ?p schema:codeRepository ?r } ORDER BY ?r",
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert (
        "https://github.com/kg-team/2024" in done.output and "https://github.com/kg-team/2025" in done.output
    )

    # the exporter
    done = runner.invoke(app, ["export", "toy", "--out", str(out), "--output", str(tmp_path / "g.count")])
    assert done.exit_code == 0, done.output
    assert int((tmp_path / "g.count").read_text()) > 0

    # the view: drawn, listed and exported
    done = runner.invoke(app, ["viz", "toy", "--out", str(out), "--output", str(tmp_path / "toy.html")])
    assert done.exit_code == 0, done.output
    assert "2 nodes, 0 links" in done.output
    assert "toy" in runner.invoke(app, ["list", "views"]).output
    done = runner.invoke(
        app,
        ["export", "graphml", "--view", "toy", "--out", str(out), "--output", str(tmp_path / "t.graphml")],
    )
    assert done.exit_code == 0, done.output
    assert "Ada Lovelace" in (tmp_path / "t.graphml").read_text(encoding="utf-8")

    # the named query
    done = runner.invoke(app, ["query", "toy", "--out", str(out), "--format", "csv"])
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[-1].strip() == "2"


def test_unknown_names_list_the_choices() -> None:
    with pytest.raises(UsageError, match="did you mean links\\? choose from: authors, subjects"):
        check(("link",))
    with pytest.raises(KgError, match="did you mean graphml\\? choose from:"):
        exporter("grapml")
    with pytest.raises(
        KgError, match="did you mean coauthors\\? choose from: coauthors, ego, papers, topics"
    ):
        project.view(project.ox.Store(), "coautors")
    done = runner.invoke(app, ["viz", "topic"])
    assert done.exit_code == 2 and "did you mean topics" in done.output
    done = runner.invoke(app, ["query", "top-author"])
    assert done.exit_code != 0 and "did you mean top-authors? choose from:" in str(done.exception)


def test_every_mention_an_extractor_makes_is_of_a_kind_it_declares() -> None:
    from kg.errors import IssueLog
    from kg.extractors import MENTION_KINDS, extract_all
    from kg.readers import read_file

    seen: dict[str, set[str]] = {}
    for path in sorted((Path(__file__).resolve().parents[1] / "seeds").iterdir()):
        for record in read_file(path, IssueLog(), path.name, "x"):
            for mention in extract_all(record, IssueLog()):
                seen.setdefault(mention.extractor, set()).add(mention.kind)
    assert set(seen) == set(EXTRACTORS), "every extractor finds something in the seeds"
    for name, kinds in seen.items():
        assert kinds <= set(EXTRACTORS[name].KINDS), name
    assert {kind for module in EXTRACTORS.values() for kind in module.KINDS} == MENTION_KINDS


def test_an_extractor_of_a_kind_no_triple_is_made_of_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A mention kind the assembler does not know would vanish from the graph: refused before reading."""
    extractor = module(
        tmp_path, "colour_extractor", TOY_EXTRACTOR.replace('KINDS = ("repository",)', 'KINDS = ("colour",)')
    )
    monkeypatch.setitem(EXTRACTORS, extractor.NAME, extractor)
    done = runner.invoke(
        app, ["build", str(Path(__file__).resolve().parents[1] / "seeds"), "--out", str(tmp_path / "out")]
    )
    assert done.exit_code == 1
    assert "makes mentions of kind 'colour'" in done.output and "[unassembled-kind]" in done.output
    assert not (tmp_path / "out" / "graph.ttl").exists()
