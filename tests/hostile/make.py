"""Write the hostile corpus: every kind of bad input kg must survive, mixed with good records.

The large files (a 50 MB line, a 1 MB abstract, 10,000 authors) are generated,
never committed; the small hand-written attack files beside this script
(``*.xml``, ``*.jsonl``, ``*.bib``) are copied in.  :func:`make` returns what a
build of the corpus must show: the good records, the hostile titles and names
as they must come back (cleaned as the README says: NFC, no control or
bidi-override characters, and in the structured formats whitespace collapsed),
and the files that must fail.

Usage::

    python tests/hostile/make.py OUT [--no-large]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from kg.readers.text import SNIFF_BYTES, clean  # noqa: E402

HOSTILE: dict[str, str] = {
    "html": '<b>Bold</b>&amp;<i>"Q"</i><img src=x onerror=alert(1)>',
    "script": "<script>alert('kg')</script>",
    "sparql": 'x" } ; DROP ALL ; #',
    "turtle": '"> . <http://evil> <http://evil> <http://evil> .',
    "newline": "first line\nsecond line",
    "nul": "nul\x00byte",
    "rtl": "abc\u202edcba\u202c end",
}
"""Hostile text put in titles, author names and abstracts of every format."""

PAGE_NEWLINE = "first line\u2028second\u0085line"
"""A page line cannot hold a line end: page formats get Unicode's other line separators instead."""

PAD_LINES = SNIFF_BYTES + 10
"""Blank lines that push a record past the format-detection window (a NUL there is not a binary file)."""

EVIL = "http://evil"
ATOM = "http://www.w3.org/2005/Atom"

ABSTRACT = (
    "We study {what} with a simple baseline and report results on standard benchmarks; "
    "the method is easy to reproduce and the code is released."
)


@dataclass
class Corpus:
    """A written hostile corpus and what a build of it must show."""

    root: Path
    titles: set[str] = field(default_factory=set)
    """Titles of good records and hostile-titled records, as they must appear in the graph."""
    abstracts: set[str] = field(default_factory=set)
    """Abstracts of title-less good and hostile records (listing, daily)."""
    names: set[str] = field(default_factory=set)
    """Hostile author names, as they must appear in the graph (names are whitespace-normalized)."""
    failing: set[str] = field(default_factory=set)
    """Files (relative to ``root``) that must have an error."""
    warned: dict[str, set[str]] = field(default_factory=dict)
    """File (relative to ``root``) -> issue codes it must have."""
    notes: list[str] = field(default_factory=list)
    """Parts of the corpus that could not be made here, and why."""

    def expect(self, name: str, *codes: str) -> None:
        self.warned.setdefault(name, set()).update(codes)


def structured(value: str) -> str:
    """A value as XML, JSON and BibTeX fields and all names are stored: cleaned, whitespace collapsed."""
    return clean(" ".join(value.split()))


def page_value(value: str) -> str:
    return PAGE_NEWLINE if "\n" in value else value


def latex(value: str) -> str:
    """A value escaped for BibTeX (and arXiv's LaTeX author strings)."""
    out = value.replace("\\", r"\textbackslash{}")
    for ch in "{}&%$#_":
        out = out.replace(ch, "\\" + ch)
    return out.replace("~", r"\textasciitilde{}")


def hostile_items(fmt: str) -> list[tuple[str, str]]:
    """(key, text) pairs of one format, the NUL one last (it goes past the sniff window)."""
    items = [(key, value) for key, value in HOSTILE.items() if key != "nul"]
    return [*items, ("nul", HOSTILE["nul"])]


def good(fmt: str, n: int) -> tuple[str, str]:
    return f"Good {fmt} paper number {n}", ABSTRACT.format(what=f"good {fmt} record {n}")


# ---------------------------------------------------------------- page formats


def write_profile(c: Corpus) -> None:
    lines = [
        "arXiv subjects",
        "Ada Hostile",
        "Publications and source records attributed to Ada Hostile.",
        "At least 9 records",
    ]

    def record(year: int, title: str, abstract: str) -> list[str]:
        return [f"arXiv{year}", title, abstract, "cs.LG↗"]

    t, a = good("profile", 1)
    lines += record(2024, t, a)
    c.titles.add(t)
    for key, value in hostile_items("profile"):
        if key == "nul":
            lines += [""] * PAD_LINES
        title = f"profile {key} {page_value(value)}"
        lines += record(2023, title, ABSTRACT.format(what=f"hostile profile title {key}"))
        c.titles.add(clean(title))
    t, a = good("profile", 2)
    lines += record(2022, t, a)
    c.titles.add(t)
    _write(c, "profile.txt", "\n\n".join(lines))
    c.expect("profile.txt", "control-characters")
    # the profile's person is a hostile name too (no NUL: the header lies in the detection window)
    for key, value in HOSTILE.items():
        if key == "nul":
            continue
        name = f"{page_value(value)} person"
        t, a = good(f"profile-{key}", 1)
        _write(
            c,
            f"profile-person-{key}.txt",
            "\n\n".join(
                [
                    "arXiv subjects",
                    name,
                    f"Publications and source records attributed to {name}.",
                    "arXiv2021",
                    t,
                    a,
                ]
            ),
        )
        c.titles.add(t)
        c.names.add(structured(name))
        c.expect(f"profile-person-{key}.txt", "missing-subject")


def write_listing(c: Corpus) -> None:
    lines = ["论文检索"]
    for n in (1, 2):
        _, a = good("listing", n)
        lines += ["Deep Learning · Everything Else", f"Ada Lovelace, Listing Author {'ABCDEF'[n]}", a]
        c.abstracts.add(a)
    for key, value in hostile_items("listing"):
        name = f"{page_value(value)} listing"
        if key == "nul":
            lines += [""] * PAD_LINES
        abstract = ABSTRACT.format(what=f"hostile listing author {key}")
        # the hostile name first: a line ending in "." reads as an abstract, not as authors
        lines += ['<script>alert(1)</script> · x" } ; DROP ALL ; #', f"{name}, Alan Turing", abstract]
        c.abstracts.add(abstract)
        c.names.add(structured(name))
    _, a = good("listing", 3)
    lines += ["Theory · Learning Theory", "Grace Hopper, Listing Author G", a]
    c.abstracts.add(a)
    _write(c, "listing.txt", "\n\n".join(lines))
    c.expect("listing.txt", "control-characters")


def write_daily(c: Corpus) -> None:
    lines = ["Daily Papers"]
    _, a = good("daily", 1)
    lines.append(a)
    c.abstracts.add(a)
    for key, value in hostile_items("daily"):
        if key == "nul":
            lines += [""] * PAD_LINES
        abstract = f"daily {key} {page_value(value)} " + ABSTRACT.format(what=f"hostile daily abstract {key}")
        lines.append(abstract)
        c.abstracts.add(clean(abstract))
    _, a = good("daily", 2)
    lines.append(a)
    c.abstracts.add(a)
    _write(c, "daily.txt", "\n\n".join(lines))
    c.expect("daily.txt", "control-characters")


# ---------------------------------------------------------------- structured formats


def _atom_entry(n: int, title: str, names: list[str], abstract: str) -> str:
    authors = "".join(f"<author><name>{escape(a)}</name></author>" for a in names)
    return (
        f"<entry>\n<id>http://arxiv.org/abs/2401.{n:05d}v1</id>\n"
        f"<published>2024-01-02T00:00:00Z</published>\n<title>{escape(title)}</title>\n"
        f"<summary>{escape(abstract)}</summary>\n{authors}\n"
        '<arxiv:primary_category term="cs.LG"/><category term="cs.LG"/>\n</entry>\n'
    )


def write_atom(c: Corpus) -> None:
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
    ]
    t, a = good("atom", 1)
    parts.append(_atom_entry(101, t, ["Ada Lovelace"], a))
    c.titles.add(t)
    for i, (key, value) in enumerate(hostile_items("atom")):
        if key == "nul":
            parts.append("\n" * PAD_LINES)
        title, name = f"atom {key} {value}", f"{value} atom"
        parts.append(_atom_entry(110 + i, title, [name, "Alan Turing"], ABSTRACT.format(what=f"atom {key}")))
        c.titles.add(structured(title))
        c.names.add(structured(name))
    t, a = good("atom", 2)
    parts.append(_atom_entry(102, t, ["Ada Lovelace"], a))
    c.titles.add(t)
    parts.append("</feed>\n")
    _write(c, "atom.xml", "".join(parts))
    c.expect("atom.xml", "control-characters")


def _oai_record(n: int, title: str, names: list[str], abstract: str) -> str:
    authors = "".join(f"<author><keyname>{escape(a)}</keyname></author>" for a in names)
    return (
        f"<record><header><identifier>oai:arXiv.org:2402.{n:05d}</identifier></header>\n"
        f'<metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2402.{n:05d}</id>'
        f"<created>2024-02-01</created><authors>{authors}</authors>\n"
        f"<title>{escape(title)}</title><categories>cs.LG</categories>\n"
        f"<abstract>{escape(abstract)}</abstract></arXiv></metadata></record>\n"
    )


def write_oai(c: Corpus) -> None:
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">\n'
        "<ListRecords>\n"
    ]
    t, a = good("oai", 1)
    parts.append(_oai_record(201, t, ["Lovelace"], a))
    c.titles.add(t)
    for i, (key, value) in enumerate(hostile_items("oai")):
        if key == "nul":
            parts.append("\n" * PAD_LINES)
        title, name = f"oai {key} {value}", f"{value} oai"
        parts.append(_oai_record(210 + i, title, [name], ABSTRACT.format(what=f"oai {key}")))
        c.titles.add(structured(title))
        c.names.add(structured(name))
    parts.append("</ListRecords>\n</OAI-PMH>\n")
    _write(c, "oai.xml", "".join(parts))
    c.expect("oai.xml", "control-characters")


def _json_record(n: int, title: object, names: list[str], abstract: object) -> str:
    return json.dumps(
        {
            "id": f"2403.{n:05d}",
            "title": title,
            "abstract": abstract,
            "authors_parsed": [["", latex(a), ""] for a in names],
            "categories": "cs.LG",
            "versions": [{"version": "v1", "created": "Mon, 4 Mar 2024 10:00:00 GMT"}],
        },
        ensure_ascii=False,
    )


def write_jsonl(c: Corpus) -> None:
    lines = []
    t, a = good("jsonl", 1)
    lines.append(_json_record(301, t, ["Ada Lovelace"], a))
    c.titles.add(t)
    for i, (key, value) in enumerate(hostile_items("jsonl")):
        title, name = f"jsonl {key} {value}", f"{value} jsonl"
        lines.append(
            _json_record(310 + i, title, [name, "Alan Turing"], ABSTRACT.format(what=f"jsonl {key}"))
        )
        c.titles.add(structured(title))
        c.names.add(structured(name))
    t, a = good("jsonl", 2)
    lines.append(_json_record(302, t, ["Ada Lovelace"], a))
    c.titles.add(t)
    _write(c, "meta.jsonl", "\n".join(lines) + "\n")


def _bib_entry(key: str, title: str, names: list[str], abstract: str) -> str:
    authors = " and ".join(latex(a) for a in names)
    return (
        f"@article{{{key},\n  title = {{{latex(title)}}},\n  author = {{{authors}}},\n"
        f"  year = {{2020}},\n  abstract = {{{latex(abstract)}}},\n}}\n\n"
    )


def write_bibtex(c: Corpus) -> None:
    parts = ["% hostile BibTeX\n\n"]
    t, a = good("bibtex", 1)
    parts.append(_bib_entry("good1", t, ["Lovelace, Ada"], a))
    c.titles.add(t)
    for key, value in hostile_items("bibtex"):
        if key == "nul":
            parts.append("\n" * PAD_LINES)
        title, name = f"bibtex {key} {value}", f"{value} bibtex"
        parts.append(_bib_entry(f"hostile-{key}", title, [name, "Turing, Alan"], ABSTRACT.format(what=key)))
        c.titles.add(structured(title))
        c.names.add(structured(name))
    t, a = good("bibtex", 2)
    parts.append(_bib_entry("good2", t, ["Lovelace, Ada"], a))
    c.titles.add(t)
    _write(c, "refs.bib", "".join(parts))
    c.expect("refs.bib", "control-characters")


# ---------------------------------------------------------------- bytes and encodings


def write_encodings(c: Corpus) -> None:
    _write_bytes(c, "empty.txt", b"", fails="empty-file")
    _write_bytes(c, "whitespace.txt", b" \t\r\n\n \n", fails="empty-file")
    _write_bytes(c, "binary.bin", bytes(range(256)) * 64, fails="binary-file")
    _write_bytes(c, "binary-no-nul.bin", bytes(range(128, 256)) * 64, fails="not-utf8")
    # a few bytes that are not UTF-8 cost a warning each and the bytes, not the file
    _write_bytes(c, "latin1.txt", "Daily Papers\n\nCafé, naïve façade.\n".encode("latin-1"))
    c.expect("latin1.txt", "bad-utf8")
    _write_bytes(c, "utf16le.txt", "Daily Papers\n\nAn abstract.\n".encode("utf-16"), fails="not-utf8")
    _write_bytes(c, "utf16be.txt", b"\xfe\xff" + "Daily Papers\n".encode("utf-16-be"), fails="not-utf8")
    _write_bytes(
        c, "utf16-no-bom.txt", "Daily Papers\n\nAn abstract.\n".encode("utf-16-le"), fails="binary-file"
    )
    _write_bytes(c, "notes.md", b"# My notes\n\nNothing here.\n", fails="unknown-format")
    # a UTF-8 byte order mark and CRLF line ends: read as if neither were there
    t, a = good("bom-crlf", 1)
    page = "\r\n\r\n".join(["arXiv subjects", "Bom Person", "arXiv2020", t, a, "cs.LG↗"]) + "\r\n"
    _write_bytes(c, "bom-crlf.txt", b"\xef\xbb\xbf" + page.encode())
    c.titles.add(t)
    t, a = good("bom-crlf-jsonl", 1)
    _write_bytes(
        c, "bom-crlf.jsonl", b"\xef\xbb\xbf" + (_json_record(401, t, ["Ada Lovelace"], a) + "\r\n").encode()
    )
    c.titles.add(t)
    # cut in the middle of a UTF-8 sequence: the record stays, the broken character is reported
    _, a = good("cut-utf8", 1)
    _write_bytes(c, "cut-utf8.txt", ("Daily Papers\n\n" + a + " caf\u00e9").encode()[:-1])
    c.abstracts.add(a + " caf\ufffd")
    c.expect("cut-utf8.txt", "bad-utf8")
    # a broken sequence in the middle of a file, past the detection window
    _, a = good("mid-utf8", 1)
    _write_bytes(c, "mid-utf8.txt", b"Daily Papers\n\n" + b"\n" * PAD_LINES + a.encode() + b" \xe2\x82 end\n")
    c.abstracts.add(a + " \ufffd end")
    c.expect("mid-utf8.txt", "bad-utf8")
    # issue 24: a stray NUL in a scraped page is removed and the record kept
    _, a = good("stray-nul", 1)
    _write_bytes(c, "stray-nul.txt", ("Daily Papers\n\n" + a[:20] + "\x00" + a[20:] + "\n").encode())
    c.abstracts.add(a)
    c.expect("stray-nul.txt", "control-characters")
    # a JSON document quoting a listing's lines is no listing; a PDF is a PDF
    quoted = '{"papers": [{"area": "Computer Science · Artificial Intelligence", "authors": "A, B"},\n'
    _write_bytes(c, "quoted-listing.json", (quoted * 40 + "]}\n").encode(), fails="unknown-format")
    _write_bytes(c, "paper.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", fails="unknown-format")
    # gzip-compressed, read as it is; damaged, an error
    t, a = good("gzip-jsonl", 1)
    packed = gzip.compress((_json_record(402, t, ["Ada Lovelace"], a) + "\n").encode(), mtime=0)
    _write_bytes(c, "packed.jsonl.gz", packed)
    c.titles.add(t)
    _write_bytes(c, "cut.jsonl.gz", packed[: len(packed) // 2], fails="bad-gzip")


def write_truncated(c: Corpus) -> None:
    """Files cut in the middle of a record, in each format."""
    _, a = good("cut-listing", 1)
    _write(
        c,
        "cut-listing.txt",
        f"论文检索\n\nDeep Learning · Vision\n\nAda Lovelace\n\n{a}\n\nTheory · Bandits\n\nGrace Hop",
    )
    c.abstracts.add(a)
    c.expect("cut-listing.txt", "truncated-record")
    t, a = good("cut-atom", 1)
    entry = _atom_entry(501, t, ["Ada Lovelace"], a)
    cut = _atom_entry(502, "Cut off", ["Ada Lovelace"], "An abstract that")
    _write(c, "cut-atom.xml", f'<feed xmlns="http://www.w3.org/2005/Atom">\n{entry}{cut[: len(cut) // 2]}')
    c.titles.add(t)
    c.expect("cut-atom.xml", "truncated-record")
    t, a = good("cut-jsonl", 1)
    line = _json_record(601, "Cut off", ["Ada Lovelace"], "An abstract")
    _write(c, "cut.jsonl", _json_record(602, t, ["Ada Lovelace"], a) + "\n" + line[: len(line) // 2])
    c.titles.add(t)
    c.expect("cut.jsonl", "bad-json")
    t, a = good("cut-bibtex", 1)
    bad = _bib_entry("cut", "Cut off", ["Ada Lovelace"], "An abstract")
    _write(c, "cut.bib", _bib_entry("ok", t, ["Ada Lovelace"], a) + bad[: len(bad) // 2])
    c.titles.add(t)
    c.expect("cut.bib", "bad-bibtex-entry")


# ---------------------------------------------------------------- large inputs


def write_large(c: Corpus) -> None:
    # a 50 MB line in a daily feed, with good abstracts before and after it
    _, a1 = good("long-line", 1)
    _, a2 = good("long-line", 2)
    with (c.root / "long-line.txt").open("wb") as f:
        f.write(f"Daily Papers\n\n{a1}\n\n".encode())
        chunk = b"long line " * 100_000
        for _ in range(50):
            f.write(chunk)
        f.write(f"\n\n{a2}\n".encode())
    c.abstracts.update([a1, a2])
    c.expect("long-line.txt", "line-too-long")
    # a 50 MB single line, no line end at all: a JSON object that never fits
    with (c.root / "single-line.jsonl").open("wb") as f:
        f.write(b'{"id": "2404.00001", "title": "One huge line", "abstract": "')
        for _ in range(50):
            f.write(b"x" * 1_000_000)
        f.write(b'"}')
    c.expect("single-line.jsonl", "line-too-long", "no-records")
    # a 1 MB abstract in every format that has abstracts
    # one per format: records with one abstract are one paper, which takes one of their titles
    sentence = "A very long abstract sentence about learning. " * 23_000
    t, _ = good("big-abstract-jsonl", 1)
    big = f"jsonl: {sentence}"[:1_000_000]
    _write(c, "big-abstract.jsonl", _json_record(701, t, ["Ada Lovelace"], big) + "\n")
    c.titles.add(t)
    c.expect("big-abstract.jsonl", "field-too-long")
    t, _ = good("big-abstract-atom", 1)
    big = f"atom: {sentence}"[:1_000_000]
    _write(
        c,
        "big-abstract.xml",
        f'<feed xmlns="http://www.w3.org/2005/Atom">\n{_atom_entry(702, t, ["Ada Lovelace"], big)}</feed>\n',
    )
    c.titles.add(t)
    c.expect("big-abstract.xml", "field-too-long")
    t, _ = good("big-abstract-bibtex", 1)
    big = f"bibtex: {sentence}"[:1_000_000]
    _write(c, "big-abstract.bib", _bib_entry("big", t, ["Lovelace, Ada"], big))
    c.titles.add(t)
    c.expect("big-abstract.bib", "field-too-long")
    _, a = good("big-abstract-daily", 1)
    big = f"daily: {sentence}"[:1_000_000]
    _write(c, "big-abstract.txt", f"Daily Papers\n\n{big}\n\n{a}\n")
    c.abstracts.add(a)
    c.expect("big-abstract.txt", "field-too-long")


def write_deep(c: Corpus, depth: int = 100_000) -> None:
    """XML nested ``depth`` deep inside an entry and outside any entry, between good entries."""
    before = _atom_entry(801, "Good entry before a deep nest", ["Ada Lovelace"], "Before.")
    after = _atom_entry(802, "Good entry after a deep nest", ["Ada Lovelace"], "After.")
    nest = "<x>" * depth + "deep" + "</x>" * depth
    inner = _atom_entry(803, "Entry holding a deep nest", ["Ada Lovelace"], "Deep.").replace(
        "</entry>", nest + "\n</entry>"
    )
    _write(
        c,
        "deep-nesting.xml",
        f'<feed xmlns="http://www.w3.org/2005/Atom">\n{before}{inner}{nest}\n{after}</feed>\n',
    )
    c.titles.update(
        ["Good entry before a deep nest", "Entry holding a deep nest", "Good entry after a deep nest"]
    )
    # a prolog of 100,000 short lines in a comment that never closes, and a doctype of "[][][]...":
    # both once took time quadratic or exponential in their length
    _write(
        c,
        "prolog-comment.xml",
        '<?xml version="1.0"?>\n<!-- http://www.w3.org/2005/Atom <feed\n' + "-\n" * depth,
    )
    c.expect("prolog-comment.xml", "bad-xml")
    _write(
        c,
        "doctype-brackets.xml",
        "<!DOCTYPE feed " + "[]" * 40 + f'\n<feed xmlns="{ATOM}">\n{before}</feed>\n',
    )
    c.expect("doctype-brackets.xml", "bad-xml")
    # an unclosed nest: the file ends inside it
    _write(c, "deep-unclosed.xml", f'<feed xmlns="http://www.w3.org/2005/Atom">\n{before}' + "<x>" * depth)
    c.expect("deep-unclosed.xml", "bad-xml")


def write_many_authors(c: Corpus, folder: Path | None = None) -> Path:
    """A listing record with 10,000 authors (the reader keeps the first 5,000, with a warning)."""
    path = (folder or c.root) / "many-authors.txt"
    names = ", ".join(f"Author Number{n:05d} Many" for n in range(10_000))
    _, a = good("many-authors", 1)
    path.write_text(f"论文检索\n\nDeep Learning · Everything Else\n\n{names}\n\n{a}\n", encoding="utf-8")
    return path


# ---------------------------------------------------------------- the file system


def write_folder(c: Corpus) -> None:
    """A folder with a symlink loop, an unreadable file, a dangling link and a FIFO."""
    folder = c.root / "tree"
    (folder / "sub").mkdir(parents=True)
    t, a = good("tree", 1)
    _write(
        c, "tree/sub/page.txt", "\n\n".join(["arXiv subjects", "Tree Person", "arXiv2020", t, a, "cs.LG↗"])
    )
    c.titles.add(t)
    os.symlink("..", folder / "sub" / "loop")
    c.expect("tree", "symlink-loop")  # the folder is named where the link leads
    os.symlink("no-such-file.txt", folder / "dangling.txt")
    c.failing.add("tree/dangling.txt")
    c.expect("tree/dangling.txt", "unreadable-file")
    os.symlink("self-loop.txt", folder / "self-loop.txt")
    c.expect("tree/self-loop.txt", "symlink-loop")
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo.txt")
        c.failing.add("tree/fifo.txt")
        c.expect("tree/fifo.txt", "not-a-file")
    else:
        c.notes.append("no os.mkfifo here: the FIFO part is left out")
    locked = folder / "locked.txt"
    _write(c, "tree/locked.txt", "Daily Papers\n\nA locked abstract.\n")
    locked.chmod(0)
    try:
        with locked.open("rb"):
            pass
    except OSError:
        c.failing.add("tree/locked.txt")
    else:
        # root reads a mode-000 file; the dangling link and the self loop stand in for it
        c.notes.append("running as root: chmod 000 does not make a file unreadable; dangling links stand in")
        locked.chmod(stat.S_IRUSR | stat.S_IWUSR)
        c.abstracts.add("A locked abstract.")


# ---------------------------------------------------------------- the whole corpus


def make(root: Path, large: bool = True) -> Corpus:
    """Write the hostile corpus into ``root`` (created); return what its build must show."""
    root.mkdir(parents=True, exist_ok=True)
    c = Corpus(root)
    write_profile(c)
    write_listing(c)
    write_daily(c)
    write_atom(c)
    write_oai(c)
    write_jsonl(c)
    write_bibtex(c)
    write_encodings(c)
    write_truncated(c)
    write_static(c)
    write_folder(c)
    write_deep(c)
    if large:
        write_large(c)
    return c


def write_static(c: Corpus) -> None:
    """The hand-written attack files beside this script, with what each must give."""
    for path in sorted(HERE.iterdir()):
        if path.suffix in (".xml", ".jsonl", ".bib", ".txt"):
            shutil.copy(path, c.root / path.name)
    for name in ("billion-laughs.xml", "xxe-file.xml", "xxe-http.xml", "xxe-parameter.xml", "oai-xxe.xml"):
        c.failing.add(name)
        c.expect(name, "unsafe-xml")
    c.failing.add("external-dtd.xml")  # an external DTD is refused like an external entity
    c.expect("external-dtd.xml", "unsafe-xml")
    c.titles.update(["Good JSON line among wrong types", "Authors as a number", "Nested title object"])
    c.expect("wrong-types.jsonl", "bad-field", "bad-json", "bad-record")
    c.titles.update(["Good entry after an unbalanced one", "Good entry before an unbalanced one"])
    c.expect("unbalanced.bib", "bad-bibtex-entry")


def _write(c: Corpus, name: str, text: str, fails: str | None = None) -> None:
    _write_bytes(c, name, text.encode("utf-8"), fails)


def _write_bytes(c: Corpus, name: str, data: bytes, fails: str | None = None) -> None:
    path = c.root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if fails is not None:
        c.failing.add(name)
        c.expect(name, fails)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--no-large", action="store_true", help="leave out the 50 MB and 1 MB files")
    args = parser.parse_args()
    corpus = make(args.out, large=not args.no_large)
    write_many_authors(corpus)
    print(f"wrote the hostile corpus into {args.out}")
    for note in corpus.notes:
        print(f"note: {note}")


if __name__ == "__main__":
    main()
