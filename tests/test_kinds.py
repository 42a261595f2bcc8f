"""A kind of fact has one home (issue 31): a toy kind -- an extractor, its :class:`kg.kinds.Kind` and a
named query, three new files plus a line in the extractors' table and one in the kinds' table -- goes
end to end through a full build, deltas that add and take papers out, the site and a named query,
and every delta equals a full build of the same inputs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kg.delta
from kg import store as stores
from kg.build_folder import build_into
from kg.cli import app
from kg.errors import IssueLog
from kg.extractors import EXTRACTORS
from kg.kinds import Listing
from kg.kinds.table import KINDS, listings
from kg.pipeline import BuildOptions
from kg.queries import QUERIES, parse
from tests.test_plugins import module

runner = CliRunner()

# --- the three new files of the toy kind -----------------------------------------------------------

COLOUR_EXTRACTOR = '''
"""Colours named in a title."""
import re
from kg.records import Mention

NAME = "colours"
KINDS = ("colour",)
COLOURS = re.compile(r"\\b(red|green|blue)\\b", re.IGNORECASE)


def extract(record, log):
    if record.title is None:
        return
    for m in COLOURS.finditer(record.title.text):
        yield Mention("colour", m.group(1).lower(), m.group(0), record.title.at, NAME, m.start())
'''

COLOUR_KIND = '''
"""Colours: ``paper schema:color <base>colour/KEY``, a concept named by its least spelling, with papers per year."""
import pyoxigraph as ox
from kg.kinds import (Kind, Listing, count_sums, count_triples, evidence_triples, first_each,
                      mention_rows, mentions_of)
from kg.terms import string
from kg.vocab import RDF, SKOS

COLOR = ox.NamedNode("https://schema.org/color")


class Colours(Kind):
    name = "colour"
    listing = Listing("colour", "colours", ("schema:color",))

    def paper_triples(self, paper, at):
        for m in first_each(mentions_of(paper, self.name)):
            node = at.namer.entity("colour", m.key)
            yield ox.Quad(at.node, COLOR, node)
            yield from evidence_triples(at, node, at.namer.evidence(at.key, "colour-" + m.key), m)

    def keep(self, paper):
        return mention_rows(mentions_of(paper, self.name))

    def sums(self, kept, year, dropped):
        if not dropped:
            yield from count_sums("colour", (row[0] for row in kept), year)

    def described(self, kept):
        return ((self.name, row[0]) for row in kept)

    def describe(self, kept, shared, only):
        for key, text, _ in kept:
            if only is None or (self.name, key) in only:
                seen = shared.described.get((self.name, key))
                shared.described[self.name, key] = min(seen, text) if seen else text

    def holders(self, namer, key):
        yield COLOR, namer.entity("colour", key)

    def shared_triples(self, shared, namer):
        for (kind, key), label in sorted(shared.described.items()):
            if kind == self.name:
                node = namer.entity("colour", key)
                yield ox.Quad(node, RDF.type, SKOS.Concept)
                yield ox.Quad(node, SKOS.prefLabel, string(label))
        yield from count_triples(shared, "colour", lambda key: namer.entity("colour", key), namer)
'''

COLOUR_QUERY = """# description: Papers of a colour (a toy query of the toy kind).
# param colour: a colour's label (required)
# example: kg query colour-papers --param colour=red
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX schema: <https://schema.org/>
PREFIX skos: <http://www.w3.org/2004/02/skos/core#>
SELECT ?title WHERE {
  ?c skos:prefLabel ?label . FILTER(LCASE(STR(?label)) = LCASE(?colour))
  ?p schema:color ?c ; dcterms:title ?title .
} ORDER BY ?title
"""


def paper(number: int, title: str, year: int = 2024) -> dict[str, Any]:
    return {
        "id": f"2502.{number:05d}",
        "authors": ["Ann Lee", f"Author {number}"],
        "title": title,
        "categories": ["cs.CV"],
        "update_date": f"{year}-01-02",
        "versions": [{"version": "v1", "created": f"Mon, 1 Jan {year} 00:00:00 GMT"}],
        "summary": f"We study colour {number} in images and report results on many benchmarks with care.",
    }


def write(path: Path, papers: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(p) + "\n" for p in papers), encoding="utf-8")


def triples(out: Path) -> set[str]:
    return {str(q) for q in stores.open_store(out).quads_for_pattern(None, None, None, None)}


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The toy kind, as three new files in ``toy/``, each put in its table."""
    folder = tmp_path / "toy"
    folder.mkdir()
    extractor = module(folder, "colours_extractor", COLOUR_EXTRACTOR)
    kind = module(folder, "colours_kind", COLOUR_KIND)
    (folder / "colour-papers.rq").write_text(COLOUR_QUERY, encoding="utf-8")
    monkeypatch.setitem(EXTRACTORS, extractor.NAME, extractor)  # the extractors' table: one line
    monkeypatch.setitem(KINDS, "colour", kind.Colours())  # the kinds' table: one line
    monkeypatch.setitem(QUERIES, "colour-papers", parse(folder / "colour-papers.rq"))
    monkeypatch.setattr(kg.delta, "MOST", 1.0)
    return folder


def build(inputs: Path, out: Path, full: bool = False) -> Any:
    result, _ = build_into([inputs], out, BuildOptions(workers=1, full=full), IssueLog())
    return result


def test_a_toy_kind_goes_end_to_end_through_full_and_delta_builds(toy: Path, tmp_path: Path) -> None:
    # what the toy kind is: three new files (and a line in each of two tables)
    assert sorted(p.name for p in toy.iterdir() if p.suffix in (".py", ".rq")) == [
        "colour-papers.rq",
        "colours_extractor.py",
        "colours_kind.py",
    ]
    assert listings()["colour"] == Listing("colour", "colours", ("schema:color",))
    inputs, out = tmp_path / "in", tmp_path / "out"
    inputs.mkdir()
    write(inputs / "a.jsonl", [paper(1, "Red cars at night"), paper(2, "Blue skies and RED roofs")])
    first = build(inputs, out)
    assert first.delta is None
    red = "<https://w3id.org/kg/id/colour/red>"
    got = triples(out)
    assert sum(1 for t in got if t.endswith(f"<https://schema.org/color> {red}")) == 2
    assert f'{red} <http://www.w3.org/2004/02/skos/core#prefLabel> "RED"' in got  # the least spelling
    assert any(t.startswith("<https://w3id.org/kg/id/counts/colour/red/2024>") and '"2"' in t for t in got)

    # deltas: a paper added, a file changed, a file removed; each equals a full build
    steps = [
        lambda: write(inputs / "b.jsonl", [paper(3, "Green fields, red barns", 2025)]),
        lambda: write(inputs / "a.jsonl", [paper(1, "Red cars at night"), paper(2, "Grey skies")]),
        lambda: (inputs / "a.jsonl").unlink(),
    ]
    for step in steps:
        step()
        result = build(inputs, out)
        assert result.delta is not None, result.full_because
        full_out = tmp_path / "full"
        shutil.rmtree(full_out, ignore_errors=True)
        build(inputs, full_out, full=True)
        assert triples(out) == triples(full_out)
        assert (out / "graph.ttl").read_bytes() == (full_out / "graph.ttl").read_bytes()
    assert (
        '<https://w3id.org/kg/id/colour/blue> <http://www.w3.org/2004/02/skos/core#prefLabel> "Blue"'
        not in (triples(out))
    )

    # the site lists the kind's entities, each with a page of its papers
    site = tmp_path / "site"
    done = runner.invoke(app, ["site", "--out", str(out), "--output", str(site)])
    assert done.exit_code == 0, done.output
    assert "red" in (site / "colours.html").read_text(encoding="utf-8").lower()
    assert "Green fields, red barns" in (site / "colour" / "red.html").read_text(encoding="utf-8")

    # and its named query answers
    done = runner.invoke(
        app, ["query", "colour-papers", "--out", str(out), "-p", "colour=red", "--format", "csv"]
    )
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[1:] == ['"Green fields, red barns"']  # CSV quotes the comma
