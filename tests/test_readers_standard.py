"""Readers of standard formats: arXiv API Atom, OAI-PMH, arXiv metadata JSON lines, BibTeX.

The shared samples are read in place (skipped when absent); small inputs written
here cover malformed files, unsafe XML and BibTeX name forms.  Raw files are
checked with a different parser (ElementTree, json, regex) than the readers use.
"""

from __future__ import annotations

import json
import re
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import IssueLog
from kg.readers import detect, read_file
from kg.records import Record


def _shared() -> Path:
    beside = Path(__file__).resolve().parents[2] / "shared" / "data"
    return beside if beside.is_dir() else Path("/work/shared/data")


DATA = _shared()
ATOM = DATA / "arxiv_atom_api" / "arxiv.xml"
OAI = DATA / "arxiv_oai_pmh" / "cs_ListRecords_page90.xml"
JSONL = DATA / "arxiv_kaggle_head200" / "arxiv-metadata-oai-snapshot.head200.jsonl"
SUBJECT = re.compile(r"^[a-z][a-z-]*(?:\.[A-Za-z-]+)?$")


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared sample {path} is absent (expected shared/data beside the repository)")
    return path


def load(path: Path) -> tuple[list[Record], IssueLog]:
    log = IssueLog()
    return list(read_file(path, log)), log


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


def texts(spans: tuple[object, ...]) -> list[str]:
    return [s.text for s in spans]  # type: ignore[attr-defined]


def arxiv_ids(records: list[Record]) -> list[str]:
    return [s.text for r in records for s in r.identifiers if s.text.startswith("arxiv:")]


# ---------------------------------------------------------------- samples


@pytest.fixture(scope="module")
def atom() -> tuple[list[Record], IssueLog]:
    return load(need(ATOM))


@pytest.fixture(scope="module")
def oai() -> tuple[list[Record], IssueLog]:
    return load(need(OAI))


@pytest.fixture(scope="module")
def jsonl() -> tuple[list[Record], IssueLog]:
    return load(need(JSONL))


def _atom_raw() -> list[ET.Element]:
    # only the first <entry> declares xmlns: strip it so every entry has plain local names
    raw = ATOM.read_text(encoding="utf-8")
    raw = re.sub(r'\sxmlns(?::\w+)?="[^"]*"', "", raw).replace("arxiv:", "arxiv_")
    return list(ET.fromstring(raw.encode()).iter("entry"))


def test_atom_sample_loads_completely(atom: tuple[list[Record], IssueLog]) -> None:
    records, log = atom
    assert [r.reader for r in records] == ["arxiv-atom"] * 548
    ids = arxiv_ids(records)
    assert len(ids) == 548 and len({re.sub(r"v\d+$", "", i) for i in ids}) == 547
    assert not log.issues, [str(i) for i in log.issues[:5]]


def test_atom_sample_matches_raw(atom: tuple[list[Record], IssueLog]) -> None:
    records, _ = atom
    raw = _atom_raw()
    assert len(raw) == len(records)
    for entry, record in list(zip(raw, records, strict=True))[::37]:
        assert record.identifiers[0].text == "arxiv:" + entry.findtext("id", "").split("/abs/")[1]
        assert texts(record.authors) == [" ".join(a.findtext("name", "").split()) for a in entry.iter("author")]
        terms = [c.get("term", "") for c in entry.iter("category")]
        assert texts(record.subjects) == [t for t in terms if SUBJECT.match(t)]
        primary = entry.find("arxiv_primary_category")
        assert record.primary_subject is not None and primary is not None
        assert record.primary_subject.text == primary.get("term")
        assert record.title is not None and record.title.text == " ".join(entry.findtext("title", "").split())
        assert record.published is not None
        assert record.published.text == entry.findtext("published", "")[:10]


def test_atom_fields(atom: tuple[list[Record], IssueLog]) -> None:
    records, _ = atom
    first = records[0]
    assert first.identifiers[0].text == "arxiv:1910.06169v1"
    assert first.primary_subject is not None and first.primary_subject.text == "cs.DS"
    assert texts(first.subjects) == ["cs.DS", "cs.DB", "cs.IR", "cs.LG"]  # the ACM class is not a subject
    assert texts(first.authors) == ["Paolo Ferragina", "Giorgio Vinciguerra"]
    assert first.year is not None and first.year.text == "2019"
    assert first.updated is not None and first.updated.text == "2019-10-14"
    assert first.comment is not None and first.comment.text.startswith("We remark to the reader")
    assert "https://arxiv.org/abs/1910.06169" in texts(first.links)
    assert first.title is not None and first.title.at.line == 6
    # cross-listed: primary differs from the first listed category
    cross = next(r for r in records if r.identifiers[0].text == "arxiv:1910.04640v1")
    assert cross.primary_subject is not None and cross.primary_subject.text == "cs.DB"
    assert "doi:10.1093/bioinformatics/btx313" in texts(cross.identifiers)
    assert cross.journal_ref is not None and cross.journal_ref.text.startswith("Bioinformatics, 33(18)")
    with_affiliation = [r for r in records if r.affiliations]
    assert with_affiliation
    index, place = next(
        (i, a) for r in with_affiliation for i, a in r.affiliations if a.text == "University of Helsinki"
    )
    owner = next(r for r in with_affiliation if (index, place) in r.affiliations)
    assert owner.authors[index].text == "Simon J. Puglisi"


def test_oai_sample_loads_completely(oai: tuple[list[Record], IssueLog]) -> None:
    records, log = oai
    assert len(records) == 1000 and len(set(arxiv_ids(records))) == 1000
    assert not log.issues, [str(i) for i in log.issues[:5]]
    ns = {"o": "http://www.openarchives.org/OAI/2.0/", "a": "http://arxiv.org/OAI/arXiv/"}
    raw = ET.parse(OAI).getroot().findall(".//o:record", ns)
    assert len(raw) == 1000
    for element, record in list(zip(raw, records, strict=True))[::41]:
        meta = element.find(".//a:arXiv", ns)
        assert meta is not None
        assert record.identifiers[0].text == "arxiv:" + meta.findtext("a:id", "", ns)
        names = [
            " ".join(
                " ".join(a.findtext(f"a:{p}", "", ns) for p in ("forenames", "keyname", "suffix")).split()
            )
            for a in meta.findall("a:authors/a:author", ns)
        ]
        assert texts(record.authors) == names
        codes = meta.findtext("a:categories", "", ns).split()
        assert texts(record.subjects) == codes
        assert record.primary_subject is not None and record.primary_subject.text == codes[0]
        assert record.published is not None and record.published.text == meta.findtext("a:created", "", ns)


def test_oai_fields(oai: tuple[list[Record], IssueLog]) -> None:
    records, _ = oai
    by_id = {r.identifiers[0].text: r for r in records}
    second = by_id["arxiv:1512.05141"]
    assert texts(second.subjects) == ["cs.NI", "cs.GT"]
    assert "doi:10.5121/ijcnc.2015.7604" in texts(second.identifiers)
    assert second.comment is not None and "IJCNC" in second.comment.text
    assert second.title is not None and second.title.text.endswith("In Practical WSNs")
    assert sum(len(r.affiliations) for r in records) == 154
    assert any(r.updated for r in records)


def test_jsonl_sample_loads_completely(jsonl: tuple[list[Record], IssueLog]) -> None:
    records, log = jsonl
    assert len(records) == 200 and not log.issues
    raw = [json.loads(line) for line in JSONL.read_text(encoding="utf-8").splitlines()]
    for obj, record, in zip(raw, records, strict=True):
        assert record.identifiers[0].text == f"arxiv:{obj['id']}{obj['versions'][-1]['version']}"
        assert texts(record.subjects) == obj["categories"].split()
        assert record.primary_subject is not None
        assert record.primary_subject.text == obj["categories"].split()[0]
        expected = [" ".join(" ".join([a[1], a[0], a[2]]).split()) for a in obj["authors_parsed"]]
        assert texts(record.authors) == expected
    first = records[0]
    assert texts(first.authors) == ["C. Balázs", "E. L. Berger", "P. M. Nadolsky", "C. -P. Yuan"]
    assert texts(first.identifiers) == ["arxiv:0704.0001v2", "doi:10.1103/PhysRevD.76.013009"]
    assert first.published is not None and first.published.text == "2007-04-02"
    assert first.updated is not None and first.updated.text == "2007-07-24"
    assert first.year is not None and first.year.text == "2007"
    assert first.journal_ref is not None and first.journal_ref.text == "Phys.Rev.D76:013009,2007"
    assert records[1].at.line == 2


# ---------------------------------------------------------------- small inputs

ATOM_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title>ArXiv Query</title>
  <entry>
    <id>http://arxiv.org/abs/2401.00001v2</id>
    <published>2024-01-01T00:00:00Z</published>
    <updated>2024-02-01T00:00:00Z</updated>
    <title>Graph
      Learning</title>
    <summary>  We propose
a method.</summary>
    <author><name>Ada Lovelace</name><arxiv:affiliation>Analytical Society</arxiv:affiliation></author>
    <author><name>Alan Turing</name></author>
    <arxiv:doi>10.1/x</arxiv:doi>
    <arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="stat.ML"/><category term="cs.LG"/><category term="68T05"/>
  </entry>
  <entry>
    <id>http://arxiv.org/abs/hep-th/9901001v1</id>
    <published>1999-01-01T00:00:00Z</published>
    <title>Strings &amp; things</title>
    <author><name>Ed Witten</name></author>
    <arxiv:primary_category term="hep-th"/>
    <category term="hep-th"/>
  </entry>
</feed>
"""

BARE_ENTRIES = """<entry>
<id>http://arxiv.org/abs/2401.00003v1</id><title>One</title><author><name>A B</name></author>
</entry>
<entry>
<id>http://arxiv.org/abs/2401.00004v1</id><title>Two</title><author><name>C D</name></author>
</entry>
"""


def test_atom_feed_and_bare_entries(tmp_path: Path) -> None:
    records, log = load(write(tmp_path, "feed.xml", ATOM_FEED))
    assert [r.identifiers[0].text for r in records] == ["arxiv:2401.00001v2", "arxiv:hep-th/9901001v1"]
    first = records[0]
    assert first.title is not None and first.title.text == "Graph Learning" and first.title.at.line == 8
    assert first.abstract is not None and first.abstract.text == "We propose a method."
    assert texts(first.subjects) == ["stat.ML", "cs.LG"]
    assert first.primary_subject is not None and first.primary_subject.text == "cs.LG"
    assert [(i, a.text) for i, a in first.affiliations] == [(0, "Analytical Society")]
    assert texts(first.identifiers) == ["arxiv:2401.00001v2", "doi:10.1/x"]
    assert first.published is not None and first.published.text == "2024-01-01"
    assert records[1].title is not None and records[1].title.text == "Strings & things"
    assert not log.issues
    bare, log = load(write(tmp_path, "bare.xml", BARE_ENTRIES))
    assert arxiv_ids(bare) == ["arxiv:2401.00003v1", "arxiv:2401.00004v1"] and not log.issues
    assert [r.at.line for r in bare] == [1, 4]


def test_atom_malformed_entry_is_reported_and_the_rest_loads(tmp_path: Path) -> None:
    text = BARE_ENTRIES.replace("<title>One</title>", "<title>One</titel>")
    text += "<entry>\n<id>http://arxiv.org/abs/2401.00005v1</id><title>Five</title></entry>\n"
    records, log = load(write(tmp_path, "bad.xml", text))
    assert arxiv_ids(records) == ["arxiv:2401.00004v1", "arxiv:2401.00005v1"]
    [issue] = [i for i in log.issues if i.code == "bad-xml"]
    assert issue.at.line == 2 and "starting at line 1" in issue.message and "column" in issue.message
    assert str(issue).startswith(f"{tmp_path / 'bad.xml'}:2: warning:")


def test_atom_errors_inside_a_feed_resume_inside_the_feed(tmp_path: Path) -> None:
    text = ATOM_FEED.replace("<title>Graph", "<title>Graph <b>", 1)
    records, log = load(write(tmp_path, "feed.xml", text))
    assert arxiv_ids(records) == ["arxiv:hep-th/9901001v1"]
    assert [i.code for i in log.issues] == ["bad-xml"]


def test_truncated_xml_keeps_complete_records(tmp_path: Path) -> None:
    cut = ATOM_FEED[: ATOM_FEED.index("<title>Strings")]
    records, log = load(write(tmp_path, "cut.xml", cut))
    assert arxiv_ids(records) == ["arxiv:2401.00001v2"]
    assert [i.code for i in log.issues] == ["truncated-record"]
    assert "starting at line 18" in log.issues[0].message


BOMB = """<?xml version="1.0"?>
<!DOCTYPE feed [
 <!ENTITY a "aaaaaaaaaa">
 <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
 <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
]>
<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2401.00001v1</id>
<title>&c;</title></entry></feed>
"""


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    records, log = load(write(tmp_path, "bomb.xml", BOMB))
    assert records == []
    assert [i.code for i in log.issues] == ["unsafe-xml"] and log.issues[0].severity == "error"


def test_external_entity_is_refused_and_not_fetched(tmp_path: Path) -> None:
    secret = write(tmp_path, "secret.txt", "TOP-SECRET")
    dtd = write(tmp_path, "evil.dtd", '<!ENTITY leak SYSTEM "' + secret.as_uri() + '">')
    for doctype in (
        f'<!DOCTYPE feed [<!ENTITY leak SYSTEM "{secret.as_uri()}">]>',
        f'<!DOCTYPE feed SYSTEM "{dtd.as_uri()}">',
    ):
        text = (
            f'<?xml version="1.0"?>\n{doctype}\n<feed xmlns="http://www.w3.org/2005/Atom">'
            "<entry><id>http://arxiv.org/abs/2401.00001v1</id><title>&leak;</title></entry></feed>\n"
        )
        records, log = load(write(tmp_path, "xxe.xml", text))
        assert all("TOP-SECRET" not in str(r) for r in records)
        assert log.issues and log.issues[0].code in ("unsafe-xml", "bad-xml")


OAI_TEXT = """<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">
<ListRecords>
<record><header><identifier>oai:arXiv.org:2401.00001</identifier></header>
<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2401.00001</id><created>2024-01-01</created>
<updated>2024-03-01</updated>
<authors><author><keyname>Lovelace</keyname><forenames>Ada</forenames><affiliation>Analytical Society</affiliation></author>
<author><keyname>King</keyname><forenames>Martin Luther</forenames><suffix>Jr</suffix></author></authors>
<title>A
  title</title><categories>cs.LG stat.ML</categories><abstract>Text.</abstract></arXiv></metadata></record>
<record><header status="deleted"><identifier>oai:arXiv.org:2401.00002</identifier></header></record>
<record><header><identifier>oai:arXiv.org:2401.00003</identifier></header>
<metadata><arXiv><id>2401.00003</id><title>Broken<title></arXiv></metadata></record>
<record><header><identifier>oai:arXiv.org:2401.00004</identifier></header>
<metadata><arXiv><id>2401.00004</id><title>Four</title><categories>math.CO cs.DM</categories></arXiv></metadata></record>
</ListRecords>
</OAI-PMH>
"""


def test_oai_small(tmp_path: Path) -> None:
    records, log = load(write(tmp_path, "oai.xml", OAI_TEXT))
    assert arxiv_ids(records) == ["arxiv:2401.00001", "arxiv:2401.00004"]
    first = records[0]
    assert texts(first.authors) == ["Ada Lovelace", "Martin Luther King Jr"]
    assert [(i, a.text) for i, a in first.affiliations] == [(0, "Analytical Society")]
    assert first.title is not None and first.title.text == "A title"
    assert first.updated is not None and first.updated.text == "2024-03-01"
    assert records[1].primary_subject is not None and records[1].primary_subject.text == "math.CO"
    codes = [i.code for i in log.issues]
    assert "deleted-record" in codes and "bad-xml" in codes
    bad = next(i for i in log.issues if i.code == "bad-xml")
    assert bad.at.line == 13 and "starting at line 12" in bad.message


JSONL_TEXT = "\n".join(
    [
        json.dumps(
            {
                "id": "2401.00001",
                "authors": "A. B",
                "authors_parsed": [["Lovelace", "Ada", ""], ["King", "Martin", "Jr"]],
                "title": "One\n  paper",
                "categories": "cs.LG stat.ML",
                "versions": [{"version": "v1", "created": "Mon, 1 Jan 2024 10:00:00 GMT"}],
            }
        ),
        '{"id": "2401.00002", "title": "cut',
        json.dumps({"id": "2401.00003", "title": 7, "authors": "G\\\"unnemann, S. and J{\\'e}r{\\^o}me Fran\\c{c}ois"}),
        "[1, 2]",
        json.dumps({"id": 12, "title": None}),
        json.dumps({"id": "hep-th/9901001", "title": "Old", "versions": [{"version": "v3", "created": "x"}]}),
    ]
)


def test_jsonl_small(tmp_path: Path) -> None:
    records, log = load(write(tmp_path, "papers.jsonl", JSONL_TEXT))
    assert arxiv_ids(records) == ["arxiv:2401.00001v1", "arxiv:2401.00003", "arxiv:hep-th/9901001v3"]
    assert texts(records[0].authors) == ["Ada Lovelace", "Martin King Jr"]
    assert records[0].title is not None and records[0].title.text == "One paper"
    assert records[0].published is not None and records[0].published.text == "2024-01-01"
    assert texts(records[1].authors) == ["Günnemann", "S.", "Jérôme François"]
    by_code = {(i.code, i.at.line) for i in log.issues}
    assert ("bad-json", 2) in by_code and ("bad-field", 3) in by_code and ("bad-record", 4) in by_code
    assert ("bad-record", 5) in by_code and ("bad-field", 6) in by_code
    bad_json = next(i for i in log.issues if i.code == "bad-json")
    assert "column" in bad_json.message


BIBTEX_TEXT = r"""% exported by Zotero
@article{hu2021lora,
  title = {{LoRA}: Low-Rank Adaptation of Large Language Models},
  author = {Hu, Edward J. and Shen, Yelong and Wallis, Phillip and others},
  journal = {arXiv preprint arXiv:2106.09685},
  year = {2021}
}

@inproceedings{guennemann2020,
  title = "Graph Attacks by G{\"u}nnemann",
  author = {St{\"u}rmer, J{\"o}rg and Stephan G\"unnemann and {\'E}mile Z{\'e}ro},
  booktitle = {Proceedings of {NeurIPS}},
  doi = {https://doi.org/10.5555/3495724},
  year = 2020,
}

@article{broken,
  title = {Unbalanced {braces,
  author = {X Y},
  year = {2021}
}

@misc{zotero2024,
  title = {Attention},
  author = {Vaswani, Ashish},
  eprint = {2401.00001v2},
  archivePrefix = {arXiv},
  primaryClass = {cs.CL},
  year = {2024},
}
@book{notitle, author = {Nobody}}
"""


def test_bibtex_small(tmp_path: Path) -> None:
    records, log = load(write(tmp_path, "refs.bib", BIBTEX_TEXT))
    assert [r.reader for r in records] == ["bibtex"] * 3
    lora, gnn, misc = records
    assert lora.title is not None and lora.title.text == "LoRA: Low-Rank Adaptation of Large Language Models"
    assert texts(lora.authors) == ["Edward J. Hu", "Yelong Shen", "Phillip Wallis"]
    assert not lora.authors_complete
    assert texts(lora.identifiers) == ["arxiv:2106.09685"] and lora.venue is None
    assert lora.year is not None and lora.year.text == "2021" and lora.at.line == 2
    assert gnn.title is not None and gnn.title.text == "Graph Attacks by Günnemann"
    assert texts(gnn.authors) == ["Jörg Stürmer", "Stephan Günnemann", "Émile Zéro"]
    assert texts(gnn.identifiers) == ["doi:10.5555/3495724"]
    assert gnn.venue is not None and gnn.venue.text == "Proceedings of NeurIPS"
    assert texts(misc.identifiers) == ["arxiv:2401.00001v2"]
    assert misc.primary_subject is not None and misc.primary_subject.text == "cs.CL"
    [bad] = [i for i in log.issues if i.code == "bad-bibtex-entry"]
    assert bad.at.line == 17 and "'broken'" in bad.message
    assert any(i.code == "missing-title" and "'notitle'" in i.message for i in log.issues)


def test_bibtex_too_large(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kg.readers import bibtex

    monkeypatch.setattr(bibtex, "MAX_BYTES", 100)
    records, log = load(write(tmp_path, "refs.bib", BIBTEX_TEXT))
    assert records == [] and [i.code for i in log.issues] == ["file-too-large"]


def test_detection_is_by_content() -> None:
    assert detect(ATOM_FEED[:500]) == "arxiv-atom"
    assert detect(BARE_ENTRIES) == "arxiv-atom"
    assert detect(OAI_TEXT) == "arxiv-oai"
    assert detect(JSONL_TEXT) == "arxiv-jsonl"
    assert detect(BIBTEX_TEXT) == "bibtex"
    assert detect("Daily Papers\n\nWe propose.") == "daily"


# ---------------------------------------------------------------- properties

VALID = {
    "feed.xml": (ATOM_FEED, "arxiv:"),
    "bare.xml": (BARE_ENTRIES, "arxiv:"),
    "oai.xml": (OAI_TEXT, "arxiv:"),
    "papers.jsonl": (JSONL_TEXT, "arxiv:"),
    "refs.bib": (BIBTEX_TEXT, ""),
}


def _read_text(name: str, text: str) -> tuple[list[Record], IssueLog]:
    with tempfile.TemporaryDirectory() as d:
        return load(write(Path(d), name, text))


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from(sorted(VALID)), st.text(max_size=300))
def test_arbitrary_text_after_a_valid_start_never_crashes(name: str, tail: str) -> None:
    text = VALID[name][0]
    for head in (text[:60], text[: len(text) // 2]):
        _records, log = _read_text(name, head + tail)
        assert all(str(i).count(": ") >= 2 for i in log.issues)


def _complete_atom_entries(text: str) -> list[str]:
    return re.findall(r"<id>http://arxiv.org/abs/([^<]+)</id>.*?</entry>", text, re.S)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.sampled_from(["feed.xml", "bare.xml"]), st.integers(min_value=0, max_value=2000))
def test_truncated_atom_keeps_or_reports_every_record(name: str, cut: int) -> None:
    text = VALID[name][0][:cut]
    records, log = _read_text(name, text)
    complete = _complete_atom_entries(text)
    read = [i.removeprefix("arxiv:") for i in arxiv_ids(records)]
    assert read[: len(complete)] == complete
    started = len(re.findall(r"<entry[\s>]", text))
    reported = sum(i.code in ("truncated-record", "bad-xml", "unknown-format") for i in log.issues)
    assert len(records) + reported >= started or not text.strip()


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.integers(min_value=0, max_value=len(JSONL_TEXT)))
def test_truncated_jsonl_keeps_every_complete_line(cut: int) -> None:
    text = JSONL_TEXT[:cut]
    records, _ = _read_text("papers.jsonl", text)
    full = {"2401.00001v1": 0, "2401.00003": 2, "hep-th/9901001v3": 5}
    lines = text.split("\n")
    expected = [f"arxiv:{i}" for i, n in full.items() if n < len(lines) - 1]
    assert arxiv_ids(records)[: len(expected)] == expected


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.integers(min_value=0, max_value=len(BIBTEX_TEXT)))
def test_truncated_bibtex_keeps_complete_entries(cut: int) -> None:
    text = BIBTEX_TEXT[:cut]
    records, log = _read_text("refs.bib", text)
    titles = [r.title.text for r in records if r.title]
    ends = {
        "LoRA: Low-Rank Adaptation of Large Language Models": BIBTEX_TEXT.index("\n}\n") + 2,
        "Graph Attacks by Günnemann": BIBTEX_TEXT.index("2020,\n}") + 7,
    }
    for title, end in ends.items():
        if cut >= end:
            assert title in titles
    started = len(re.findall(r"^@\w+\{", text, re.M))
    named = sum(i.code in ("bad-bibtex-entry", "missing-title", "unknown-format") for i in log.issues)
    assert len(records) + named >= started


def test_a_daily_listing_record_without_versions_takes_its_year_from_its_arxiv_id() -> None:
    line = json.dumps(
        {"id": "2503.12345", "title": "A title", "summary": "An abstract.", "authors": ["A. Author"],
         "categories": ["cs.LG"]}
    )
    records, log = _read_text("day.jsonl", line + "\n")
    assert [r.year.text if r.year else None for r in records] == ["2025"]
    assert not log.issues


def test_junk_authors_are_no_persons_and_are_reported(tmp_path: Path) -> None:
    # a scraped daily listing: authors as a JSON list, the last with the list's "and" written into it
    line = (
        '{"id": "2503.00001", "title": "T", "authors": ["Ding Jinru", ":", "1, 2", "and Xu Jie", "Andrés Ng"], '
        '"categories": ["cs.LG"], "summary": "S"}\n'
    )
    records, log = load(write(tmp_path, "2025-03-18.jsonl", line))
    assert texts(records[0].authors) == ["Ding Jinru", "Xu Jie", "Andrés Ng"]
    assert sorted(i.code for i in log.issues) == ["joined-author", "not-a-name", "not-a-name"]
    assert all(i.at.line == 1 for i in log.issues)
