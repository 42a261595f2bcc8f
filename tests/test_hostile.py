"""The hostile corpus (``tests/hostile/make.py``) builds: nothing crashes, nothing leaks, nothing is lost.

Built once through the command line (``kg build`` then ``kg export`` to every RDF and
graph format) and once through :func:`kg.pipeline.build`; the tests then check the
issues, the graph, the SHACL shapes and every serialized output.
"""

from __future__ import annotations

import csv
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pyoxigraph as ox
import pyshacl
import pytest
import rdflib
from rdflib.namespace import DCTERMS, FOAF, SH
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import IssueLog
from kg.extractors import authors as author_extractor
from kg.pipeline import Build, BuildOptions, build
from kg.readers import read_file
from kg.readers.atom import _PROLOG_ITEM
from kg.readers.pages import MAX_AUTHORS
from kg.vocab import KG, ontology_path
from tests.conftest import to_rdflib
from tests.hostile.make import EVIL, HOSTILE, Corpus, make, write_many_authors

ISSUE = re.compile(r"^(?P<path>.+):(?P<line>\d+): (?P<severity>error|warning): .+ \[(?P<code>[a-z0-9-]+)\]$")
SUMMARY = ("kg build: ", "files read ", "issues: ", "wrote ")
EXPORTS = {
    "ntriples": "graph.nt",
    "jsonld": "graph.jsonld",
    "graphml": "coauthors.graphml",
    "gexf": "coauthors.gexf",
    "csv": "csv",
}
runner = CliRunner()


@dataclass
class Run:
    corpus: Corpus
    out: Path
    output: str
    exit_code: int
    exception: BaseException | None
    exports: dict[str, tuple[int, str]]
    connects: list[object]


def _no_network(monkeypatch: pytest.MonkeyPatch, attempts: list[object]) -> None:
    """Any connection attempt is recorded and refused (nothing may be fetched)."""

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args[1:] if len(args) > 1 else args)
        raise OSError("network refused by the hostile-corpus test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return make(tmp_path_factory.mktemp("hostile") / "corpus")


@pytest.fixture(scope="module")
def cli(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    """``kg build`` of the corpus, then ``kg export`` to every format."""
    out = tmp_path_factory.mktemp("hostile-out")
    attempts: list[object] = []
    with pytest.MonkeyPatch.context() as monkeypatch:
        _no_network(monkeypatch, attempts)
        result = runner.invoke(app, ["build", str(corpus.root), "--out", str(out), "-j", "1"])
        exports = {}
        for name in EXPORTS:
            done = runner.invoke(app, ["export", name, "--out", str(out)])
            assert done.exception is None or isinstance(done.exception, SystemExit), done.output
            exports[name] = (done.exit_code, done.output)
    yield Run(corpus, out, result.output, result.exit_code, result.exception, exports, attempts)


@pytest.fixture(scope="module")
def built(corpus: Corpus) -> tuple[Build, IssueLog, list[object]]:
    """:func:`kg.pipeline.build` of the corpus (no exception may escape it)."""
    attempts: list[object] = []
    log = IssueLog()
    with pytest.MonkeyPatch.context() as monkeypatch:
        _no_network(monkeypatch, attempts)
        result = build([corpus.root], BuildOptions(), log)
    return result, log, attempts


@pytest.fixture(scope="module")
def graph(built: tuple[Build, IssueLog, list[object]]) -> rdflib.Graph:
    return to_rdflib(built[0])


def _relative(corpus: Corpus, shown: str) -> str:
    """A shown path relative to the corpus (shown paths are resolved; a link loop cannot be resolved)."""
    return Path(os.path.relpath(shown, corpus.root.resolve())).as_posix()


# ---------------------------------------------------------------- the command line


def test_cli_never_shows_a_traceback(cli: Run) -> None:
    assert cli.exception is None or isinstance(cli.exception, SystemExit), cli.output
    assert "Traceback" not in cli.output
    for code, output in cli.exports.values():
        assert code == 0, output
        assert "Traceback" not in output


def test_cli_exit_code_is_one_when_a_file_failed(cli: Run) -> None:
    assert cli.corpus.failing
    assert cli.exit_code == 1


def test_every_cli_line_is_an_issue_or_the_summary(cli: Run) -> None:
    for line in cli.output.splitlines():
        if not line.startswith(SUMMARY):
            assert ISSUE.match(line), f"not an issue line: {line!r}"


def test_cli_names_every_failing_file(cli: Run) -> None:
    found: dict[str, set[tuple[str, str]]] = {}
    for line in cli.output.splitlines():
        m = ISSUE.match(line)
        if m:
            found.setdefault(_relative(cli.corpus, m["path"]), set()).add((m["severity"], m["code"]))
    for name in cli.corpus.failing:
        assert any(sev == "error" for sev, _ in found.get(name, set())), (name, sorted(found))
    for name, codes in cli.corpus.warned.items():
        assert codes <= {code for _, code in found.get(name, set())}, (name, found.get(name))


def test_nothing_was_fetched(cli: Run, built: tuple[Build, IssueLog, list[object]]) -> None:
    assert cli.connects == []
    assert built[2] == []
    text = (cli.out / "graph.ttl").read_text(encoding="utf-8")
    assert "root:x:0:0" not in text and "lollol" not in text


# ---------------------------------------------------------------- the graph


def test_pipeline_issues_are_one_line_each(built: tuple[Build, IssueLog, list[object]]) -> None:
    _, log, _ = built
    assert log.has_errors
    for issue in log.issues:
        assert ISSUE.match(str(issue)), str(issue)


def test_every_good_record_is_in_the_graph(corpus: Corpus, graph: rdflib.Graph) -> None:
    titles = {str(o) for o in graph.objects(None, DCTERMS.title)}
    abstracts = {str(o) for o in graph.objects(None, DCTERMS.abstract)}
    assert corpus.titles - titles == set()
    assert corpus.abstracts - abstracts == set()


def test_hostile_names_come_back_exactly(corpus: Corpus, graph: rdflib.Graph) -> None:
    names = {str(o) for o in graph.objects(None, FOAF.name)}
    assert corpus.names - names == set()
    # every hostile kind reached the graph through every format that has names
    for key in HOSTILE:
        assert any(key == "nul" or n.startswith(HOSTILE[key][:3]) for n in names)


def test_graph_passes_the_shapes(graph: rdflib.Graph) -> None:
    shapes = rdflib.Graph().parse(ontology_path("shapes.ttl"))
    _, report, text = pyshacl.validate(graph, shacl_graph=shapes, advanced=True)
    assert isinstance(report, rdflib.Graph)
    focus = {str(o) for o in report.objects(None, SH.focusNode)}
    # a JSON line with an arXiv id but neither title nor abstract (wrong-types.jsonl:11) is a paper
    # known by its identifier, which the shapes accept
    assert focus == set(), text


def _no_injection(g: rdflib.Graph) -> None:
    for s, p, o in g:
        for term in (s, p, o):
            assert not (isinstance(term, rdflib.URIRef) and str(term).startswith(EVIL)), (s, p, o)


def test_no_injected_triple(graph: rdflib.Graph) -> None:
    _no_injection(graph)


# ---------------------------------------------------------------- every serialized output


def test_outputs_parse_to_the_same_graph_without_injection(cli: Run) -> None:
    ttl = rdflib.Graph().parse(cli.out / "graph.ttl", format="turtle")
    nt = rdflib.Graph().parse(cli.out / "export" / "graph.nt", format="nt")
    jsonld = rdflib.Graph().parse(cli.out / "export" / "graph.jsonld", format="json-ld")
    for g in (ttl, nt, jsonld):
        _no_injection(g)
        assert cli.corpus.names <= {str(o) for o in g.objects(None, FOAF.name)}
        assert cli.corpus.titles <= {str(o) for o in g.objects(None, DCTERMS.title)}
    assert len(ttl) == len(nt) == len(jsonld)


def test_graph_views_keep_names_as_labels(cli: Run) -> None:
    for name in ("graphml", "gexf"):
        path = cli.out / "export" / EXPORTS[name]
        view = nx.read_graphml(path) if name == "graphml" else nx.read_gexf(path)
        labels = {str(data.get("label", "")) for _, data in view.nodes(data=True)}
        assert cli.corpus.names <= labels, (name, cli.corpus.names - labels)


def test_csv_keeps_titles_and_names(cli: Run) -> None:
    folder = cli.out / "export" / "csv"
    with (folder / "papers.csv").open(encoding="utf-8", newline="") as f:
        papers = list(csv.DictReader(f))
    with (folder / "persons.csv").open(encoding="utf-8", newline="") as f:
        persons = list(csv.DictReader(f))
    assert cli.corpus.titles <= {row["title"] for row in papers}
    assert cli.corpus.names <= {row["name"] for row in persons}


def test_html_pages_hold_no_script_from_data(cli: Run) -> None:
    for page in ("coauthors.html", "topics.html"):
        html = (cli.out / page).read_text(encoding="utf-8")
        assert "<script>alert" not in html
        assert "<img src=x" not in html
        assert "<b>Bold</b>" not in html
    # the names are on the page, as escaped JSON
    html = (cli.out / "coauthors.html").read_text(encoding="utf-8")
    assert "\\u003cscript\\u003ealert('kg')\\u003c/script\\u003e atom" in html


# ---------------------------------------------------------------- 10,000 authors


def test_ten_thousand_authors_are_capped(tmp_path: Path) -> None:
    """Read and extract only: the build's coauthor pairs of 5,000 authors take minutes (see below)."""
    path = write_many_authors(Corpus(tmp_path))
    log = IssueLog()
    [record] = list(read_file(path, log))
    assert len(record.authors) == MAX_AUTHORS
    assert [i.code for i in log.issues] == ["too-many-authors"]
    mentions = list(author_extractor.extract(record, log))
    assert [m.position for m in mentions] == list(range(1, MAX_AUTHORS + 1))


def test_ten_thousand_authors_build(tmp_path: Path) -> None:
    """The kept 5,000 authors are all authors of the paper, but not 12.5 million coauthor pairs."""
    path = write_many_authors(Corpus(tmp_path))
    log = IssueLog()
    result = build([path], BuildOptions(taxonomies=False), log)
    summary = result.summary()
    assert summary["persons"] == MAX_AUTHORS
    assert summary["coauthor_pairs"] == 0
    assert "many-authors" in {i.code for i in log.issues}
    assert summary["papers"] == 1
    authorships = result.store.query(
        "SELECT (COUNT(*) AS ?n) WHERE { ?p <https://w3id.org/kg/ns#authorship> ?a }"
    )
    assert isinstance(authorships, ox.QuerySolutions)
    assert int(next(iter(authorships))[0].value) == MAX_AUTHORS  # type: ignore[union-attr]
    creators = result.store.query(
        "SELECT (COUNT(*) AS ?n) WHERE { ?p <http://purl.org/dc/terms/creator> ?a }"
    )
    assert isinstance(creators, ox.QuerySolutions)
    assert int(next(iter(creators))[0].value) == MAX_AUTHORS  # type: ignore[union-attr]
    assert not list(result.store.quads_for_pattern(None, KG.coauthor, None))


# ---------------------------------------------------------------- regressions of bugs found here


def test_fifo_in_a_folder_is_reported_not_read(tmp_path: Path) -> None:
    """A FIFO in a folder once blocked the build forever (it was opened to be hashed)."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this system")
    (tmp_path / "page.txt").write_text("Daily Papers\n\nAn abstract.\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.txt")
    log = IssueLog()
    result = build([tmp_path], BuildOptions(taxonomies=False), log)
    assert result.summary()["papers"] == 1
    assert [(i.at.path.rsplit("/", 1)[-1], i.severity, i.code) for i in log.issues] == [
        ("pipe.txt", "error", "not-a-file")
    ]


def test_link_to_itself_in_a_folder_is_a_symlink_loop(tmp_path: Path) -> None:
    """A link to itself once crashed the build (pathlib's resolve raises RuntimeError on it)."""
    os.symlink("me.txt", tmp_path / "me.txt")
    os.symlink("gone.txt", tmp_path / "dangling.txt")
    log = IssueLog()
    build([tmp_path], BuildOptions(taxonomies=False), log)
    shown = {(i.at.path.rsplit("/", 1)[-1], i.code) for i in log.issues}
    assert shown == {("me.txt", "symlink-loop"), ("dangling.txt", "unreadable-file")}
    log = IssueLog()
    build([tmp_path / "me.txt"], BuildOptions(taxonomies=False), log)
    assert [(i.code, i.message) for i in log.issues] == [
        ("missing-input", "link leads nowhere (dangling or a loop)")
    ]


def test_long_prolog_of_short_lines_reads_in_linear_time(tmp_path: Path) -> None:
    """200,000 lines of an unclosed comment before the root took time quadratic in their number."""
    path = tmp_path / "feed.xml"
    path.write_text(
        f'<?xml version="1.0"?>\n<!-- {EVIL} http://www.w3.org/2005/Atom <feed\n' + "-\n" * 200_000
    )
    log = IssueLog()
    started = time.perf_counter()
    assert list(read_file(path, log)) == []
    assert time.perf_counter() - started < 20  # was about 70 s for 40,000 lines
    assert {i.code for i in log.issues} == {"bad-xml", "no-records"}


def test_doctype_brackets_do_not_backtrack() -> None:
    """``<!DOCTYPE x [][][]...`` without its ``>`` once took time exponential in its length."""
    started = time.perf_counter()
    assert _PROLOG_ITEM.match("<!DOCTYPE feed " + "[]" * 10_000) is None
    assert _PROLOG_ITEM.match('<!DOCTYPE feed [<!ENTITY a "b>">]>') is not None
    assert time.perf_counter() - started < 5  # 40 pairs once took hours


def test_json_kinds_are_named_in_json_words(tmp_path: Path) -> None:
    path = tmp_path / "meta.jsonl"
    path.write_text('{"id": "2401.00001", "title": "T"}\nnull\n"text"\n', encoding="utf-8")
    log = IssueLog()
    assert len(list(read_file(path, log))) == 1
    messages = [i.message for i in log.issues if i.code == "bad-record"]
    assert messages == [
        "line is a JSON null (expected an object)",
        "line is a JSON string (expected an object)",
    ]


def test_fields_cut_off_by_an_extra_brace_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_text(
        "@article{a,\n  title = {Closed}} early},\n  author = {Hopper, Grace},\n}\n", encoding="utf-8"
    )
    log = IssueLog()
    [record] = list(read_file(path, log))
    assert record.title is not None and record.title.text == "Closed"
    assert [(i.at.line, i.code) for i in log.issues if i.code == "bad-bibtex-entry"] == [
        (3, "bad-bibtex-entry")
    ]


def test_manifest_of_the_hostile_build_is_json(cli: Run) -> None:
    manifest = json.loads((cli.out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest


def test_a_long_author_line_is_read_as_authors(tmp_path: Path) -> None:
    """A listing's author line over 600 characters (40 authors) was once glued to the abstract."""
    names = [f"A. B. Person{i:02d}" for i in range(40)]
    path = tmp_path / "listing.txt"
    path.write_text(
        f"论文检索\n\nDeep Learning · Everything Else\n\n{', '.join(names)}\n\nWe study big teams. It works.\n",
        encoding="utf-8",
    )
    log = IssueLog()
    [record] = list(read_file(path, log))
    assert [a.text for a in record.authors] == names
    assert record.abstract is not None and record.abstract.text == "We study big teams. It works."
    assert log.issues == []
