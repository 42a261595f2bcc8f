"""The docs: the generated reference is current, and the commands and examples they show run."""

from __future__ import annotations

from pathlib import Path

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


def test_check_fails_on_a_stale_page(tmp_path: Path) -> None:
    page = tmp_path / "reference.md"
    page.write_text("# Reference\n", encoding="utf-8")
    assert main([str(page), "--check"]) == 1
    assert main([str(page)]) == 0
    assert main([str(page), "--check"]) == 0
    assert page.read_text(encoding="utf-8") == reference()
