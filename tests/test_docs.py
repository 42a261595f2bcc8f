"""The docs: the generated reference is current, and the commands and examples they show run."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.docs import main, reference

ROOT = Path(__file__).resolve().parents[1]


def test_the_committed_reference_is_what_the_code_generates() -> None:
    committed = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert committed == reference(), "docs/reference.md is stale: run python -m kg.docs"


def test_the_reference_shows_every_command_and_table() -> None:
    text = reference()
    for heading in ("### `kg build`", "### `kg query`", "### `kg list issues`", "## Readers", "## Named queries"):
        assert heading in text, heading
    assert "| `arxiv-jsonl` |" in text and "| `top-authors` | [limit=20] |" in text
    assert "kg.build(paths: Iterable[str | PathLike[str]] = ('seeds',), out:" in text  # the Python API


def test_check_fails_on_a_stale_page(tmp_path: Path) -> None:
    page = tmp_path / "reference.md"
    page.write_text("# Reference\n", encoding="utf-8")
    assert main([str(page), "--check"]) == 1
    assert main([str(page)]) == 0
    assert main([str(page), "--check"]) == 0
    assert page.read_text(encoding="utf-8") == reference()


# --- the links between the pages lead somewhere ----------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub makes of the page's headings."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    headings = re.findall(r"^#+ (.+)$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", ["README.md", *sorted(p.name for p in (ROOT / "docs").glob("*.md"))])
def test_every_link_between_pages_leads_somewhere(page: str) -> None:
    path = ROOT / page if page == "README.md" else ROOT / "docs" / page
    links = LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8")))
    for link in links:
        if link.startswith(("http://", "https://", "mailto:")):
            continue
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        assert file.exists(), f"{page}: {link}"
        if anchor and file.suffix == ".md":
            assert anchor in anchors(file), f"{page}: {link}"


# --- the documented commands and examples run -------------------------------------------------

FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
PAGES = ["README.md", "docs/guide.md", "docs/views.md", "docs/plots.md", "docs/site.md", "docs/thesaurus.md"]
# what a documented command needs that a test cannot have; any other command must run
NEEDS = {
    "--endpoint": "a running SPARQL endpoint",
    "--scheduler": "a Dask cluster",
    "--open": "a browser",
    "kg serve": "a server left running",
    "kg load": "a running triple store",
    "/srv/": "a folder outside the workspace",
}
EXIT_CODES = {"kg build --strict": 1}  # the seeds have warnings, so --strict fails, as documented


def fenced(page: str, *langs: str) -> list[str]:
    """The bodies of the page's fenced blocks in one of ``langs``, in order."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return [body for lang, body in FENCE.findall(text) if lang in langs]


def commands(page: str) -> list[str]:
    """The ``kg ...`` lines of the page's shell blocks, comments taken off."""
    lines = [line for body in fenced(page, "sh") for line in body.splitlines() if line.startswith("kg ")]
    return [shlex.join(shlex.split(line, comments=True)) for line in lines]


def skipped(command: str) -> str | None:
    return next((why for needle, why in NEEDS.items() if needle in command), None)


@pytest.fixture(scope="module")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """seeds/ built once into outputs/, the start of every page's workspace."""
    base = tmp_path_factory.mktemp("docs-base")
    shutil.copytree(ROOT / "seeds", base / "seeds")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(base)
        result = CliRunner().invoke(app, ["build", "-q"])
    assert result.exit_code == 0, result.output
    return base


def workspace(seed_build: Path, tmp_path: Path) -> Path:
    """A folder with seeds/ and outputs/, and the files the docs' examples name: the thesaurus of
    docs/thesaurus.md, a query file, and input files and folders of one's own."""
    work = tmp_path / "work"
    shutil.copytree(seed_build, work)
    thesaurus = next(body for body in fenced("docs/thesaurus.md", "") if body.startswith("label\treplace by"))
    (work / "thesaurus.txt").write_text(thesaurus, encoding="utf-8")
    (work / "my-question.rq").write_text("SELECT ?p WHERE { ?p a foaf:Person } LIMIT 3\n", encoding="utf-8")
    seeds = sorted((work / "seeds").iterdir())
    (work / "listings").mkdir()
    shutil.copy(seeds[0], work / "listings" / seeds[0].name)
    shutil.copy(seeds[1], work / "extra.txt")
    return work


def test_the_readme_tour_is_run_whole() -> None:
    tour = commands("README.md")
    assert len(tour) >= 15 and [c for c in tour if skipped(c)] == []
    assert any(c.startswith("kg build") for c in tour) and any(c.startswith("kg query") for c in tour)
    assert len(fenced("README.md", "python")) == 1


@pytest.mark.parametrize("page", PAGES)
def test_documented_commands_and_examples_run(
    page: str, seed_build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = workspace(seed_build, tmp_path)
    monkeypatch.chdir(work)
    runner = CliRunner()
    ran = 0
    for command in commands(page):
        if skipped(command):
            continue
        result = runner.invoke(app, shlex.split(command)[1:])
        expected = EXIT_CODES.get(command, 0)
        assert result.exit_code == expected, f"{page}: {command}\n{result.output}"
        ran += 1
    for example in fenced(page, "python"):
        exec(compile(example, f"{page} example", "exec"), {"__name__": "docs_example"})
        shown = capsys.readouterr().out
        # a print commented with some of the items it prints ("# {'files': 3, ...}") prints each of them
        for said in re.findall(r"print\(.*\)\s+# \{(.*), \.\.\.\}", example):
            for item in said.split(", "):
                assert item in shown, f"{page}: expected {item} in\n{shown}"
        ran += 1
    assert ran > 0
