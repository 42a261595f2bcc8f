"""Golden cases: each folder of tests/cases builds to exactly its expected graph and issues."""

from __future__ import annotations

from pathlib import Path

import pytest
import rdflib

from tests.conftest import CASES, UPDATE, assert_isomorphic, build_case, to_rdflib

CASE_DIRS = sorted(p for p in CASES.iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASE_DIRS, ids=[p.name for p in CASE_DIRS])
def test_case(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result, log = build_case(case, monkeypatch)
    got = to_rdflib(result)
    issues = "".join(f"{issue}\n" for issue in log.issues)
    expected_ttl, expected_issues = case / "expected.ttl", case / "expected-issues.txt"
    if UPDATE:
        from kg.exporters.turtle import serialize

        with expected_ttl.open("wb") as f:
            serialize(result.store, f, result.base)
        expected_issues.write_text(issues, encoding="utf-8")
    assert expected_ttl.exists(), f"{expected_ttl} missing: run with KG_UPDATE_GOLDEN=1 and review it"
    assert_isomorphic(got, rdflib.Graph().parse(expected_ttl, format="turtle"))
    assert issues == expected_issues.read_text(encoding="utf-8")
