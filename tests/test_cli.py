"""The command line, through typer's runner."""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib
from typer.testing import CliRunner

from kg import __version__
from kg.cli import app
from tests.conftest import ROOT

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"kg {__version__}"


@pytest.mark.parametrize(
    "command", [[], ["build"], ["list", "readers"], ["list", "extractors"], ["list", "exporters"]]
)
def test_every_command_has_an_example(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Example: kg" in result.output


def test_build_default_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "157 papers, 70 persons, 119 coauthor pairs" in result.output
    assert "record-count 1" in result.output
    graph = rdflib.Graph().parse(out / "graph.ttl")
    assert len(graph) > 3000
    assert (out / "store").is_dir()


def test_quiet_prints_only_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = runner.invoke(app, ["build", "-q", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0
    assert result.output == ""


def test_strict_fails_on_warnings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = runner.invoke(app, ["build", "--strict", "-q", "--out", str(tmp_path / "o")])
    assert result.exit_code == 1


def test_list_readers() -> None:
    result = runner.invoke(app, ["list", "readers"])
    assert result.exit_code == 0
    assert [line.split()[0] for line in result.output.splitlines()] == [
        "arxiv-oai",
        "arxiv-atom",
        "arxiv-jsonl",
        "profile",
        "listing",
        "daily",
        "bibtex",  # after the pages: BibTeX may follow free text
    ]
