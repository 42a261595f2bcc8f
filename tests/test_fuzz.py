"""Fuzzing: every reader and every extractor, fed mutated valid samples and arbitrary Unicode.

Properties: nothing raises; every issue is one ``path:line: severity: message [code]``
line; a record of the input is either read or named in an issue.  The number of
examples per target is ``KG_FUZZ_EXAMPLES`` (default 200); ``python benchmarks/fuzz.py
--iterations N`` runs the same targets longer and prints what it found.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import IssueLog
from kg.extractors import EXTRACTORS
from kg.readers import READERS, read_file
from kg.readers.listing import is_area
from kg.readers.pages import MAX_ABSTRACT, MAX_AUTHORS, MAX_NAME, MAX_TITLE
from kg.readers.text import clean
from kg.records import Location, Record, SourceFile, Span

EXAMPLES = int(os.environ.get("KG_FUZZ_EXAMPLES", "200"))
"""Examples per fuzz target (``KG_FUZZ_EXAMPLES``)."""

ISSUE = re.compile(r"^.+:\d+: (error|warning): .+ \[[a-z0-9-]+\]$")

SAMPLES: dict[str, str] = {
    "profile": (
        "arXiv subjects\n\nAda Lovelace\n\nPublications and source records attributed to Ada Lovelace.\n\n"
        "At least 3 records\n\narXiv2024\n\nA first title\n\nA first abstract about learning.\n\ncs.LG↗\n\n"
        "arXiv2023\n\nA second title\n\nA second abstract, with https://github.com/a/b code.\n\n"
        "math.OC↗ stat.ML↗\n\narXiv2022\n\nA third title\n\nA third abstract.\n\ncs.CL↗"
    ),
    "listing": (
        "论文检索\n\nDeep Learning · Everything Else\n\nAda Lovelace, Alan Turing\n\n"
        "We study attention in transformers.\n\nTheory · Learning Theory\n\nGrace Hopper and Alan Turing\n\n"
        "A bound on the sample complexity of PAC learning.\n\nOptimization · Stochastic\n\nZoë Müller\n\n"
        "Adam with warm restarts, code at github.com/x/y."
    ),
    "daily": (
        "Daily Papers\n\nWe propose LoRA adapters for continual learning.\n\n"
        "A diffusion model for proteins, code: https://github.com/p/q.\n\nA third abstract about graphs."
    ),
    "arxiv-atom": (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
        "<entry>\n<id>http://arxiv.org/abs/2401.00001v1</id>\n<published>2024-01-02T00:00:00Z</published>\n"
        "<title>First &amp; title</title>\n<summary>An abstract.</summary>\n"
        "<author><name>Ada Lovelace</name><arxiv:affiliation>X</arxiv:affiliation></author>\n"
        '<arxiv:primary_category term="cs.LG"/><category term="cs.LG"/>\n</entry>\n'
        "<entry>\n<id>http://arxiv.org/abs/2401.00002v2</id>\n<title>Second title</title>\n"
        "<summary>Another abstract.</summary>\n<author><name>Alan Turing</name></author>\n"
        "<arxiv:doi>10.1234/x.1</arxiv:doi>\n</entry>\n"
        "<entry>\n<id>http://arxiv.org/abs/2401.00003v1</id>\n<title>Third title</title>\n"
        "<author><name>Grace Hopper</name></author>\n</entry>\n</feed>\n"
    ),
    "arxiv-oai": (
        '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">\n'
        "<ListRecords>\n"
        "<record>\n<header><identifier>oai:arXiv.org:2401.00001</identifier></header>\n"
        '<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2401.00001</id>\n'
        "<created>2024-01-03</created><authors><author><keyname>Lovelace</keyname>"
        "<forenames>Ada</forenames></author></authors>\n<title>First title</title>"
        "<categories>cs.LG stat.ML</categories>\n<abstract>An abstract.</abstract></arXiv></metadata>\n"
        "</record>\n"
        '<record>\n<header status="deleted"><identifier>oai:arXiv.org:2401.00002</identifier></header>\n'
        "</record>\n"
        "<record>\n<header><identifier>oai:arXiv.org:2401.00003</identifier></header>\n"
        '<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2401.00003</id>\n'
        "<title>Third title</title></arXiv></metadata>\n</record>\n"
        "</ListRecords>\n</OAI-PMH>\n"
    ),
    "arxiv-jsonl": (
        '{"id": "2401.00001", "title": "First title", "abstract": "An abstract.", '
        '"authors": "Ada Lovelace and Alan Turing", "authors_parsed": [["Lovelace", "Ada", ""], '
        '["Turing", "Alan", ""]], "categories": "cs.LG stat.ML", '
        '"versions": [{"version": "v1", "created": "Mon, 1 Jan 2024 10:00:00 GMT"}]}\n'
        '{"id": "2401.00002", "title": "Second title", "authors": "G. H\\\\\\"opper", "doi": "10.1/x"}\n'
        '{"id": "2401.00003", "title": "Third title", "categories": ["cs.CL"], "authors": ["A", "B"]}\n'
    ),
    "bibtex": (
        "% a comment\n\n@article{first,\n  title = {First {LoRA} title},\n"
        "  author = {Lovelace, Ada and Turing, Alan},\n  year = {2024},\n  eprint = {2401.00001},\n"
        "  archivePrefix = {arXiv},\n  primaryClass = {cs.LG},\n}\n\n"
        '@inproceedings{second,\n  title = "Second title",\n  author = {M{\\"u}ller, Zo{\\"e} and others},\n'
        "  booktitle = {NeurIPS},\n  doi = {10.1/x},\n}\n\n"
        "@misc{third,\n  title = {Third title},\n  author = {Grace Hopper},\n  year = {2022},\n}\n"
    ),
}
"""A small valid file of each format, three records each."""

RECORD_START: dict[str, re.Pattern[str]] = {
    "profile": re.compile(r"^\s*arXiv\s?\d{4}\s*$"),
    "listing": re.compile(
        r"^\s*Deep Learning · Everything Else|^\s*Theory · Learning|^\s*Optimization · Sto"
    ),
    "daily": re.compile(r"^\s*(?!Daily Papers\s*$)\S"),
    "arxiv-atom": re.compile(r"<entry[\s>]"),
    "arxiv-oai": re.compile(r"<record[\s>]"),
    "arxiv-jsonl": re.compile(r"^\s*\{"),
    "bibtex": re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]"),
}
"""Where a record of the sample starts (a line that matches)."""

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60)
SHARP = st.sampled_from(
    [
        "\n",
        "\r\n",
        "\r",
        "\x00",
        "\u202e",
        "\ufeff",
        "<",
        ">",
        "&",
        "{",
        "}",
        '"',
        "\\",
        "·",
        "↗",
        ",",
        " and ",
        "<!--",
        "]]>",
        "<![CDATA[",
        "&lol;",
        "\u2028",
        "\x85",
        "\t",
        "\ud7ff",
        "\U0010ffff",
        "arXiv2020",
        "@misc{",
    ]
)
"""Characters and fragments that matter to some format."""


@dataclass(frozen=True, slots=True)
class Mutation:
    """What was done to a valid sample: cut at a byte, and pieces inserted at positions."""

    cut: int | None
    inserts: tuple[tuple[int, str], ...]

    def apply(self, text: str) -> bytes:
        for position, piece in sorted(self.inserts, reverse=True):
            at = position % (len(text) + 1)
            text = text[:at] + piece + text[at:]
        data = text.encode("utf-8", errors="surrogatepass")
        return data[: self.cut % (len(data) + 1)] if self.cut is not None else data


INSERTS = st.lists(st.tuples(st.integers(0, 10_000), st.one_of(TEXT, SHARP)), max_size=6)
MUTATIONS = st.builds(Mutation, st.one_of(st.none(), st.integers(0, 10_000)), INSERTS.map(tuple))
TRUNCATIONS = st.builds(Mutation, st.integers(0, 10_000), st.just(()))


def read_bytes(data: bytes, name: str = "input.txt") -> tuple[list[Record], IssueLog]:
    """Records and issues of a file holding ``data``."""
    log = IssueLog()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        records = list(read_file(path, log, name))
    return records, log


def check_issues(log: IssueLog) -> None:
    for issue in log.issues:
        assert ISSUE.match(str(issue)), str(issue)
        assert "\n" not in str(issue) and "\r" not in str(issue)


def check_records(records: list[Record]) -> None:
    for record in records:
        assert record.title is None or 0 < len(record.title.text) <= MAX_TITLE
        assert record.abstract is None or 0 < len(record.abstract.text) <= MAX_ABSTRACT
        assert len(record.authors) <= MAX_AUTHORS
        assert all(0 < len(a.text) <= MAX_NAME for a in record.authors)
        for span in (record.title, record.abstract, *record.authors):
            if span is not None:
                assert not re.search("[\x00-\x08\x0a-\x1f\x7f\u202a-\u202e\u2066-\u2069]", span.text), span


def starts(data: bytes, reader: str) -> list[int]:
    """Line numbers where a record of the format starts in ``data``.

    A listing record starts at a line the reader takes for an area line (a damaged one makes
    the record part of the previous abstract: a known limit); a daily one at a line with text.
    """
    lines = data.decode("utf-8-sig", errors="replace").split("\n")
    if reader == "listing":
        return [n for n, line in enumerate(lines, 1) if is_area(clean(line))]
    if reader == "daily":
        return [n for n, line in enumerate(lines, 1) if clean(line) and clean(line) != "Daily Papers"]
    return [n for n, line in enumerate(lines, 1) if RECORD_START[reader].search(line)]


def check_reader(reader: str, mutation: Mutation, strict: bool) -> None:
    """Read a mutated sample: no exception, well-formed issues, every record read or named.

    ``strict`` (a truncation only): each record start is read, or an issue lies within the
    record's lines or names its line, or an issue is about the whole file.
    """
    data = mutation.apply(SAMPLES[reader])
    records, log = read_bytes(data)
    check_issues(log)
    check_records(records)
    lines = starts(data, reader)
    if log.has_errors:
        return  # the whole file is named
    if len(records) < len(lines):
        assert log.issues, f"{len(lines)} records in the input, {len(records)} read, no issue"
    if not strict:
        return
    read_at = {r.at.line for r in records}
    for first, end in zip(lines, [*lines[1:], 1 << 30], strict=False):
        named = first in read_at or any(
            first <= i.at.line < end or f"line {first}" in i.message or i.code == "no-records"
            for i in log.issues
        )
        assert named, f"record at line {first} neither read nor named: {[str(i) for i in log.issues]}"


def check_bytes(data: bytes) -> None:
    """Arbitrary bytes, as any file: no exception, well-formed issues."""
    records, log = read_bytes(data)
    check_issues(log)
    check_records(records)


# ---------------------------------------------------------------- extractors


AT = Location("fuzz.txt", 7)
SOURCE = SourceFile("fuzz.txt", "0" * 64, "fuzz")
FIELD = st.one_of(TEXT, st.lists(st.one_of(TEXT, SHARP), max_size=8).map("".join))
REAL_TEXT = st.sampled_from(
    [
        "We fine-tune BERT with LoRA and Adam; code: https://github.com/a/b and github. com/c/d.",
        "Deep Learning · Everything Else",
        "cs.LG",
        "Ada Lovelace",
        "javascript:alert(1) http://" + "a" * 3000 + ".com data:text/html,<script>",
        "We propose GraphFormer, a graph transformer (GF). Our method, GraphFormer, beats GCN.",
    ]
)


@st.composite
def records(draw: st.DrawFn) -> Record:
    """A record with arbitrary fields, some of them mutated real text."""

    def span(fields: st.SearchStrategy[str]) -> Span:
        return Span(draw(fields), AT)

    text = st.one_of(FIELD, REAL_TEXT, st.tuples(REAL_TEXT, FIELD).map("".join))
    return Record(
        reader="fuzz",
        source=SOURCE,
        at=AT,
        title=draw(st.one_of(st.none(), st.builds(lambda: span(text)))),
        abstract=draw(st.one_of(st.none(), st.builds(lambda: span(text)))),
        authors=tuple(span(text) for _ in range(draw(st.integers(0, 5)))),
        subjects=tuple(span(text) for _ in range(draw(st.integers(0, 3)))),
        primary_subject=draw(st.one_of(st.none(), st.builds(lambda: span(text)))),
        areas=tuple(span(text) for _ in range(draw(st.integers(0, 2)))),
    )


def check_extractor(name: str, record: Record) -> None:
    """Extract: no exception, well-formed issues and mentions; authors and areas read or named."""
    module: ModuleType = EXTRACTORS[name]
    log = IssueLog()
    mentions = list(module.extract(record, log))
    check_issues(log)
    for mention in mentions:
        assert mention.extractor == name and mention.kind and isinstance(mention.key, str)
    warned = {i.code for i in log.issues}
    if name == "authors":
        kept = {int(m.get("index")) for m in mentions}
        assert all(i in kept or "empty-author" in warned for i in range(len(record.authors)))
    if name == "areas":
        assert len(mentions) == len(record.areas) or "bad-area" in warned


# ---------------------------------------------------------------- the targets

TARGETS: dict[str, tuple[st.SearchStrategy[object], Callable[[object], None]]] = {}
"""Name -> (strategy, check): what the tests here and ``benchmarks/fuzz.py`` run."""


def _target(name: str, strategy: st.SearchStrategy[object], check: Callable[[object], None]) -> None:
    TARGETS[name] = (strategy, check)


def _reader_check(reader: str, strict: bool) -> Callable[[object], None]:
    def check(value: object) -> None:
        assert isinstance(value, Mutation)
        check_reader(reader, value, strict)

    return check


def _extractor_check(name: str) -> Callable[[object], None]:
    def check(value: object) -> None:
        assert isinstance(value, Record)
        check_extractor(name, value)

    return check


def _bytes_check(value: object) -> None:
    assert isinstance(value, bytes)
    check_bytes(value)


for _reader in READERS:
    _target(f"reader:{_reader}", MUTATIONS, _reader_check(_reader, strict=False))
    _target(f"truncate:{_reader}", TRUNCATIONS, _reader_check(_reader, strict=True))
for _name in EXTRACTORS:
    _target(f"extractor:{_name}", records(), _extractor_check(_name))
_target("bytes", st.binary(max_size=2_000), _bytes_check)


def run_target(name: str, examples: int, seed: int | None = None) -> None:
    """Run one target for ``examples`` examples (raises hypothesis's shrunk failure)."""
    strategy, check = TARGETS[name]
    test = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is None,
        suppress_health_check=list(HealthCheck),
    )(given(strategy)(check))
    if seed is not None:
        from hypothesis import seed as with_seed

        test = with_seed(seed)(test)
    test()


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_fuzz(target: str) -> None:
    run_target(target, EXAMPLES)


def test_samples_read_whole() -> None:
    """The unmutated samples give all their records and no issue but the deliberate ones."""
    for reader, text in SAMPLES.items():
        records, log = read_bytes(text.encode())
        assert {r.reader for r in records} == {reader}
        expected = 2 if reader == "arxiv-oai" else 3  # the OAI sample has one deleted record
        assert len(records) == expected, (reader, [str(i) for i in log.issues])
        assert starts(text.encode(), reader) != []
