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


# --- the README's set-up, as written, gives everything its tour uses ----------------------------

BUILD_TOOLS = ("wheel",)
"""What pip builds kg's editable install with when no index may be reached (setuptools is the venv's own)."""


def readme_line(marker: str) -> str:
    """The command line of the README's fenced block after ``<!-- marker -->`` (as ``.ci/run`` reads it)."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    at = lines.index(f"<!-- {marker} -->")
    assert lines[at + 1].startswith("```"), f"the {marker} marker is not followed by a fenced block"
    return lines[at + 2]


def installed_closure(requirement: str) -> dict[str, object]:
    """The distributions of this environment that ``requirement`` needs, with what they need in turn."""
    from importlib import metadata

    from packaging.requirements import Requirement

    found: dict[str, object] = {}
    todo = [Requirement(requirement)]
    done: set[tuple[str, tuple[str, ...]]] = set()
    while todo:
        wanted = todo.pop()
        name = re.sub(r"[-_.]+", "-", wanted.name).lower()
        if (name, tuple(sorted(wanted.extras))) in done:
            continue
        done.add((name, tuple(sorted(wanted.extras))))
        dist = metadata.distribution(wanted.name)  # a missing one fails the test: the extra is not installed
        found[name] = dist
        for line in dist.requires or []:
            needed = Requirement(line)
            if needed.marker is None or any(needed.marker.evaluate({"extra": e}) for e in wanted.extras or {""}):
                todo.append(needed)
    return found


def environment_view(folder: Path, distributions: dict[str, object]) -> Path:
    """A folder holding (as links) only the given distributions of this environment: what a fresh
    virtualenv sees in place of an index, so a requirement the set-up line does not ask for is missing."""
    folder.mkdir()
    for name, dist in sorted(distributions.items()):
        if name == "kg":
            continue
        base = Path(str(dist.locate_file("")))  # type: ignore[attr-defined]
        for top in sorted({Path(str(f)).parts[0] for f in dist.files or () if not str(f).startswith("..")}):  # type: ignore[attr-defined]
            if (base / top).exists() and not (folder / top).exists():
                (folder / top).symlink_to(base / top)
    return folder


def test_the_readme_tour_runs_in_a_fresh_virtualenv_made_by_its_setup_line(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    line = readme_line("build-command")
    steps = line.split(" && ")
    assert steps[0] == "python3 -m venv .venv" and steps[-1].startswith(".venv/bin/kg build"), line
    install = next(s for s in steps if "pip install" in s)
    extras = re.search(r"-e '?\.(?:\[([\w,]+)\])?'?", install)
    assert extras is not None, install
    wanted = f"kg[{extras.group(1)}]" if extras.group(1) else "kg"
    view = environment_view(
        tmp_path / "view", {**installed_closure(wanted), **{t: installed_closure(t)[t] for t in BUILD_TOOLS}}
    )
    checkout = tmp_path / "checkout"
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, checkout / name if checkout.exists() else (checkout.mkdir() or checkout / name))
    for name in ("kg", "seeds", "ontology"):
        shutil.copytree(ROOT / name, checkout / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "python3").symlink_to(sys.executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "VIRTUAL_ENV", "PYTHON"))}
    # no index is reached in a test: pip finds the requirements in the view, or fails
    env.update(PATH=f"{tools}{os.pathsep}{env.get('PATH', '')}", PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1")
    env.update(PIP_NO_BUILD_ISOLATION="0", PIP_DISABLE_PIP_VERSION_CHECK="1")

    def run(command: str | list[str]) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, shell=isinstance(command, str), cwd=checkout, env=env, capture_output=True, text=True,
            timeout=600, check=False,
        )

    made = run(steps[0])
    assert made.returncode == 0, made.stderr
    (site,) = (checkout / ".venv" / "lib").glob("python3*/site-packages")
    (site / "kg-test-view.pth").write_text(f"{view}\n", encoding="utf-8")
    rest = run(" && ".join(steps[1:]))
    assert rest.returncode == 0, f"{line}\n{rest.stdout[-3000:]}\n{rest.stderr[-3000:]}"
    for command in commands("README.md"):
        done = run([str(checkout / ".venv" / "bin" / "kg"), *shlex.split(command)[1:]])
        assert done.returncode == 0, f"{command}\n{done.stderr[-3000:]}"
    for example in fenced("README.md", "python"):
        done = run([str(checkout / ".venv" / "bin" / "python"), "-c", example])
        assert done.returncode == 0, f"{example}\n{done.stderr[-3000:]}"


def test_an_install_hint_is_right_for_a_checkout_and_for_a_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from kg import extras

    # this test runs from a checkout installed in editable mode: the hint installs that checkout
    assert extras.checkout() == str(ROOT)
    assert extras.install_command("plot").endswith(f"-m pip install -e {shlex.quote(f'{ROOT}[plot]')}")
    monkeypatch.setattr(extras, "checkout", lambda: None)  # as from a package: the extra's own requirements
    assert extras.install_command("serve").endswith("-m pip install 'starlette>=0.37' 'uvicorn>=0.29'")
    assert "kg[" not in extras.install_command("plot")
