"""Tests for the synthetic corpus generator ``benchmarks/synth.py``."""

from __future__ import annotations

import json
import re
import string
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import sentences
import synth

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
N = 300

CODE = r"[a-z-]+(?:\.[A-Za-z-]+)?"
PROFILE_PAGE = re.compile(
    r"arXiv subjects\n\n(?P<name>[^\n]+)\n\nPublications and source records attributed to (?P=name)\.\n\n"
    r"At least (?P<n>\d+) recordsLinked to original sources"
    rf"(?:\n\narXiv\d{{4}}\n\n[^\n]+\n\n[^\n]+\n\n{CODE}↗)+"
)
PROFILE_RECORD = re.compile(rf"\n\narXiv(\d{{4}})\n\n([^\n]+)\n\n([^\n]+)\n\n({CODE})↗")
LISTING_PAGE = re.compile(r"论文检索(?:\n\n[^\n]+ · [^\n]+\n\n[^\n]+\n\n[^\n]+)+")
LISTING_RECORD = re.compile(r"\n\n([^\n]+ · [^\n]+)\n\n([^\n]+)\n\n([^\n]+)")
DAILY_PAGE = re.compile(r"Daily Papers(?:\n\n[^\n]+)+")
JSON_KEYS = [
    "id", "submitter", "authors", "title", "comments", "journal-ref", "doi", "report-no", "categories",
    "license", "abstract", "versions", "update_date", "authors_parsed",
]
GITHUB = re.compile(r"github\.\s?com/", re.IGNORECASE)
CODES = {code for code, _ in synth.CATEGORIES}


def norm(text: str) -> str:
    return " ".join(text.split())


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


class Corpus:
    """Every record of a generated folder, parsed."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.files = sorted(p for p in out.iterdir() if p.is_file())
        self.json: list[dict[str, object]] = []
        self.profiles: list[tuple[str, list[tuple[int, str, str, str]]]] = []
        self.listing: list[tuple[str, list[str], str]] = []
        self.daily: list[str] = []
        # normalized abstract -> files it occurs in (one entry per record)
        self.where: dict[str, list[str]] = defaultdict(list)
        for path in self.files:
            text = read(path)
            if path.name.startswith("arxiv-metadata-"):
                for line in text.splitlines():
                    rec = json.loads(line)
                    self.json.append(rec)
                    self.where[norm(rec["abstract"])].append(path.name)
            elif path.name.startswith("profile-"):
                m = PROFILE_PAGE.fullmatch(text)
                assert m, path.name
                recs = [(int(y), t, a, c) for y, t, a, c in PROFILE_RECORD.findall(text)]
                assert int(m["n"]) >= len(recs)
                self.profiles.append((m["name"], recs))
                for rec in recs:
                    self.where[norm(rec[2])].append(path.name)
            elif path.name.startswith("listing-"):
                assert LISTING_PAGE.fullmatch(text), path.name
                for area, authors, abstract in LISTING_RECORD.findall(text):
                    self.listing.append((area, authors.split(", "), abstract))
                    self.where[norm(abstract)].append(path.name)
            elif path.name.startswith("daily-"):
                assert DAILY_PAGE.fullmatch(text), path.name
                for abstract in text.split("\n\n")[1:]:
                    self.daily.append(abstract)
                    self.where[norm(abstract)].append(path.name)
            else:
                raise AssertionError(f"unexpected file {path.name}")

    @property
    def records(self) -> int:
        return sum(len(v) for v in self.where.values())


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[synth.Summary, Corpus]:
    out = tmp_path_factory.mktemp("corpus")
    summary = synth.generate(N, out, seed=0, jsonl_chunk=100, page_chunk=15)
    return summary, Corpus(out)


def test_layout_patterns_match_the_seed_pages() -> None:
    assert PROFILE_PAGE.fullmatch(read(SEEDS / "000_c075b9e3b81b6c13.txt"))
    assert LISTING_PAGE.fullmatch(read(SEEDS / "002_850f322a07e45cb7.txt"))
    assert DAILY_PAGE.fullmatch(read(SEEDS / "003_8ee604de145902d1.txt"))


def test_same_arguments_give_byte_identical_files(tmp_path: Path) -> None:
    a = synth.generate(N, tmp_path / "a", seed=7)
    b = synth.generate(N, tmp_path / "b", seed=7)
    names_a = sorted(p.name for p in (tmp_path / "a").iterdir())
    names_b = sorted(p.name for p in (tmp_path / "b").iterdir())
    assert names_a == names_b
    for name in names_a:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    assert a.bytes == b.bytes and a.records == b.records


def test_other_seed_gives_other_corpus(tmp_path: Path) -> None:
    synth.generate(50, tmp_path / "a", seed=1)
    synth.generate(50, tmp_path / "b", seed=2)
    a = (tmp_path / "a" / "arxiv-metadata-0000.jsonl").read_bytes()
    b = (tmp_path / "b" / "arxiv-metadata-0000.jsonl").read_bytes()
    assert a != b


def test_rerun_replaces_earlier_output(tmp_path: Path) -> None:
    synth.generate(200, tmp_path, jsonl_chunk=20)
    summary = synth.generate(30, tmp_path, jsonl_chunk=20)
    assert len(list(tmp_path.iterdir())) == summary.total_files


def test_summary_matches_the_files(run: tuple[synth.Summary, Corpus]) -> None:
    summary, corpus = run
    assert summary.total_files == len(corpus.files)
    assert summary.total_bytes == sum(p.stat().st_size for p in corpus.files)
    assert summary.records["jsonl"] == len(corpus.json)
    assert summary.records["listing"] == len(corpus.listing)
    assert summary.records["daily"] == len(corpus.daily)
    assert summary.records["profile"] == sum(len(recs) for _, recs in corpus.profiles)
    assert summary.total_records == corpus.records == N + summary.duplicates
    assert len(corpus.where) == summary.papers == N
    # JSON lines carry the largest share; chunking produced several files per format
    assert summary.records["jsonl"] > 0.6 * N
    assert summary.files["jsonl"] >= 2 and summary.files["listing"] >= 2
    assert "distinct papers" in summary.table()


def test_every_json_line_has_the_kaggle_keys(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    ids = set()
    for rec in corpus.json:
        assert list(rec) == JSON_KEYS
        assert re.fullmatch(r"\d{4}\.\d{5}", str(rec["id"]))
        ids.add(rec["id"])
        assert isinstance(rec["title"], str) and rec["title"].strip()
        abstract = rec["abstract"]
        assert isinstance(abstract, str) and abstract.startswith("  ") and abstract.endswith("\n")
        assert max(len(line) for line in abstract.splitlines()) <= 82
        cats = str(rec["categories"]).split(" ")
        assert 1 <= len(cats) <= 3 and len(set(cats)) == len(cats) and set(cats) <= CODES
        versions = rec["versions"]
        assert isinstance(versions, list) and versions
        for i, v in enumerate(versions, 1):
            assert v["version"] == f"v{i}"
            assert re.fullmatch(r"[A-Z][a-z]{2}, \d{1,2} [A-Z][a-z]{2} 20(1[5-9]|2[0-6]) \d\d:\d\d:\d\d GMT",
                                v["created"])
        assert re.fullmatch(r"20\d\d-\d\d-\d\d", str(rec["update_date"]))
        parsed = rec["authors_parsed"]
        assert isinstance(parsed, list)
        assert all(isinstance(p, list) and len(p) == 3 and p[2] == "" for p in parsed)
        assert rec["submitter"] in {f"{first} {last}" for last, first, _ in parsed}
    assert len(ids) == len(corpus.json)


def test_author_counts_are_between_1_and_12(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    counts = [len(rec["authors_parsed"]) for rec in corpus.json]  # type: ignore[arg-type]
    counts += [len(authors) for _, authors, _ in corpus.listing]
    assert min(counts) >= 1 and max(counts) <= 12
    assert len(set(counts)) >= 6  # a spread, not a constant
    for _, authors, _ in corpus.listing:
        assert len(set(authors)) == len(authors)


def test_repo_link_share_is_about_15_percent(run: tuple[synth.Summary, Corpus]) -> None:
    summary, corpus = run
    with_link = [a for a in corpus.where if GITHUB.search(a)]
    share = len(with_link) / len(corpus.where)
    assert 0.10 <= share <= 0.20
    assert summary.with_link == len(with_link)
    # messy spellings occur: trailing period, split host, \url{...}, parentheses
    joined = "\n".join(with_link)
    assert re.search(r"github\.com/\S+\.(\s|$)", joined)
    assert "(https://github.com/" in joined or "\\url{https://github.com/" in joined


def test_about_2_percent_of_papers_appear_twice_in_different_files(run: tuple[synth.Summary, Corpus]) -> None:
    summary, corpus = run
    dups = {a: files for a, files in corpus.where.items() if len(files) > 1}
    assert 0.01 <= len(dups) / len(corpus.where) <= 0.03
    assert len(dups) == summary.duplicates
    for files in dups.values():
        assert len(files) == 2 and files[0] != files[1]
        # two formats
        assert files[0].split("-")[0] != files[1].split("-")[0]


def test_json_twins_agree_with_listing_authors(tmp_path: Path) -> None:
    synth.generate(1500, tmp_path, seed=5, formats=["jsonl", "listing"])
    corpus = Corpus(tmp_path)
    by_abstract = {norm(str(rec["abstract"])): rec for rec in corpus.json}
    checked = 0
    for _, authors, abstract in corpus.listing:
        rec = by_abstract.get(norm(abstract))
        if rec is not None:
            parsed = rec["authors_parsed"]
            assert authors == [f"{first} {last}" for last, first, _ in parsed]  # type: ignore[union-attr]
            checked += 1
    assert checked == 30  # 2% of 1500, each a JSON line plus a listing record


def test_listing_records(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    areas = {a for a, _ in synth.AREAS}
    assert corpus.listing
    for area, authors, abstract in corpus.listing:
        assert area in areas
        assert all(a.strip() == a and " " in a for a in authors)
        assert len(abstract.split()) >= 60


def test_daily_records(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    assert corpus.daily
    assert all(len(a.split()) >= 60 for a in corpus.daily)
    text = read(next(p for p in corpus.files if p.name.startswith("daily-")))
    assert text.startswith("Daily Papers\n\n") and not text.endswith("\n")


def test_profile_pages_hold_their_persons_papers(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    assert len(corpus.profiles) >= 2
    names = [name for name, _ in corpus.profiles]
    assert len(set(names)) == len(names)
    authors_of = {norm(str(r["abstract"])): {f"{f} {la}" for la, f, _ in r["authors_parsed"]}  # type: ignore[union-attr]
                  for r in corpus.json}
    authors_of.update({norm(abstract): set(authors) for _, authors, abstract in corpus.listing})
    for name, recs in corpus.profiles:
        years = [year for year, *_ in recs]
        assert years == sorted(years, reverse=True)
        assert all(2015 <= y <= 2026 for y in years)
        assert all(code in CODES for *_, code in recs)
        for _, title, abstract, _ in recs:
            assert title and len(abstract.split()) >= 60
            twin = authors_of.get(norm(abstract))
            if twin is not None:
                assert name in twin


def test_abstract_statistics(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    lengths = [len(a.split()) for a in corpus.where]
    mean = sum(lengths) / len(lengths)
    assert 150 <= mean <= 210
    assert max(lengths) <= 400
    # diverse: no sentence sequence repeats, and abstracts differ at the start too
    assert len({a[:120] for a in corpus.where}) > 0.95 * len(corpus.where)


def test_years_and_categories_are_spread(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    years = Counter(int(str(r["versions"][0]["created"]).split()[3]) for r in corpus.json)  # type: ignore[index]
    assert set(years) <= set(range(2015, 2027)) and len(years) >= 8
    primaries = Counter(str(r["categories"]).split()[0] for r in corpus.json)
    assert primaries.most_common(1)[0][0] == "cs.LG"


def test_person_pool_has_non_ascii_names(run: tuple[synth.Summary, Corpus]) -> None:
    _, corpus = run
    names = {f"{f} {la}" for r in corpus.json for la, f, _ in r["authors_parsed"]}  # type: ignore[union-attr]
    assert any(not n.isascii() for n in names)
    # some JSON records spell accents the arXiv way (TeX), authors_parsed keeps Unicode
    assert any("\\" in str(r["authors"]) for r in corpus.json)


def test_subset_of_formats(tmp_path: Path) -> None:
    summary = synth.generate(120, tmp_path, formats=["listing", "daily"])
    assert {p.name.split("-")[0] for p in tmp_path.iterdir()} == {"listing", "daily"}
    assert summary.records["jsonl"] == summary.records["profile"] == 0
    corpus = Corpus(tmp_path)
    assert len(corpus.where) == 120


def test_only_profiles(tmp_path: Path) -> None:
    summary = synth.generate(100, tmp_path, formats=["profile"])
    corpus = Corpus(tmp_path)
    assert summary.files["profile"] == len(corpus.profiles) >= 2
    assert len(corpus.where) == 100


def test_bad_arguments(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        synth.generate(10, tmp_path, formats=["pdf"])
    with pytest.raises(ValueError):
        synth.generate(0, tmp_path)


def test_cli_prints_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert synth.main(["--papers", "40", "--out", str(tmp_path), "--seed", "3", "--formats", "jsonl,daily"]) == 0
    out = capsys.readouterr().out
    assert "duplicates" in out and "repo-link share" in out and "jsonl" in out


def test_every_template_fills() -> None:
    slots = {k: "x" for k in ("N", "M", "M2", "T", "T2", "D", "D2", "MET", "Y", "F", "P", "P2", "X", "K", "K2",
                              "B", "V")}
    banks = ("CONTEXT", "PROBLEM", "PROPOSAL", "METHOD", "THEORY", "EXPERIMENT", "RESULT", "CONCLUSION",
             "TITLES")
    total = 0
    for bank in banks:
        for template in getattr(sentences, bank):
            filled = template.format_map(slots)
            assert "{" not in filled.replace("\\mathbb{R}", "").replace("{d \\times r}", "").replace(
                "\\sqrt{T}", "").replace("\\tilde{O}", "").replace("\\sqrt{dT}", ""), template
            total += 1
    for template in sentences.CODE:
        assert template.format(URL="u").endswith("u")
    assert total >= 250
    assert len(sentences.METHODS) >= 150
    fields = {f for t in sentences.METHOD for _, f, _, _ in string.Formatter().parse(t) if f}
    assert fields <= set(slots)
