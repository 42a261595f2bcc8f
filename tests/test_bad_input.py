"""Bad input is reported as ``path:line: severity: message [code]``, and the good files still build."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import IssueLog
from kg.pipeline import build
from tests.conftest import SEEDS

MESSAGE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+): (?P<severity>warning|error): (?P<text>.+) \[(?P<code>[a-z0-9-]+)\]$"
)
runner = CliRunner()


def make_mixed_folder(root: Path) -> Path:
    folder = root / "mixed"
    folder.mkdir()
    shutil.copy(SEEDS / "002_850f322a07e45cb7.txt", folder / "listing.txt")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "blank.txt").write_bytes(b"  \n\n\t\n")
    (folder / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (folder / "latin1.txt").write_bytes(
        "Daily Papers\n\nCaf\u00e9 au lait in a long abstract.\n".encode("latin-1")
    )
    (folder / "utf16.txt").write_bytes("Daily Papers\n\nAn abstract.\n".encode("utf-16"))
    (folder / "notes.md").write_text("# My reading notes\n\nNothing to see here.\n", encoding="utf-8")
    (folder / "truncated.txt").write_text(
        "论文检索\n\nDeep Learning · Everything Else\n\nAda Lovelace, Alan Turing\n\n"
        "A complete record with an abstract long enough to stand on its own as a paper.\n\n"
        "Theory · Learning Theory\n\nGrace Hopper\n",
        encoding="utf-8",
    )
    return folder


def issue_lines(output: str) -> list[re.Match[str]]:
    return [m for line in output.splitlines() if (m := MESSAGE.match(line))]


def test_mixed_folder_through_cli(tmp_path: Path) -> None:
    folder = make_mixed_folder(tmp_path)
    result = runner.invoke(app, ["build", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    found = {(Path(m["path"]).name, m["severity"], m["code"]) for m in issue_lines(result.output)}
    assert ("empty.txt", "error", "empty-file") in found
    assert ("blank.txt", "error", "empty-file") in found
    assert ("binary.bin", "error", "binary-file") in found
    assert ("latin1.txt", "warning", "bad-utf8") in found  # a byte that is not UTF-8 costs the byte, not the file
    assert ("utf16.txt", "error", "not-utf8") in found
    assert ("notes.md", "error", "unknown-format") in found
    assert ("truncated.txt", "warning", "truncated-record") in found
    # the good file and the good record still built
    assert "22 papers" in result.output  # with latin1.txt's one
    assert (tmp_path / "out" / "graph.ttl").stat().st_size > 0
    assert "unknown-format 1" in result.output  # the summary counts issues per code


def test_unknown_format_message_names_line_one(tmp_path: Path) -> None:
    bad = tmp_path / "x.csv"
    bad.write_text("id,title\n1,Hello\n", encoding="utf-8")
    log = IssueLog()
    result = build([bad], log=log)
    assert result.summary()["papers"] == 0
    [issue] = log.issues
    assert str(issue).endswith("[unknown-format]")
    assert str(issue).startswith(
        f"{bad.as_posix() if bad.is_absolute() else bad}:1: error: CSV that no reader takes, starts with 'id,title'"
    )


def test_latin1_byte_costs_a_warning_on_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "l1.txt"
    bad.write_bytes(b"Daily Papers\n\nfine line\n\nCaf\xe9\n")
    log = IssueLog()
    result = build([bad], log=log)
    assert [(i.at.line, i.code) for i in log.issues] == [(5, "bad-utf8")]
    assert result.summary()["papers"] == 2  # both lines kept, the bad byte replaced


def test_text_in_another_encoding_is_not_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "koi8.txt"
    bad.write_bytes("Daily Papers\n\nМашинное обучение и нейронные сети.\n".encode("koi8-r"))
    log = IssueLog()
    build([bad], log=log)
    assert [(i.at.line, i.severity, i.code) for i in log.issues] == [(3, "error", "not-utf8")]


def test_truncated_utf8_at_end_keeps_the_record(tmp_path: Path) -> None:
    text = "Daily Papers\n\nAn abstract that ends in the middle of a character: caf\u00e9".encode()
    bad = tmp_path / "cut.txt"
    bad.write_bytes(text[:-1])
    log = IssueLog()
    result = build([bad], log=log)
    assert result.summary()["papers"] == 1
    assert [i.code for i in log.issues] == ["bad-utf8"]


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", str(tmp_path / "nope"), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2  # before anything is read or written, as cp does
    assert "[missing-input]" in result.output
    assert not (tmp_path / "out").exists()


def test_crlf_and_bom(tmp_path: Path) -> None:
    page = (SEEDS / "002_850f322a07e45cb7.txt").read_text(encoding="utf-8")
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf" + page.replace("\n", "\r\n").encode("utf-8"))
    log = IssueLog()
    result = build([f], log=log)
    assert result.summary()["papers"] == 20
    assert not log.issues


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (
            "arXiv subjects\n\nX\n\nPublications and source records attributed to X.\n\narXiv2020\n\nOnly a title\n",
            "missing-abstract",
        ),
        (
            "论文检索\n\nDeep Learning · Everything Else\n\n" + "A long abstract sentence. " * 20 + "\n",
            "empty-authors",
        ),
        ("Daily Papers\n\n", "no-records"),
    ],
)
def test_record_level_warnings(tmp_path: Path, text: str, code: str) -> None:
    f = tmp_path / "page.txt"
    f.write_text(text, encoding="utf-8")
    log = IssueLog()
    build([f], log=log)
    assert code in log.counts()
    assert not log.has_errors
