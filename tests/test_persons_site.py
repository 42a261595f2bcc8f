"""Names several persons share, on the site (``kg.site.names``): a page per shared name, what a person's
page says of its name and of why it is one person, hostile names kept as text, and the name page in a
real Chromium (skipped where ``tests/test_browser.py`` is)."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

import pytest

from kg import store as stores
from kg.build_folder import build_into
from kg.errors import IssueLog
from kg.pipeline import BuildOptions
from kg.site import write as write_site
from kg.site.names import read
from tests.test_browser import Loaded, browser  # noqa: F401  (the Chromium fixture)
from tests.test_delta import paper, write

HOSTILE = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
PAPERS = [
    # three Wei Wangs: two share a rare coauthor (one person), the third shares nothing (another)
    paper(1, ["Wei Wang", "Zed Quorra"], "Tactile sensing for dexterous grasping of cloth"),
    paper(2, ["Ann Lee", "Zed Quorra", "Wei Wang"], "Tactile gloves for teleoperation of robot hands"),
    paper(3, ["Wei Wang", "Mia Vantorp"], "Machine translation of low resource languages"),
    # two more, written with a hostile qualifier, a hostile coauthor and a hostile title
    paper(4, [f"Li Zhang ({HOSTILE})", f"Bo {HOSTILE}"], f"Graphs {HOSTILE} for physics"),
    paper(5, [f"Li Zhang ({HOSTILE})", "Cy Dee"], "Kernel methods for time series"),
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("names")
    inputs, out = folder / "in", folder / "out"
    inputs.mkdir()
    write(inputs / "a.jsonl", PAPERS)
    build_into([inputs], out, BuildOptions(workers=1), IssueLog())
    write_site(stores.open_store(out), folder / "site")
    return folder / "site"


def text(page: Path) -> str:
    """A page's visible text, roughly: tags out, entities decoded, spaces folded."""
    from html import unescape

    return " ".join(unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))).split())


def test_a_shared_name_has_a_page_of_its_persons(site: Path) -> None:
    page = site / "name" / "wei_wang.html"
    shown = text(page)
    assert "2 people share this name" in shown
    assert "Wei Wang (1 of 2) 2 2025 Zed Quorra, Ann Lee" in shown  # most papers first, coauthors too
    assert "Wei Wang (2 of 2) 1 2025 Mia Vantorp" in shown
    html = page.read_text(encoding="utf-8")
    hrefs = re.findall(r'href="(\.\./person/[^"]+)"', html)
    assert "../person/wei_wang.html" in hrefs
    assert all((page.parent / h).is_file() for h in hrefs)
    assert "Machine translation of low resource languages" in shown  # each person's papers


def test_a_person_page_says_who_else_has_its_name_and_why_it_is_one_person(site: Path) -> None:
    page = site / "person" / "wei_wang.html"
    shown = text(page)
    assert "2 people share this name" in shown
    assert "Wei Wang 1 paper, 2025, with Mia Vantorp" in shown
    html = page.read_text(encoding="utf-8")
    assert 'href="../name/wei_wang.html">All 2 people named Wei Wang</a>' in html
    assert "Why these papers are one person" in shown
    assert "share coauthor zed quorra" in shown
    # the facts come first, the name right after them, the reasons last
    order = [
        shown.index(t) for t in ("In the graph", "share this name", "Coauthors (joint papers)", "Why these")
    ]
    assert order == sorted(order)
    # a person whose name nobody else has says nothing of it
    assert "share this name" not in text(site / "person" / "ann_lee.html")


def test_hostile_names_stay_text(site: Path) -> None:
    pages = [*(site / "name").glob("li_zhang*.html"), *(site / "person").glob("li_zhang*.html")]
    assert len(pages) == 3  # the name page and its two persons
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert "<script>window.pwned" not in html and "<img src=x" not in html
        assert escape(HOSTILE, quote=False) in html or escape(HOSTILE) in html
        assert HOSTILE in text(page)


def test_the_graph_says_which_persons_share_a_name(site: Path) -> None:
    out = site.parent / "out"
    shared = read(stores.open_store(out))
    assert sorted(shared.labels.values()) == ["Li Zhang", "Wei Wang"]
    assert all(len(persons) == 2 for persons in shared.persons.values())


def test_the_name_page_in_chromium(browser: Any, site: Path) -> None:  # noqa: F811
    loaded = Loaded(browser.new_page())
    page = loaded.page
    page.on("console", lambda m: loaded.console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: loaded.console.append(f"pageerror: {e}"))
    page.on("request", lambda r: loaded.requests.append(r.url))
    try:
        for name in sorted((site / "name").glob("*.html")):
            page.goto(name.resolve().as_uri())
            assert page.inner_text("h1") in ("Wei Wang", "Li Zhang")
            assert page.locator("table tbody tr").count() == 2
            assert page.evaluate("window.pwned === undefined")
        page.goto((site / "name" / "wei_wang.html").resolve().as_uri())
        page.locator("table tbody tr").first.locator("a").click()
        page.wait_for_load_state()
        assert page.url.endswith("/person/wei_wang.html")
        assert "2 people share this name" in page.inner_text("main")
        page.get_by_text("All 2 people named Wei Wang").click()
        page.wait_for_load_state()
        assert page.url.endswith("/name/wei_wang.html")
        assert loaded.console == []
        assert all(r.startswith("file://") for r in loaded.requests)
    finally:
        page.close()
