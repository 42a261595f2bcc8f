"""The package's shape stays what docs/architecture.md says: no import cycle among kg's modules
(imports inside functions counted, ``TYPE_CHECKING`` blocks left out), no module over 700 lines, and
the file primitives a leaf.  Measured by ``benchmarks/structure.py``, the script the docs cite."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("kg_structure", ROOT / "benchmarks" / "structure.py")
assert _spec is not None and _spec.loader is not None
structure = importlib.util.module_from_spec(_spec)
sys.modules["kg_structure"] = structure
_spec.loader.exec_module(structure)


def test_no_import_cycle_among_kg_modules() -> None:
    g, _, _ = structure.graph(ROOT / "kg")
    assert structure.cycles(g) == []


def test_a_cycle_is_found_when_there_is_one(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from pkg.sub import a\n")
    (package / "sub" / "a.py").write_text("def f():\n    from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.sub\n")
    g, _, _ = structure.graph(package)
    assert structure.cycles(g) == [["pkg.sub", "pkg.sub.a"]]


def test_no_module_over_700_lines() -> None:
    _, lines, _ = structure.graph(ROOT / "kg")
    assert {name: n for name, n in lines.items() if n > 700} == {}


def test_the_file_primitives_import_nothing_of_kg_but_errors() -> None:
    for leaf, allowed in (("files.py", {"kg.errors"}), ("html.py", set())):
        tree = ast.parse((ROOT / "kg" / leaf).read_text(encoding="utf-8"))
        imported = set(structure.imports(tree, f"kg.{leaf[:-3]}", False))
        modules = {name.rpartition(".")[0] if name.startswith("kg.errors.") else name for name in imported}
        assert {name for name in modules if name == "kg" or name.startswith("kg.")} <= allowed, leaf


def test_no_module_takes_another_modules_private_names() -> None:
    assert structure.private_imports(ROOT / "kg") == []


def test_a_private_name_taken_is_found(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def _helper(): ...\ndef _own(): ...\n_own()\n")
    (package / "b.py").write_text("from pkg.a import _helper\nimport pkg.a as a\na._own()\n")
    assert structure.private_imports(package) == [("pkg.b", "pkg.a._helper"), ("pkg.b", "pkg.a._own")]


def test_no_import_cycle_even_counting_imports_for_type_checking() -> None:
    g, _, _ = structure.graph(ROOT / "kg", typing=True)
    assert structure.cycles(g) == []
