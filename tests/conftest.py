"""Shared fixtures: the seed build, golden cases, and graph comparison with a readable diff."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import rdflib
from rdflib.compare import graph_diff, to_isomorphic

from kg.errors import IssueLog
from kg.pipeline import Build, BuildOptions, build

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
CASES = Path(__file__).resolve().parent / "cases"
UPDATE = os.environ.get("KG_UPDATE_GOLDEN") == "1"
"""Set KG_UPDATE_GOLDEN=1 to rewrite expected files (then review the diff before committing)."""


def to_rdflib(result: Build) -> rdflib.Graph:
    """The built graph as an rdflib Graph (through N-Triples, so nothing is lost)."""
    import pyoxigraph as ox

    data = result.store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph())
    return rdflib.Graph().parse(data=data, format="nt")


def assert_isomorphic(got: rdflib.Graph, expected: rdflib.Graph, limit: int = 40) -> None:
    """Graphs equal up to blank-node names; otherwise fail with the triples each lacks."""
    iso_got, iso_expected = to_isomorphic(got), to_isomorphic(expected)
    if iso_got == iso_expected:
        return
    _, only_got, only_expected = graph_diff(iso_got, iso_expected)
    lines = ["graphs differ", f"  only in built graph ({len(only_got)}):"]
    lines += [f"    + {line}" for line in sorted(only_got.serialize(format="nt").splitlines())[:limit]]
    lines += [f"  only in expected graph ({len(only_expected)}):"]
    lines += [f"    - {line}" for line in sorted(only_expected.serialize(format="nt").splitlines())[:limit]]
    pytest.fail("\n".join(lines), pytrace=False)


def case_inputs(case: Path) -> tuple[Path, list[Path]]:
    """The folder a case runs in and its input paths (an INPUT file points elsewhere in the repo)."""
    pointer = case / "INPUT"
    if pointer.exists():
        return ROOT, [Path(line) for line in pointer.read_text().split()]
    inputs = sorted(p.relative_to(case) for p in case.iterdir() if not p.name.startswith("expected"))
    return case, inputs


def build_case(case: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Build, IssueLog]:
    where, inputs = case_inputs(case)
    monkeypatch.chdir(where)
    log = IssueLog()
    return build(inputs, BuildOptions(taxonomies=False), log), log


@pytest.fixture(scope="session")
def seed_build() -> Iterator[Build]:
    """One build of the seeds (with taxonomies), shared by the tests that only read it."""
    old = Path.cwd()
    os.chdir(ROOT)
    try:
        yield build([Path("seeds")], BuildOptions(), IssueLog())
    finally:
        os.chdir(old)


@pytest.fixture(scope="session")
def seed_graph(seed_build: Build) -> rdflib.Graph:
    return to_rdflib(seed_build)


@pytest.fixture(scope="session")
def seed_outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds built once and written to a folder (graph.ttl, store/, views), for tests that read a build folder."""
    from kg.build_folder import write_outputs

    out = tmp_path_factory.mktemp("seeds-built")
    old = Path.cwd()
    os.chdir(ROOT)
    try:
        write_outputs(build([Path("seeds")], BuildOptions(), IssueLog()), out)
    finally:
        os.chdir(old)
    return out
