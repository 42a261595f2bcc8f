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

from kg.cli import app
from kg.errors import IssueLog, KgError
from kg.pipeline import BuildOptions, build, write_outputs

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
    inputs, out, before = good_build
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
    assert lines[-1] == f"{out}:0: error: build read no records; {out} keeps its 2 papers (expected at least one record) [outputs-kept]"
    assert snapshot(out) == before


def test_an_empty_folder_is_a_no_input_error(good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
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


def test_the_library_refuses_to_replace_papers_with_nothing(good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
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
    import kg.pipeline as pipeline

    real = pipeline.digest

    def digest(path: Path) -> str:  # as a file made unreadable (root reads any file, so not chmod)
        if path.name == "more.txt":
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(pipeline, "digest", digest)
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


def test_the_output_folder_inside_the_inputs_is_not_read_back(good_build: tuple[Path, Path, dict[str, str]], tmp_path: Path) -> None:
    inputs, _, _ = good_build
    out = inputs / "built"
    assert run("build", str(inputs), "--out", str(out), "-j", "1", "-q")[0] == 0
    code, output = run("build", str(inputs), "--out", str(out), "-j", "1")
    assert code == 0, output
    warning = [line for line in messages(output) if "[output-folder]" in line]
    assert len(warning) == 1
    assert "cache, coauthors.html, graph.ttl, manifest.json, store, topics.html" in warning[0]
    assert "2 papers" in output


def test_a_damaged_cache_and_manifest_rebuild_the_same_graph(good_build: tuple[Path, Path, dict[str, str]]) -> None:
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
