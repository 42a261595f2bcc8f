"""The table of issue codes (``kg.issue_codes``) is every code the sources can emit, and the docs list them all.

The sources are read with ``ast``: a code is the code argument of an emitter (``IssueLog.warn``/``error``/
``report``, ``KgError``, ``UsageError``, a links ``Rejection``, an ``Issue``), any ``code=`` keyword, a
name assigned a code in the same function, or a ``[code]`` that ends a message printed by hand. A code
argument that is none of these must be one of the few places that pass on a code made elsewhere.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from typer.testing import CliRunner

from kg.cli import app
from kg.issue_codes import ISSUE_CODES

ROOT = Path(__file__).resolve().parents[1]
CODE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$")
ENDING = re.compile(r"\s\[([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\]\s*$")  # "... [missing-counts]" printed by hand
# emitter -> (position of the code argument, severity it reports; None: read from the argument before it)
EMITTERS: dict[str, tuple[int, str | None]] = {
    "warn": (1, "warning"),
    "error": (1, "error"),
    "report": (2, None),
    "KgError": (2, "error"),
    "UsageError": (2, "usage"),
    "Rejection": (2, "warning"),  # kg/extractors/links.py: reported with log.warn(span.at, found.code, ...)
    "Issue": (2, None),
}
# places that pass on a code made elsewhere (an issue read back from the cache or a worker, an error re-raised)
FORWARDING = {
    ("kg/cache.py", "code"),
    ("kg/cache.py", "issue.code"),
    ("kg/delta.py", "i.code"),  # a delta's issues, reported once it is taken
    ("kg/ledger.py", "code"),  # issues kept in the ledger, reported again
    ("kg/cli/query.py", "e.code"),
    ("kg/readers/thesaurus.py", "e.code"),  # kg.readers.text.read_side_file's codes, logged
    ("kg/errors.py", "code"),
    ("kg/build_pages.py", "str(said.get('code', 'error'))"),
    ("kg/extractors/links.py", "found.code"),
    ("kg/executors.py", "issue.code"),
}


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _codes_in(expr: ast.AST) -> list[str]:
    return [
        c.value
        for c in ast.walk(expr)
        if isinstance(c, ast.Constant) and isinstance(c.value, str) and CODE.match(c.value)
    ]


def emitted(root: Path = ROOT) -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """Each code the sources under ``root/kg`` emit with the severities they emit it with (``?``: not
    known there), and the code arguments that are no literal (file, expression)."""
    codes: dict[str, set[str]] = {}
    dynamic: set[tuple[str, str]] = set()
    for path in sorted((root / "kg").rglob("*.py")):
        where = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]

        def enclosing(node: ast.AST, tree: ast.Module = tree, functions: list[ast.AST] = functions) -> ast.AST:
            inside = [f for f in functions if any(n is node for n in ast.walk(f))]
            return min(inside, key=lambda f: len(list(ast.walk(f)))) if inside else tree

        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                ending = ENDING.search(node.value)
                if ending:
                    codes.setdefault(ending.group(1), set()).add("?")
            if not isinstance(node, ast.Call):
                continue
            name = _called(node.func)
            argument: ast.expr | None = None
            severity: str | None = "?"
            if name in EMITTERS:
                position, severity = EMITTERS[name]
                first = node.args[0] if node.args else None
                if name in ("warn", "error", "report") and isinstance(first, ast.Constant):
                    continue  # logging's log.error("format %s", ...), not an IssueLog
                if len(node.args) > position:
                    argument = node.args[position]
                if severity is None:
                    given = node.args[1] if len(node.args) > 1 else None
                    severity = given.value if isinstance(given, ast.Constant) else "?"
            keyword = [k.value for k in node.keywords if k.arg == "code"]
            if keyword:
                argument = keyword[0]
            if argument is None:
                continue
            if isinstance(argument, ast.Name):  # a name assigned codes in the same function
                found = [
                    code
                    for a in ast.walk(enclosing(node))
                    if isinstance(a, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == argument.id for t in a.targets)
                    for code in _codes_in(a.value)
                ]
            else:
                found = _codes_in(argument)
            if not found:
                dynamic.add((where, ast.unparse(argument)))
            for code in found:
                codes.setdefault(code, set()).add(severity or "?")
    return codes, dynamic


def test_the_scan_finds_what_it_should() -> None:
    codes, _ = emitted()
    assert len(codes) > 80
    # one of each way a code is written in the sources
    assert codes["empty-authors"] == {"warning"}  # log.warn(at, "empty-authors", ...)
    assert "usage" in codes["unknown-extractor"]  # UsageError(..., code="unknown-extractor")
    assert codes["unsafe-url-scheme"] == {"warning"}  # Rejection(start, end, "unsafe-url-scheme", ...)
    assert "endpoint-error" in codes and "bad-query" in codes  # code = "bad-query" if ... else "endpoint-error"
    assert "missing-counts" in codes  # "... rebuild it with kg build [missing-counts]"


def test_the_scan_reads_every_way_a_code_is_written(tmp_path: Path) -> None:
    (tmp_path / "kg").mkdir()
    (tmp_path / "kg" / "toy.py").write_text(
        """
import logging
log = logging.getLogger()

def read(at, issues, e, flag):
    issues.warn(at, "toy-warning", "a record skipped")
    issues.error(at, "toy-error", "a file unusable")
    issues.report(at, "warning", "toy-reported", "said")
    log.error("a logging call %s, not an issue", "not-a-code")
    code = "toy-either" if flag else "toy-or"
    raise KgError("stopped", at, code)

def stop(at, e):
    raise UsageError(f"cannot {at}", code="toy-usage")

def forward(issues, found):
    issues.warn(found.at, found.code, found.message)
    print(f"{found}: no counts [toy-printed]")
""",
        encoding="utf-8",
    )
    codes, dynamic = emitted(tmp_path)
    assert codes == {
        "toy-warning": {"warning"},
        "toy-error": {"error"},
        "toy-reported": {"warning"},
        "toy-either": {"error"},
        "toy-or": {"error"},
        "toy-usage": {"usage"},
        "toy-printed": {"?"},
    }
    assert dynamic == {("kg/toy.py", "found.code")}


def test_the_table_is_every_code_the_sources_emit() -> None:
    codes, dynamic = emitted()
    assert dynamic == FORWARDING, "a code argument that is no literal: name its codes or add it to FORWARDING"
    assert sorted(set(codes) - set(ISSUE_CODES)) == [], "emitted but not in kg/issue_codes.py"
    assert sorted(set(ISSUE_CODES) - set(codes)) == [], "in kg/issue_codes.py but emitted nowhere"
    for code, severities in codes.items():
        listed = ISSUE_CODES[code].severity
        if "warning" in severities:
            assert listed == "warning", code
        if severities & {"error", "usage"}:
            assert listed in ("error", "usage"), code
        if "usage" in severities:
            assert listed == "usage", code


def test_the_issue_named_five_missing_codes_now_listed() -> None:
    for code in ("empty-author", "many-authors", "not-a-file", "paper-key-collision", "unreadable-folder"):
        assert code in ISSUE_CODES


def test_kg_list_issues_prints_every_code_with_severity_and_meaning() -> None:
    result = CliRunner().invoke(app, ["list", "issues"])
    assert result.exit_code == 0, result.output
    rows = [line.split(None, 2) for line in result.output.splitlines()]
    assert [row[0] for row in rows] == sorted(ISSUE_CODES)
    for code, severity, meaning in rows:
        assert severity == ISSUE_CODES[code].severity
        assert meaning == ISSUE_CODES[code].meaning


def test_the_docs_list_every_code() -> None:
    reference = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    for code, about in ISSUE_CODES.items():
        assert f"| `{code}` | {about.severity} | {about.meaning} |" in reference, code
