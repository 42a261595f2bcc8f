"""Issue 24: a build never destroys what it had, never misreads a file, and the first hour has no papercuts.

Each test is a case a user hit, run the way they ran it (the CLI through typer's runner, or the
library), asserting the exact outcome: exit code, message code, outputs untouched byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.build_folder import write_outputs
from kg.cli import app
from kg.errors import IssueLog, KgError
from kg.pipeline import Build, BuildOptions, build

runner = CliRunner()
MESSAGE = re.compile(r"^\S.*:\d+: (warning|error): .+ \[[a-z0-9]+(-[a-z0-9]+)*\]$")

DAILY = "Daily Papers\n\nWe propose a sparse mixture of adapters for continual learning of language models.\n"


def page(folder: Path, name: str = "feed.txt", text: str = DAILY) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def snapshot(out: Path) -> dict[str, str]:
    """Every file under ``out`` with the SHA-256 of its bytes (hidden leftovers included)."""
    return {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file()
    }


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def messages(output: str) -> list[str]:
    """The issue lines of a command's output, each checked against the house format."""
    lines = [line for line in output.splitlines() if re.search(r"\[[a-z0-9-]+\]$", line)]
    for line in lines:
        assert MESSAGE.match(line), line
    return lines


@pytest.fixture()
def good_build(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A folder of inputs and a good build of them, with its files' digests."""
    inputs = tmp_path / "in"
    page(inputs)
    page(inputs, "more.txt", DAILY.replace("sparse mixture", "dense mixture"))
    out = tmp_path / "out"
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1", "-q")
    assert code == 0, output
    return inputs, out, snapshot(out)


# ---------------------------------------------------------------- never lose a good build


def test_a_typo_in_the_input_path_is_a_usage_error_and_touches_nothing(
    good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    _, out, before = good_build
    code, output = run("build", str(tmp_path / "inz"), "--out", str(out), "-j", "1")
    assert code == 2
    assert messages(output) == [
        f"{tmp_path / 'inz'}:0: error: no such file or folder (expected an input file or folder) [missing-input]"
    ]
    assert snapshot(out) == before


def test_a_missing_path_among_good_ones_writes_nothing_either(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    page(inputs)
    out = tmp_path / "fresh"
    code, output = run("build", str(inputs), str(tmp_path / "gone.txt"), "--out", str(out))
    assert code == 2
    assert "[missing-input]" in output
    assert not out.exists()


def test_a_build_that_read_no_record_keeps_the_previous_outputs(
    good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    inputs, out, before = good_build
    for n, f in enumerate(sorted(inputs.iterdir())):
        f.write_bytes(bytes([n]) + b"\x00\x01\x02" * 100)  # every input fails
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1")
    assert code == 1
    lines = messages(output)
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["[binary-file]", "[binary-file]", "[outputs-kept]"]
    assert (
        lines[-1]
        == f"{out}:0: error: build read no records; {out} keeps its 2 papers (expected at least one record) [outputs-kept]"
    )
    assert snapshot(out) == before
    code, quiet = run("build", str(inputs), "--out", str(out), "-j", "1", "-q")
    assert code == 1
    assert quiet == output  # -q prints every error too, and why nothing was replaced
    assert snapshot(out) == before


def test_an_empty_folder_is_a_no_input_error(
    good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    _, out, before = good_build
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / ".hidden").write_text(DAILY)
    code, output = run("build", str(empty), "--out", str(out), "-j", "1")
    assert code == 1
    assert [line.rsplit(" ", 1)[1] for line in messages(output)] == ["[no-input]", "[outputs-kept]"]
    assert snapshot(out) == before


def test_an_empty_folder_into_a_new_out_is_an_error_not_a_silent_success(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, output = run("build", str(empty), "--out", str(tmp_path / "out"), "-j", "1", "-q")
    assert code == 1
    assert messages(output) == [
        f"{empty}:0: error: folder holds no input file (expected paper listings; hidden files are skipped) [no-input]"
    ]


def test_the_library_refuses_to_replace_papers_with_nothing(
    good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    _, out, before = good_build
    empty = tmp_path / "empty"
    empty.mkdir()
    log = IssueLog()
    result = build([empty], BuildOptions(cache=out), log)
    assert [i.code for i in log.issues] == ["no-input"]
    with pytest.raises(KgError) as caught:
        write_outputs(result, out)
    assert caught.value.code == "outputs-kept"
    assert snapshot(out) == before


def test_an_empty_build_may_replace_an_empty_build(tmp_path: Path) -> None:
    """Nothing held, nothing lost: a build of no records replaces one that had no papers either."""
    empty = tmp_path / "empty"
    empty.mkdir()
    out = tmp_path / "out"
    assert run("build", str(empty), "--out", str(out), "-j", "1", "-q")[0] == 1
    code, output = run("build", str(empty), "--out", str(out), "-j", "1", "-q")
    assert code == 1
    assert "[outputs-kept]" not in output


def test_a_half_readable_folder_keeps_the_previous_build(
    good_build: tuple[Path, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs, out, before = good_build
    import kg.reading as reading

    real = reading.digest

    def digest(path: Path) -> str:  # as a file made unreadable (root reads any file, so not chmod)
        if path.name == "more.txt":
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(reading, "digest", digest)
    os.utime(inputs / "more.txt", ns=(1, 1))  # so the build does not take its digest from the manifest
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1")
    assert code == 1
    codes = [line.rsplit(" ", 1)[1] for line in messages(output)]
    assert codes == ["[unreadable-file]", "[outputs-kept]"]
    assert "1 file(s) the previous build read cannot be read now (first: " in output
    assert snapshot(out) == before


def test_a_removed_file_is_a_change_the_build_takes(good_build: tuple[Path, Path, dict[str, str]]) -> None:
    inputs, out, _ = good_build
    (inputs / "more.txt").unlink()
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1")
    assert code == 0, output
    assert "1 papers, " in output


def test_a_wrong_out_that_kg_did_not_build_is_refused(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    page(inputs)
    mine = tmp_path / "project"
    (mine / "cache").mkdir(parents=True)
    (mine / "cache" / "precious.bin").write_bytes(b"mine")
    (mine / "graph.ttl").write_text("# my own graph\n")
    before = snapshot(mine)
    code, output = run("build", str(inputs), "--out", str(mine), "-j", "1")
    assert code == 2
    assert messages(output) == [
        f"{mine}:0: error: folder holds cache, graph.ttl but kg did not build it; a build would replace them "
        "(expected a new or empty folder, or one kg built: choose another --out) [not-a-build-folder]"
    ]
    assert snapshot(mine) == before


def test_an_unrelated_folder_is_a_fine_out(tmp_path: Path) -> None:
    inputs = tmp_path / "in"
    page(inputs)
    out = tmp_path / "docs"
    page(out, "notes.md", "# notes\n")
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1", "-q")
    assert code == 0, output
    assert (out / "notes.md").read_text() == "# notes\n"


def test_the_output_folder_inside_the_inputs_is_not_read_back(
    good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path
) -> None:
    inputs, _, _ = good_build
    out = inputs / "built"
    assert run("build", str(inputs), "--out", str(out), "-j", "1", "-q")[0] == 0
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1")
    assert code == 0, output
    warning = [line for line in messages(output) if "[output-folder]" in line]
    assert len(warning) == 1
    assert "cache, coauthors.html, graph.ttl, ledger.sqlite, manifest.json, store, topics.html" in warning[0]
    assert "2 papers" in output


def test_a_damaged_cache_and_manifest_rebuild_the_same_graph(
    good_build: tuple[Path, Path, dict[str, str]],
) -> None:
    inputs, out, before = good_build
    for entry in (out / "cache").iterdir():
        entry.write_bytes(entry.read_bytes()[:7])
    (out / "manifest.json").write_text("{ not json")
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1")
    assert code == 0, output
    assert "files read 2, reused from the cache 0" in output
    after = snapshot(out)
    assert after["graph.ttl"] == before["graph.ttl"]
    assert after["manifest.json"] == before["manifest.json"]


# ---------------------------------------------------------------- never misread a file

LISTING = (
    "论文检索\n\nDeep Learning · Everything Else\n\nAda Lovelace, Alan Turing\n\n"
    "We study continual learning with replay buffers and find that big buffers help a lot.\n"
)


def read(path: Path) -> tuple[int, list[str]]:
    """Papers built from one file, and the issue lines."""
    log = IssueLog()
    result = build([path], BuildOptions(taxonomies=False), log)
    return result.summary()["papers"], [str(i) for i in log.issues]


@pytest.mark.parametrize(
    ("name", "text", "looks"),
    [
        (
            "areas.json",
            '{"papers": [\n {"area": "Computer Science · Artificial Intelligence",\n'
            '  "authors": "Ada Lovelace, Alan Turing"},\n {"area": "Deep Learning · Everything Else",\n'
            '  "authors": "Grace Hopper, Alan Turing"}]}\n',
            "JSON",
        ),
        ("list.json", '[\n"Deep Learning · Everything Else",\n"Ada Lovelace, Alan Turing"\n]\n', "JSON"),
        ("rows.csv", 'area,authors\nDeep Learning · Everything Else,"Ada Lovelace, Alan Turing"\n', "CSV"),
        ("rows.tsv", "area\tauthors\nDeep Learning · Everything Else\tAda Lovelace\n", "TSV"),
        (
            "page.html",
            "<!DOCTYPE html>\n<html><body><p>Deep Learning · Everything Else</p></body></html>\n",
            "HTML",
        ),
        (
            "feed.xml",
            '<?xml version="1.0"?>\n<rss version="2.0"><channel></channel></rss>\n',
            "XML (root <rss>)",
        ),
        (
            "headerless.txt",
            "Deep Learning · Everything Else\n\nAda Lovelace, Alan Turing\n\nAn abstract.\n\n"
            "Theory · Learning Theory\n\nGrace Hopper, Alan Turing\n\nAnother abstract.\n",
            "",
        ),
    ],
)
def test_structured_files_are_never_read_as_pages(tmp_path: Path, name: str, text: str, looks: str) -> None:
    papers, issues = read(page(tmp_path, name, text))
    assert papers == 0
    [issue] = issues
    assert issue.endswith("[unknown-format]")
    kind = f"{looks} that no reader takes" if looks else "unrecognised format"
    assert f":1: error: {kind}, starts with " in issue
    assert MESSAGE.match(issue)


def test_a_page_is_known_by_its_own_header(tmp_path: Path) -> None:
    assert read(page(tmp_path, "listing.txt", LISTING)) == (1, [])


def test_stray_nul_bytes_are_removed_and_the_records_kept(tmp_path: Path) -> None:
    path = tmp_path / "scraped.txt"
    path.write_bytes(LISTING.replace("replay buffers", "replay\x00 buffers").encode())
    papers, issues = read(path)
    assert papers == 1
    assert issues == [
        f"{path}:7: warning: 1 NUL byte(s) removed from line (expected printable text) [control-characters]"
    ]
    log = IssueLog()
    result = build([path], BuildOptions(taxonomies=False), log)
    import pyoxigraph as ox

    abstracts = [
        q.object.value
        for q in result.store.quads_for_pattern(None, ox.NamedNode("http://purl.org/dc/terms/abstract"), None)
    ]
    assert abstracts == [
        "We study continual learning with replay buffers and find that big buffers help a lot."
    ]


def test_a_nul_byte_in_a_json_line_keeps_the_record(tmp_path: Path) -> None:
    line = '{"id": "2401.00001", "title": "Sparse\\u0000 adapters", "abstract": "We adapt\x00 sparsely.", "authors": "Ada Lovelace"}\n'
    path = tmp_path / "meta.jsonl"
    path.write_bytes(line.encode())
    papers, issues = read(path)
    assert papers == 1
    assert [i.rsplit(" ", 1)[1] for i in issues] == ["[control-characters]"]


def test_a_really_binary_file_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    path.write_bytes(b"Daily Papers\n" + b"\x00\x01" * 500)
    papers, issues = read(path)
    assert papers == 0
    assert issues == [
        f"{path}:1: error: file is binary, has 500 NUL bytes (expected UTF-8 text) [binary-file]"
    ]
    utf16 = tmp_path / "utf16.txt"
    utf16.write_bytes(DAILY.encode("utf-16-le"))
    assert read(utf16)[1][0].endswith("[binary-file]")


def test_a_pdf_is_reported_as_a_pdf(tmp_path: Path) -> None:
    path = tmp_path / "paper.txt"
    path.write_bytes(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")
    papers, issues = read(path)
    assert papers == 0
    assert issues == [
        f"{path}:1: error: file is a PDF document, not text (expected a listing saved as text, "
        "or a format of 'kg list readers') [unknown-format]"
    ]


FIVE = Path(__file__).resolve().parent / "cases" / "five-sources"


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("meta.jsonl", "meta.jsonl.gz"),
        ("oai.xml", "harvest.xml.gz"),
        ("atom.xml", "feed.xml.gz"),
        ("refs.bib", "refs.bib.gz"),
        ("profile.txt", "named-as-text.txt"),
    ],
)
def test_gzip_inputs_are_read_as_they_are(tmp_path: Path, source: str, name: str) -> None:
    import gzip

    plain = FIVE / source
    packed = tmp_path / name
    packed.write_bytes(gzip.compress(plain.read_bytes(), mtime=0))
    expected_papers, expected_issues = read(plain)
    papers, issues = read(packed)
    assert expected_papers >= 1
    assert papers == expected_papers
    assert [i.split(": ", 1)[1] for i in issues] == [i.split(": ", 1)[1] for i in expected_issues]


def test_a_damaged_gzip_file_is_an_error_and_the_records_before_the_damage_kept(tmp_path: Path) -> None:
    import gzip

    lines = [
        f'{{"id": "2401.{n:05d}", "title": "Paper {n} on sparse adapters", "abstract": "We study adapters {n} '
        + "at length " * 50
        + f'.", "authors": "Ada Lovelace, Author {n}"}}\n'
        for n in range(1, 400)
    ]
    blob = gzip.compress("".join(lines).encode(), mtime=0)
    path = tmp_path / "cut.jsonl.gz"
    path.write_bytes(blob[: len(blob) * 2 // 3])
    papers, issues = read(path)
    assert 0 < papers < 399
    [issue] = issues
    assert issue.endswith("(expected a complete gzip file) [bad-gzip]")
    assert " error: compressed data is damaged after line " in issue
    head = tmp_path / "head.jsonl.gz"
    head.write_bytes(blob[:30])
    assert read(head) == (
        0,
        [
            f"{head}:1: error: gzip file is damaged (Compressed file ended before the end-of-stream marker was reached; expected a complete gzip file) [bad-gzip]"
        ],
    )


@pytest.mark.parametrize(
    ("text", "repositories"),
    [
        (
            "Code: https://github.com/ai-lab/Volcanogithub.com/geo-lab/quake-net and more.",
            ["ai-lab/Volcano", "geo-lab/quake-net"],
        ),
        ("Data: https://example.org/Sealinghttps://github.com/seal-lab/seal-net.", ["seal-lab/seal-net"]),
        ("Code is at _https://github.com/md-lab/emph-net_ now.", ["md-lab/emph-net"]),
        ("Code is at __https://github.com/md-lab/bold_net__.", ["md-lab/bold_net"]),
        (r"Code: \hrefhttps://github.com/tex-lab/href-net{link 1}.", ["tex-lab/href-net"]),
        ("Mirror: https://web.archive.org/web/2020/https://github.com/a/b (archived).", []),
        ("Pages repo: https://github.com/user/user.github.com.", ["user/user.github.com"]),
    ],
)
def test_github_links_glued_to_neighbours_are_split(text: str, repositories: list[str]) -> None:
    from kg.extractors.links import find_links

    found = [f"{f.owner}/{f.name}" for f in find_links(text) if f.kind == "repository"]
    assert found == repositories


def test_a_bibtex_href_keeps_its_repository(tmp_path: Path) -> None:
    bib = (
        "@article{a,\n  title = {Href Net},\n  author = {Lovelace, Ada},\n  year = {2024},\n"
        "  abstract = {Code at \\href{https://github.com/tex-lab/href-net}{link 1} and "
        "\\hrefhttps://github.com/tex-lab/lost-braces{link 2}.}\n}\n"
    )
    path = page(tmp_path, "refs.bib", bib)
    log = IssueLog()
    result = build([path], BuildOptions(taxonomies=False), log)
    import pyoxigraph as ox

    repos = sorted(
        q.object.value
        for q in result.store.quads_for_pattern(None, ox.NamedNode("https://schema.org/codeRepository"), None)
    )
    assert repos == ["https://github.com/tex-lab/href-net", "https://github.com/tex-lab/lost-braces"]


def test_acm_and_msc_classes_are_not_arxiv_subjects(tmp_path: Path) -> None:
    rows = [
        '{"id": "2505.00001", "title": "Idioms", "abstract": "We study idioms.", "authors": ["Ada Lovelace"], '
        '"categories": ["cs.CL", "cs.CV", "I.2.7; I.4.m"]}',
        '{"id": "2505.00002", "title": "Scenes", "abstract": "We study scenes.", "authors": "Alan Turing", '
        '"categories": "cs.CV 68T45 I.2.7; I.2.10"}',
    ]
    path = page(tmp_path, "daily.jsonl", "\n".join(rows) + "\n")
    log = IssueLog()
    result = build([path], BuildOptions(taxonomies=False), log)
    assert log.issues == []
    import pyoxigraph as ox

    subjects = sorted(
        q.object.value.rsplit("/", 1)[1]
        for q in result.store.quads_for_pattern(None, ox.NamedNode("http://purl.org/dc/terms/subject"), None)
    )
    assert subjects == ["cs.CL", "cs.CV", "cs.CV"]


def test_every_repository_has_its_url_on_the_seeds(seed_build: Build) -> None:
    import pyoxigraph as ox

    store = seed_build.store
    rows = list(
        store.query(
            "SELECT ?r ?url WHERE { ?r a <https://schema.org/SoftwareSourceCode> OPTIONAL { ?r <https://schema.org/url> ?url } }"
        )
    )
    assert len(rows) == 17
    assert all(row["url"] is not None for row in rows)
    assert all(
        isinstance(row["url"], ox.Literal) and row["url"].value.lower() == row["r"].value for row in rows
    )


def test_areas_sharing_a_leaf_are_told_apart_in_every_label(seed_build: Build) -> None:
    from kg import project

    store = seed_build.store
    rows = list(
        store.query(
            "SELECT ?label WHERE { ?p <https://w3id.org/kg/ns#area> ?a . ?a <http://www.w3.org/2004/02/skos/core#prefLabel> ?label }"
        )
    )
    labels = {row["label"].value for row in rows}
    assert {"Deep Learning · Everything Else", "Optimization · Everything Else"} <= labels
    assert "Everything Else" not in labels
    view = project.view(store, "papers")
    shown = [d["label"] for _, d in view.nodes(data=True) if d["type"] == "area"]
    assert len(shown) == len(set(shown))
    assert "Optimization · Everything Else" in shown


# ---------------------------------------------------------------- every file kg writes opens everywhere

HOSTILE_NAMES = [
    "Antonio Laverghetta Jr.",
    "A. B. Smith Jr.",
    "Ends With Dot.",
    'Zoë "Quote" O\'Brien',
    "Back\\slash Person",
    "Émile <Angle> Ampère&Co",
    "%Percent #Hash Name",
    "-Leading Hyphen",
    "中文 名字",
    "Mx. 🙂 Emoji",
]
HOSTILE_TITLES = [
    "A \"quoted\" title with \\ a backslash and 'single' quotes.",
    'Triple """ quotes, <angle> & ampersand, and a \\t written out',
    "Ends with a dot.",
    "Unicode 𝔸𝔹 \u00e9\u0301 and \\u0041 written out",
]


def test_every_rdf_file_kg_writes_parses_in_rdflib_and_oxigraph(tmp_path: Path) -> None:
    import gzip
    import json

    import pyoxigraph as ox
    import rdflib

    rows = [
        json.dumps(
            {
                "id": f"2401.{n:05d}",
                "title": HOSTILE_TITLES[n % len(HOSTILE_TITLES)],
                "abstract": f"We study {HOSTILE_TITLES[n % len(HOSTILE_TITLES)]} Code: https://github.com/o{n}/r.{n}.",
                "authors": ", ".join(HOSTILE_NAMES[n : n + 3]),
                "categories": "cs.LG",
            },
            ensure_ascii=False,
        )
        for n in range(len(HOSTILE_NAMES))
    ]
    inputs = page(tmp_path / "in", "meta.jsonl", "\n".join(rows) + "\n")
    out = tmp_path / "out"
    code, output = run(
        "build", str(inputs), "--out", str(out), "--shards", str(tmp_path / "shards"), "-j", "1", "-q"
    )
    assert code == 0, output
    files: dict[str, tuple[Path, str, ox.RdfFormat]] = {
        "graph.ttl": (out / "graph.ttl", "turtle", ox.RdfFormat.TURTLE)
    }
    for name, suffix, rdflib_format, ox_format in (
        ("turtle", "ttl", "turtle", ox.RdfFormat.TURTLE),
        ("ntriples", "nt", "nt", ox.RdfFormat.N_TRIPLES),
        ("nquads", "nq", "nquads", ox.RdfFormat.N_QUADS),
        ("jsonld", "jsonld", "json-ld", ox.RdfFormat.JSON_LD),
    ):
        code, output = run("export", name, "--out", str(out))
        assert code == 0, output
        files[name] = (out / "export" / f"graph.{suffix}", rdflib_format, ox_format)
    for shard in sorted((tmp_path / "shards").glob("*.nq.gz")):
        plain = tmp_path / (shard.name.removesuffix(".gz"))
        plain.write_bytes(gzip.decompress(shard.read_bytes()))
        files[shard.name] = (plain, "nquads", ox.RdfFormat.N_QUADS)
    assert any(name.endswith(".nq.gz") for name in files)
    sizes = {}
    for name, (path, rdflib_format, ox_format) in files.items():
        if rdflib_format == "nquads":
            dataset = rdflib.Dataset()
            dataset.parse(path, format="nquads")
            in_rdflib = len(list(dataset.quads((None, None, None, None))))
        else:
            in_rdflib = len(rdflib.Graph().parse(path, format=rdflib_format))
        with path.open("rb") as f:
            in_oxigraph = sum(1 for _ in ox.parse(f, format=ox_format))
        assert in_rdflib == in_oxigraph > 0, name
        sizes[name] = in_oxigraph
    shards = sum(n for name, n in sizes.items() if name.endswith(".nq.gz"))
    assert sizes["graph.ttl"] == sizes["turtle"] == sizes["ntriples"] == sizes["jsonld"]
    assert sizes["nquads"] == shards >= sizes["graph.ttl"]
    graph = rdflib.Graph().parse(out / "graph.ttl", format="turtle")
    names = {str(o) for o in graph.objects(None, rdflib.FOAF.name)}
    assert set(HOSTILE_NAMES) <= names
    assert set(HOSTILE_TITLES) - {HOSTILE_TITLES[3]} <= {
        str(o) for o in graph.objects(None, rdflib.DCTERMS.title)
    }
    persons = {str(s) for s in graph.subjects(rdflib.RDF.type, rdflib.FOAF.Person)}
    assert "https://w3id.org/kg/id/person/antonio_laverghetta_jr" in persons
    assert "https://w3id.org/kg/id/person/a._b._smith_jr" in persons
    assert not any(p.endswith(".") for p in persons)
    assert "\\." not in (out / "graph.ttl").read_text(encoding="utf-8")


# ---------------------------------------------------------------- the first hour


def test_kg_open_binds_every_prefix_kg_query_predeclares(seed_outputs: Path) -> None:
    import kg as library
    from kg.vocab import PREFIXES

    graph = library.open(seed_outputs)
    bound = {name: str(iri) for name, iri in graph.namespaces()}
    assert {name: bound.get(name) for name in PREFIXES} == dict(PREFIXES)
    rows = list(graph.query("SELECT ?p WHERE { ?p kg:paperCount ?n } LIMIT 3"))
    assert len(rows) == 3


def test_limit_raises_and_lowers_a_named_querys_own_cap(seed_outputs: Path) -> None:
    def rows(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, ["query", "top-authors", "--out", str(seed_outputs), "-f", "tsv", *args])
        assert result.exit_code == 0, result.output
        return len(result.stdout.splitlines()) - 1, result.stderr

    assert rows()[0] == 20  # its own cap
    assert rows("--limit", "50") == (50, "kg query: stopped at 50 rows (more exist; raise --limit)\n")
    assert rows("--limit", "100") == (70, "")  # every author the seeds have, and nothing said
    assert rows("--limit", "5")[0] == 5
    assert rows("-p", "limit=3", "--limit", "7")[0] == 7  # one cap: --limit is the named query's limit=


def test_serve_on_a_busy_port_says_so_in_one_line(seed_outputs: Path) -> None:
    import socket

    pytest.importorskip("uvicorn")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        result = runner.invoke(app, ["serve", "--out", str(seed_outputs), "--port", str(port)])
    assert result.exit_code == 1
    assert result.output == (
        f"error: cannot listen on 127.0.0.1:{port}: Address already in use "
        "(expected a free port; choose another with --port) [port-in-use]\n"
    )


def test_serve_checks_the_store_before_printing_a_url(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    result = runner.invoke(app, ["serve", "--out", str(tmp_path / "none"), "--port", "0"])
    assert result.exit_code == 1
    assert (
        result.output
        == f"error: no built graph in {tmp_path / 'none'} (run 'kg build --out {tmp_path / 'none'}' first) [no-store]\n"
    )


def test_http_errors_speak_http_and_endpoint_paths_match_oxigraph(seed_outputs: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from kg.server import ServerOptions, create_app

    with TestClient(create_app(ServerOptions(out=seed_outputs, workers=1))) as client:
        missing = client.get("/queries/coauthors")
        assert missing.status_code == 400
        assert "parameter 'author' is required" in missing.text
        assert "--param" not in missing.text
        unknown = client.get("/queries/top-author")
        assert unknown.status_code == 404
        assert unknown.text.startswith("unknown query 'top-author'; did you mean top-authors? choose from: ")
        count = "SELECT (COUNT(*) AS ?n) WHERE { ?s a foaf:Person }"
        answers = [
            client.get(path, params={"query": count}, headers={"Accept": "text/csv"}).text
            for path in ("/query", "/sparql")
        ]
        assert answers[0] == answers[1] and answers[0].startswith("n\r\n")
        for path in ("/views/coauthors", "/views/coauthors.html", "/views/topics"):
            page = client.get(path)
            assert page.status_code == 200 and page.text.startswith("<!DOCTYPE html>"), path
        wrong = client.get("/views/coauthor")
        assert wrong.status_code == 404 and "did you mean coauthors.html?" in wrong.text


def test_readme_endpoint_examples_use_paths_both_servers_answer() -> None:
    root = Path(__file__).resolve().parents[1]
    # the README and the pages its guide and views sections moved to
    readme = "\n".join(
        (root / name).read_text(encoding="utf-8") for name in ("README.md", "docs/guide.md", "docs/views.md")
    )
    urls = re.findall(r"http://(?:127\.0\.0\.1|localhost|HOST):7878(/[A-Za-z/{}._-]*)", readme)
    assert urls
    served = {"/query", "/store", "/sparql", "/", "/graph", "/queries"}
    for path in urls:
        assert path in served or path.startswith(("/queries/", "/views/")), path
    # the endpoint a reader is told to point kg query/viz/load at works against oxigraph serve too
    for line in readme.splitlines():
        if "--endpoint http" in line and "7878" in line:
            assert "7878/query" in line or "7878/store" in line, line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["query", "top-author"], "unknown query 'top-author'; did you mean top-authors?"),
        (["query", "summary", "-f", "jsn"], "unknown format 'jsn'; did you mean json?"),
        (["export", "grahpml"], "unknown exporter 'grahpml'; did you mean graphml?"),
        (["export", "graphml", "--view", "coauthor"], "unknown view 'coauthor'; did you mean coauthors?"),
        (["viz", "coautors"], "unknown view 'coautors'; did you mean coauthors?"),
    ],
)
def test_unknown_names_suggest_the_nearest(seed_outputs: Path, args: list[str], said: str) -> None:
    from kg.cli import main

    result = runner.invoke(app, [*args, "--out", str(seed_outputs)])
    if result.exit_code != 2:  # a UsageError the console script turns into exit 2
        assert isinstance(result.exception, KgError), result.output
        with pytest.raises(SystemExit) as exited:
            import sys

            old = sys.argv
            sys.argv = ["kg", *args, "--out", str(seed_outputs)]
            try:
                main()
            finally:
                sys.argv = old
        assert exited.value.code == 2
        assert said in str(result.exception)
    else:
        assert said in result.output


def test_an_unknown_extractor_given_to_the_library_is_an_error(tmp_path: Path) -> None:
    from kg.errors import UsageError

    inputs = page(tmp_path / "in")
    with pytest.raises(UsageError) as caught:
        build([inputs], BuildOptions(extractors=("authors", "link")), IssueLog())
    assert caught.value.code == "unknown-extractor"
    assert "unknown extractor 'link'; did you mean links?" in str(caught.value)
    assert build([inputs], BuildOptions(extractors=("authors", "links")), IssueLog()).summary()["papers"] == 1


def test_kg_list_help_names_everything_it_lists_and_output_has_no_markup() -> None:
    result = runner.invoke(app, ["list", "--help"])
    assert result.exit_code == 0
    listed = re.findall(r"^  (\w+)  ", result.output, re.MULTILINE)
    assert sorted(listed) == ["exporters", "extractors", "figures", "issues", "queries", "readers", "views"]
    first = " ".join(result.output.split("Options:")[0].split())
    for word in listed:
        assert word.rstrip("s") in first, word
    for table in listed:
        shown = runner.invoke(app, ["list", table]).output
        assert "``" not in shown and ":func:" not in shown and ":class:" not in shown, table


def test_every_issue_code_is_documented() -> None:
    """Each code a build reports (``log.warn``/``log.error``) and each new code of issue 24 is in the docs' list
    (``docs/reference.md``, generated from ``kg/issue_codes.py``; the README's list moved there)."""
    root = Path(__file__).resolve().parents[1]
    readme = (root / "docs" / "reference.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([a-z][a-z0-9]*(?:-[a-z0-9]+)*)`", readme))
    reported: set[str] = set()
    for path in (root / "kg").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        reported |= set(
            re.findall(r"\.(?:warn|error)\(\s*Location\((?:[^()]|\([^()]*\))*\),\s*\"([a-z0-9-]+)\"", text)
        )
        reported |= set(re.findall(r"\.(?:warn|error)\(\s*[\w.]+,\s*\"([a-z0-9-]+)\"", text))
    assert len(reported) > 30
    new = {
        "missing-input",
        "no-input",
        "outputs-kept",
        "not-a-build-folder",
        "output-folder",
        "bad-gzip",
        "port-in-use",
        "unknown-extractor",
        "unknown-query",
        "unknown-view",
        "unknown-exporter",
    }
    assert (reported | new) - listed == set()


def test_csv_areas_are_parent_and_child_once(seed_outputs: Path, tmp_path: Path) -> None:
    import csv

    result = runner.invoke(
        app, ["export", "csv", "--out", str(seed_outputs), "--output", str(tmp_path / "csv")]
    )
    assert result.exit_code == 0, result.output
    with (tmp_path / "csv" / "papers.csv").open(encoding="utf-8", newline="") as f:
        cells = {row["areas"] for row in csv.DictReader(f)} - {""}
    assert "Deep Learning · Everything Else" in cells and "Optimization · Everything Else" in cells
    assert all(part.count(" · ") == 1 for cell in cells for part in cell.split("; ")), cells
