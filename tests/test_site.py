"""``kg site``: the static site of a build: its pages, their counts against the named queries, links,
hostile text, determinism, atomic replacement, ``--min-papers``, the CLI and ``kg serve``'s ``/site/``.

The Chromium tests (no console error and no request outside the site on each kind of page, search,
hostile text) drive Debian's Chromium as ``tests/test_browser.py`` does (its ``browser`` fixture).
"""

from __future__ import annotations

import json
import os
import re
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import IssueLog, KgError
from kg.pipeline import BuildOptions, build
from kg.queries import named_query, sized
from kg.site import SiteOptions, chart, egomap, pages, write
from kg.sparql import Solutions, bind, execute
from kg.store import open_store
from tests.test_browser import browser

__all__ = ["browser"]  # the Chromium fixture, shared with the view pages' tests

HOSTILE_TITLE = (
    "</textarea><script>window.pwned=1</script> \"quoted\" & 'single' <img src=x onerror=alert(1)>"
)
HOSTILE_NAME = "<b>Eve</b> O'Hara"
SVG = "{http://www.w3.org/2000/svg}"


class Anchors(HTMLParser):
    """Every href and src of a page, and the page's text."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.refs.append(value)
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def parsed(path: Path) -> Anchors:
    anchors = Anchors()
    anchors.feed(path.read_text(encoding="utf-8"))
    return anchors


@pytest.fixture(scope="module")
def seed_site(seed_outputs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site") / "site"
    write(open_store(seed_outputs), target)
    return target


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site of a two-paper listing whose title, author and abstract are hostile."""
    folder = tmp_path_factory.mktemp("hostile-site")
    records = [
        {
            "id": "2503.00001",
            "title": HOSTILE_TITLE,
            "authors": [HOSTILE_NAME, "Ada Lovelace"],
            "categories": ["cs.LG"],
            "summary": "We fine-tune with LoRA. \u2028</script><script>window.pwned=3</script>",
        },
        {
            "id": "2503.00002",
            "title": "A plain title",
            "authors": ["Ada Lovelace"],
            "categories": ["cs.LG"],
            "summary": "We use low-rank adaptation (LoRA) and diffusion models.",
        },
    ]
    listing = folder / "2025-03-18.jsonl"
    listing.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = build([listing], BuildOptions(), IssueLog())
    assert result.summary()["papers"] == 2
    target = folder / "site"
    write(result.store, target)
    return target


# --- what the pages hold -------------------------------------------------------------------------------


def test_seed_site_has_index_person_method_and_paper_pages(seed_site: Path, seed_outputs: Path) -> None:
    index = (seed_site / "index.html").read_text(encoding="utf-8")
    assert (
        '<a href="person/thomas_hofmann.html">Thomas Hofmann</a> <span class="note">18 papers</span>' in index
    )
    assert "157 papers" in index and "70 persons" in index and "years 2025–2026" in index
    person = (seed_site / "person" / "thomas_hofmann.html").read_text(encoding="utf-8")
    assert person.count('<span class="year">') == 18  # his 18 papers, each with its year
    assert re.search(r"<span class=\"year\">2026</span>.*<span class=\"year\">2025</span>", person, re.S)
    method = (seed_site / "method" / "lora.html").read_text(encoding="utf-8")
    assert (
        "<h1>LoRA</h1>" in method
        and '<svg class="chart"' in method
        and "trainable low-rank matrices" in method
    )
    assert (
        "Broader and narrower" in method and 'href="../method/parameter-efficient-fine-tuning.html"' in method
    )
    # a paper page: its authors, the text that matched each method, and its source file and line
    store = open_store(seed_outputs)
    paper, line, text = next(
        (s[0].value, s[1].value, s[2].value)
        for s in store.query(
            "SELECT ?p ?line ?text WHERE { ?p <https://w3id.org/kg/ns#evidence> ?e . "
            "?e <https://w3id.org/kg/ns#evidenceOf> <https://w3id.org/kg/method/lora> ; "
            "<https://w3id.org/kg/ns#matchedText> ?text . ?p <http://www.w3.org/ns/prov#wasDerivedFrom> ?r . "
            "?r <https://w3id.org/kg/ns#sourceLine> ?line } ORDER BY ?p LIMIT 1"
        )  # type: ignore[union-attr]
    )
    page = (seed_site / "paper" / (paper.rsplit("/", 1)[-1] + ".html")).read_text(encoding="utf-8")
    assert f"matched “{text}”" in page
    assert re.search(rf"seeds/[0-9a-f_]+\.txt:{line}</span>", page)


def test_method_page_counts_equal_the_method_trend_query(seed_site: Path, seed_outputs: Path) -> None:
    store = open_store(seed_outputs)
    query = named_query("method-trend")
    result = execute(store, bind(sized(query.text, None), query.bindings({})))
    assert isinstance(result, Solutions)
    trend: dict[str, dict[int, int]] = {}
    for concept, _, year, papers in result.rows:
        assert concept is not None and year is not None and papers is not None
        trend.setdefault(concept.value, {})[int(year.value)] = int(papers.value)
    assert len(trend) >= 10
    rolled = 0
    for concept, counts in trend.items():
        page = seed_site / "method" / (concept.rsplit("/", 1)[-1] + ".html")
        text = page.read_text("utf-8")
        drawn = {int(y): int(n) for y, n in re.findall(r'data-period="(\d+)" data-papers="(\d+)"', text)}
        if "<th>naming it</th>" in text:  # rolled up first (with its narrower concepts), then naming it
            rolled += 1
            cells = r'<tr><td><span class="plain">(\d{4})</span></td><td class="number">([\d,]+)</td><td class="number">([\d,]+)</td>'
            rows = re.findall(cells, text)
            named = {int(y): int(n.replace(",", "")) for y, _, n in rows}
            assert {y: n for y, n in named.items() if n} == counts, concept
            assert all(drawn[y] >= n for y, n in counts.items()), concept
        else:
            assert drawn == counts, concept
    assert rolled, "a method with narrower concepts shows both counts"


def test_every_local_link_resolves(seed_site: Path) -> None:
    checked = 0
    for page in sorted(seed_site.rglob("*.html")):
        for ref in parsed(page).refs:
            if ref.startswith(("https://", "http://")):
                continue
            assert not ref.startswith(("/", "file:", "javascript:", "data:")), (page, ref)
            target = (page.parent / unquote(ref.split("#")[0])).resolve()
            assert target.is_file(), f"{page.relative_to(seed_site)} links to missing {ref}"
            assert seed_site.resolve() in target.parents
            checked += 1
    assert checked > 5000


def test_hostile_text_stays_text(hostile_site: Path) -> None:
    everything = "".join(p.read_text("utf-8") for p in sorted(hostile_site.rglob("*.html")))
    assert "<script>window.pwned" not in everything and "<img src=x" not in everything
    assert "</textarea>" not in everything and "<b>Eve</b>" not in everything
    paper = next(p for p in (hostile_site / "paper").glob("*.html") if "textarea" in p.read_text("utf-8"))
    text = paper.read_text("utf-8")
    assert (
        "&lt;/textarea&gt;&lt;script&gt;window.pwned=1&lt;/script&gt; &#34;quoted&#34; &amp; &#39;single&#39;"
        in text
    )
    # the search index: JSON whose <, >, & and U+2028 are escaped, which parses back to the very title
    index = parsed(hostile_site / "index.html")
    data = next(s for s in index.scripts if s.lstrip().startswith("["))
    assert "<" not in data and ">" not in data and "&" not in data and "\u2028" not in data
    assert HOSTILE_TITLE in [entry[0] for entry in json.loads(data)]
    assert HOSTILE_NAME in [entry[0] for entry in json.loads(data)]
    # the person's file name comes from the IRI's key, never from the raw name
    assert all(re.fullmatch(r"[\w.-]+\.html", p.name) for p in (hostile_site / "person").iterdir())


# --- how it is written --------------------------------------------------------------------------------


def test_same_graph_same_bytes(seed_site: Path, seed_outputs: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    write(open_store(seed_outputs), again)
    first = {p.relative_to(seed_site): p.read_bytes() for p in seed_site.rglob("*") if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in again.rglob("*") if p.is_file()}
    assert first.keys() == second.keys() and first == second


def test_site_replaced_whole_or_not_at_all(
    seed_outputs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "site"
    write(open_store(seed_outputs), target, SiteOptions(min_papers=1))
    (target / "stale.html").write_text("old")
    done = write(open_store(seed_outputs), target, SiteOptions(min_papers=3))
    assert not (target / "stale.html").exists() and (target / "index.html").is_file()
    assert done.pages == len(list(target.rglob("*.html")))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no staging folder or old site left
    before = {p: p.read_bytes() for p in target.rglob("*") if p.is_file()}

    calls = 0

    def failing(page: pages.Page, site: object) -> str:
        nonlocal calls
        calls += 1
        if calls > 20:
            raise KgError("disk on fire", code="write-failed")
        return "<p>partial</p>"

    monkeypatch.setattr("kg.site.render.html", failing)
    with pytest.raises(KgError, match="disk on fire"):
        write(open_store(seed_outputs), target)
    assert {p: p.read_bytes() for p in target.rglob("*") if p.is_file()} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_min_papers_leaves_pages_out(seed_site: Path, seed_outputs: Path, tmp_path: Path) -> None:
    store = open_store(seed_outputs)
    counts = {
        unquote(s[0].value.rsplit("/", 1)[-1]): int(s[1].value)
        for s in store.query("SELECT ?p ?n WHERE { ?p <https://w3id.org/kg/ns#paperCount> ?n }")  # type: ignore[union-attr]
    }
    target = tmp_path / "site"
    write(store, target, SiteOptions(min_papers=2))
    kept = {p.stem for p in (target / "person").glob("*.html")}
    assert kept == {key for key, n in counts.items() if n >= 2}
    assert kept < {p.stem for p in (seed_site / "person").glob("*.html")}
    lone = sorted(key for key, n in counts.items() if n == 1)[0]
    assert not (target / "person" / f"{lone}.html").exists()
    assert f"person/{lone}.html" not in (target / "persons.html").read_text("utf-8")
    # no page links to a page that was left out
    for page in target.rglob("*.html"):
        assert all(
            (page.parent / unquote(r)).resolve().is_file()
            for r in parsed(page).refs
            if not r.startswith("http")
        )


def test_long_lists_are_paginated(
    seed_outputs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages, "PAGE_SIZE", 5)
    target = tmp_path / "site"
    write(open_store(seed_outputs), target)
    person = target / "person"
    files = sorted(person.glob("thomas_hofmann*.html"))
    assert [p.name for p in files] == [
        "thomas_hofmann.html", "thomas_hofmann~2.html", "thomas_hofmann~3.html", "thomas_hofmann~4.html",
    ]  # fmt: skip
    titles = [
        re.findall(r'<span class="year">\d+</span> <a href="../paper/([^"]+)"', p.read_text("utf-8"))
        for p in files
    ]
    assert [len(t) for t in titles] == [5, 5, 5, 3]
    assert len({t for page in titles for t in page}) == 18
    assert 'href="../person/thomas_hofmann~4.html"' in files[0].read_text("utf-8")


def test_chart_draws_each_year_with_gaps() -> None:
    svg = chart.bars({2020: 3, 2023: 1}, {2020: 60, 2023: 4}, title="x")
    assert re.findall(r'data-period="(\d+)" data-papers="(\d+)"', svg) == [("2020", "3"), ("2023", "1")]
    assert [int(y) for y in re.findall(r'class="year"[^>]*>(\d+)<', svg)] == [2020, 2021, 2022, 2023]
    # a share of 4 papers says little: none is given
    assert "3 papers, 5% of the year&#x27;s 60" in svg and "<title>2023: 1 paper</title>" in svg


def test_chart_by_month_labels_its_periods_and_shares_stay_readable() -> None:
    from kg.plots.periods import period_key

    march, may = period_key(2025, 3, "month"), period_key(2025, 5, "month")
    svg = chart.bars({march: 1, may: 40}, {march: 2759, may: 400}, title="x", grain="month")
    assert re.findall(r'data-period="([\d-]+)"', svg) == ["2025-03", "2025-05"]
    assert "2025-03: 1 paper, &lt;0.1% of the month&#x27;s 2759" in svg  # never "0.0%"
    assert re.findall(r'class="year"[^>]*>([\d-]+)<', svg) == ["2025-03", "2025-04", "2025-05"]
    assert ox.Literal(svg)  # a string, nothing else
    assert chart.bars({}, {}, title="x") == ""


# --- the coauthor map of a person's page ----------------------------------------------------------------

MAP_HOSTILE = "</text><script>alert(1)</script>&"
LONG = [f"Wilhelmina {i} Featherstonehaugh-Cholmondeley" for i in range(1, 19)]


@pytest.fixture(scope="module")
def map_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ada wrote with Bob (3 papers), Carol, Dave and a hostile name (1 each); Bob and Carol also wrote
    one paper without her; Sol wrote alone; Zed wrote with 18 long names (5 of them twice).  Persons
    with fewer than 2 papers get no page."""
    folder = tmp_path_factory.mktemp("map-site")
    teams = [
        ["Ada Lovelace", "Bob Babbage", "Carol Somerville"],
        ["Ada Lovelace", "Bob Babbage"],
        ["Ada Lovelace", "Bob Babbage", MAP_HOSTILE],
        ["Bob Babbage", "Carol Somerville"],
        ["Ada Lovelace", "Dave Herschel"],
        ["Sol Itary"],
        ["Sol Itary"],
        ["Zed Many", *LONG],
        ["Zed Many", *LONG[:5]],
    ]
    records = [
        {
            "id": f"2503.{i:05d}",
            "title": f"Paper number {i} on topic {i * 7}",
            "authors": team,
            "categories": ["cs.LG"],
            "summary": f"Abstract {i}: we study question {i * 13} with care.",
        }
        for i, team in enumerate(teams, 1)
    ]
    listing = folder / "2025-03-18.jsonl"
    listing.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = build([listing], BuildOptions(), IssueLog())
    assert result.summary()["papers"] == len(teams)
    target = folder / "site"
    write(result.store, target, SiteOptions(min_papers=2))
    write(result.store, folder / "again", SiteOptions(min_papers=2))
    return target


def egomap_of(page: Path) -> ET.Element:
    """The coauthor map of a person's page, parsed as XML (it must be well-formed SVG)."""
    found = re.findall(r'<svg class="egomap".*?</svg>', page.read_text("utf-8"), re.S)
    assert len(found) == 1, page
    return ET.fromstring(found[0])


def test_coauthor_map_shows_joint_papers_and_links_pages_that_exist(map_site: Path) -> None:
    svg = egomap_of(map_site / "person" / "ada_lovelace.html")
    assert svg.tag == SVG + "svg" and svg.findtext(SVG + "title") == (
        "Coauthor map of Ada Lovelace: 4 coauthors"
    )
    person = svg.find(SVG + "g[@class='person']")
    assert person is not None and person.findtext(SVG + "text") == "Ada Lovelace"
    nodes = [n for n in svg if n.tag in (SVG + "a", SVG + "g") and n.get("class") != "person"]
    tips = [n.findtext(SVG + "title") for n in nodes]
    # strongest first, then in IRI order
    assert tips[0] == "Bob Babbage: 3 joint papers"
    assert sorted(tips[1:]) == sorted(
        ["Carol Somerville: 1 joint paper", "Dave Herschel: 1 joint paper", f"{MAP_HOSTILE}: 1 joint paper"]
    )
    spokes = svg.findall(SVG + "line[@class='joint']")
    joint = [int(line.get("data-joint", "0")) for line in spokes]
    widths = [float(line.get("stroke-width", "0")) for line in spokes]
    assert joint == [3, 1, 1, 1] and widths[0] > widths[1] == widths[2] == widths[3] > 0
    # Bob and Carol wrote two papers together (one without Ada), Bob and the hostile name one
    among = svg.findall(SVG + "path[@class='among']")
    assert [(p.get("stroke-width"), p.get("d", "").count("M")) for p in among] == [("1.80", 1), ("3.00", 1)]
    # links only to pages that exist: Bob and Carol have two papers, Dave and the hostile name one
    links = {a.get("href") for a in svg.iter(SVG + "a")}
    assert links == {"../person/bob_babbage.html", "../person/carol_somerville.html"}
    assert all((map_site / "person" / unquote(str(h))).resolve().is_file() for h in links)
    page = (map_site / "person" / "ada_lovelace.html").read_text("utf-8")
    assert page.index('id="map"') < page.index('id="papers"')  # beside the facts, before the papers


def test_coauthor_map_keeps_a_hostile_name_text(map_site: Path) -> None:
    page = (map_site / "person" / "ada_lovelace.html").read_text("utf-8")
    assert "<script>alert" not in page and "</text><script>" not in page
    assert "&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;" in page
    svg = egomap_of(map_site / "person" / "ada_lovelace.html")
    labels = [t.text for t in svg.iter(SVG + "text")]
    assert egomap.short(MAP_HOSTILE) in labels and egomap.short(MAP_HOSTILE).endswith("…")
    assert not list(svg.iter(SVG + "script"))


def test_coauthor_map_caps_coauthors_and_is_deterministic(map_site: Path) -> None:
    svg = egomap_of(map_site / "person" / "zed_many.html")
    spokes = svg.findall(SVG + "line[@class='joint']")
    assert len(spokes) == egomap.MAX_COAUTHORS == 16
    assert [int(s.get("data-joint", "0")) for s in spokes] == [2] * 5 + [1] * 11
    zed = (map_site / "person" / "zed_many.html").read_text("utf-8")
    assert "The 16 coauthors with most joint papers, of 18." in zed
    # no coauthors: no map
    alone = (map_site / "person" / "sol_itary.html").read_text("utf-8")
    assert "egomap" not in alone and "Coauthor map" not in alone
    # the same graph, the same bytes (the fixture wrote the site twice)
    again = map_site.parent / "again"
    for name in ("zed_many.html", "ada_lovelace.html", "bob_babbage.html"):
        assert (again / "person" / name).read_bytes() == (map_site / "person" / name).read_bytes()


def test_coauthor_map_labels_never_overlap() -> None:
    for n in (1, 2, 3, 5, 8, 9, 15, 16):
        spots = egomap.layout([(f"p{k:02d}", n - k) for k in range(n)])
        boxes = []
        for s in spots:
            width = egomap.LABEL_CHARS * egomap.CHAR_WIDTH
            left = s.label_x if s.anchor == "start" else s.label_x - width
            assert left >= 0 and left + width <= egomap.WIDTH, (n, s)
            assert 12 <= s.label_y <= egomap.height(n), (n, s)
            boxes.append((left, s.label_y - 12, left + width, s.label_y + 3))
        centre = egomap.height(n) / 2 + 24
        boxes.append((egomap.CX - 80, centre - 12, egomap.CX + 80, centre + 3))  # the person's name
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (n, a, b)


# --- the command line and kg serve ---------------------------------------------------------------------


def test_cli(seed_outputs: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    target = tmp_path / "out-site"
    result = runner.invoke(
        app, ["site", "--out", str(seed_outputs), "--output", str(target), "--min-papers", "2"]
    )
    assert result.exit_code == 0, result.output
    assert f"kg site: wrote {target}" in result.output and "person" in result.output
    assert (target / "index.html").is_file()
    assert runner.invoke(app, ["site", "--out", str(seed_outputs), "--min-papers", "-1"]).exit_code == 2
    missing = runner.invoke(app, ["site", "--out", str(tmp_path / "nothing")])
    assert missing.exit_code == 1 and "no built graph" in missing.output
    # a folder that is not a site (the build folder itself) is never replaced
    before = sorted(p.name for p in seed_outputs.iterdir())
    refused = runner.invoke(app, ["site", "--out", str(seed_outputs), "--output", str(seed_outputs)])
    assert refused.exit_code == 1 and "not a kg site" in refused.output
    assert sorted(p.name for p in seed_outputs.iterdir()) == before


def test_serve_serves_the_site(seed_site: Path, tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from kg.server import ServerOptions, create_app

    out = tmp_path / "build"
    (out / "store").mkdir(parents=True)  # the pool (and the store) is not started without the app's lifespan
    client = TestClient(create_app(ServerOptions(out=out)))
    assert client.get("/site/").status_code == 404  # no site yet
    (out / "secret.txt").write_text("secret")
    (out / "site").symlink_to(seed_site)
    index = client.get("/site/")
    assert index.status_code == 200 and "Thomas Hofmann" in index.text
    assert client.get("/site/person/thomas_hofmann.html").status_code == 200
    assert client.get("/site/site.css").headers["content-type"].startswith("text/css")
    for escape in ("/site/../secret.txt", "/site/%2e%2e/secret.txt", "/site/..%2fsecret.txt"):
        assert "secret" not in client.get(escape).text
    assert client.post("/site/index.html").status_code == 405


# --- in Chromium ---------------------------------------------------------------------------------------


def opened(browser: Any, path: Path) -> tuple[Any, list[str], list[str]]:
    """A page opened from disk, with its console messages and every URL it requested."""
    page = browser.new_page()
    console: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    return page, console, requests


KINDS_OF_PAGE = (
    "index.html",
    "persons.html",
    "person/thomas_hofmann.html",
    "method/lora.html",
    "subject/cs.LG.html",
    "area/deep-learning--everything-else.html",
    "repository/*.html",
    "paper/*.html",
)


@pytest.mark.parametrize("name", KINDS_OF_PAGE)
def test_each_kind_of_page_loads_offline_without_errors(browser: Any, seed_site: Path, name: str) -> None:
    path = sorted(seed_site.glob(name))[0]
    page, console, requests = opened(browser, path)
    try:
        assert console == []
        assert requests[0] == path.resolve().as_uri()
        # nothing but the page and the site's style sheet: no network, nothing outside the site
        assert requests[1:] == [(seed_site / "site.css").resolve().as_uri()]
        assert page.evaluate("getComputedStyle(document.body).maxWidth") == "1088px"  # site.css applied
        assert page.inner_text("h1")
    finally:
        page.close()


def test_search_finds_an_entity_and_opens_its_page(browser: Any, seed_site: Path) -> None:
    page, console, _ = opened(browser, seed_site / "index.html")
    try:
        page.wait_for_function("window.kgSearchReady === true")
        page.fill("#search", "thomas hof")
        first = page.locator("#search-results li a").first
        assert first.inner_text() == "Thomas Hofmann"
        assert "1 match" in page.inner_text("#search-count")
        page.fill("#search", "lora")
        assert "LoRA" in page.locator("#search-results").inner_text()
        page.fill("#search", "thomas hof")
        page.press("#search", "Enter")
        page.wait_for_url("**/person/thomas_hofmann.html")
        assert page.inner_text("h1") == "Thomas Hofmann"
        assert console == []
    finally:
        page.close()


def test_search_results_are_paged_with_a_count(browser: Any, seed_site: Path) -> None:
    page, console, _ = opened(browser, seed_site / "index.html")
    try:
        page.wait_for_function("window.kgSearchReady === true")
        page.fill("#search", "a")  # most names hold an "a": more matches than one page shows
        said = page.inner_text("#search-count")
        total = int(said.split(" ", 1)[0])
        assert total > 60 and f"{total} matches, 1–30 shown (page 1 of {-(-total // 30)})" == said
        first = page.locator("#search-results li").all_inner_texts()
        assert len(first) == 30 and page.is_disabled("#search-previous") and page.is_visible("#search-next")
        page.click("#search-next")
        assert page.inner_text("#search-count").startswith(f"{total} matches, 31–60 shown (page 2 of")
        second = page.locator("#search-results li").all_inner_texts()
        assert len(second) == 30 and not set(first) & set(second)
        assert page.evaluate("document.getElementById('search-results').start") == 31
        page.click("#search-previous")
        assert page.locator("#search-results li").all_inner_texts() == first
        page.fill("#search", "thomas hof")  # a new search starts on its first page, no pager for one match
        assert page.inner_text("#search-count") == "1 match" and not page.is_visible("#search-next")
        assert console == []
    finally:
        page.close()


def test_hostile_title_stays_text_in_chromium(browser: Any, hostile_site: Path) -> None:
    paper = next(
        p for p in sorted((hostile_site / "paper").glob("*.html")) if "textarea" in p.read_text("utf-8")
    )
    page, console, requests = opened(browser, paper)
    try:
        assert page.evaluate("window.pwned") is None
        assert page.inner_text("h1") == HOSTILE_TITLE
        assert page.locator("img").count() == 0 and page.locator("script").count() == 0
        assert HOSTILE_NAME in page.inner_text("body")
        assert console == [] and all(r.startswith("file://") for r in requests)
    finally:
        page.close()
    page, console, _ = opened(browser, hostile_site / "index.html")
    try:
        page.wait_for_function("window.kgSearchReady === true")
        page.fill("#search", "textarea")
        assert page.locator("#search-results li a").first.inner_text() == HOSTILE_TITLE
        assert page.evaluate("window.pwned") is None and console == []
    finally:
        page.close()


def test_coauthor_map_in_chromium_names_apart_inside_no_requests(browser: Any, map_site: Path) -> None:
    for name in ("zed_many.html", "ada_lovelace.html"):
        path = map_site / "person" / name
        page, console, requests = opened(browser, path)
        try:
            assert console == [] and requests[1:] == [(map_site / "site.css").resolve().as_uri()]
            assert page.evaluate("window.pwned") is None
            # each name's box as the browser lays it out, in the picture's own units
            boxes = page.evaluate(
                """() => [...document.querySelectorAll('svg.egomap text')].map(t => {
                    const b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; })"""
            )
            width, height = page.evaluate(
                "(() => { const v = document.querySelector('svg.egomap').viewBox.baseVal; "
                "return [v.width, v.height]; })()"
            )
            assert len(boxes) == (17 if name == "zed_many.html" else 5)
            for i, a in enumerate(boxes):
                assert a[0] >= 0 and a[2] <= width and a[1] >= 0 and a[3] <= height, (name, a)
                for b in boxes[i + 1 :]:
                    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (name, a, b)
            page.click("svg.egomap a >> nth=0")
            page.wait_for_load_state("load")
            assert page.url.endswith(".html") and "/person/" in page.url and console == []
        finally:
            page.close()


def test_staged_folder_refuses_names_outside_it(tmp_path: Path) -> None:
    from kg.files import staged_folder

    target = tmp_path / "folder"
    for name in ("../escape.html", "/abs.html", "a//b.html", "./a.html", ""):
        with pytest.raises(KgError, match="not a file name"), staged_folder(target) as folder:
            folder.write(name, b"x")
        assert sorted(p.name for p in tmp_path.iterdir()) == []
    with staged_folder(target) as folder:
        folder.write("a/b.html", b"x")
    assert (target / "a" / "b.html").read_bytes() == b"x" and folder.files == 1


def test_the_views_kg_build_wrote_link_to_the_site_once_it_is_there(
    seed_outputs: Path, tmp_path: Path
) -> None:
    import json
    import shutil

    out = tmp_path / "out"
    shutil.copytree(seed_outputs, out)

    def sites(page: str) -> dict[str, str]:
        text = (out / page).read_text("utf-8")
        data = json.loads(text.split('id="kg-data">', 1)[1].split("</script>", 1)[0])
        return {n["iri"]: n["site"] for n in data["nodes"]}

    assert not any(sites("coauthors.html").values())  # the build drew it before any site
    from kg.viz import link_views

    write(open_store(out), out / "site")
    assert link_views(out / "site") == 2
    for page in ("coauthors.html", "topics.html"):
        linked = {iri: href for iri, href in sites(page).items() if href}
        assert linked, page
        for href in linked.values():  # each link is a page the site has
            assert (out / "site" / unquote(href)).is_file(), href
    hofmann = "https://w3id.org/kg/id/person/thomas_hofmann"
    assert sites("coauthors.html")[hofmann] == "person/thomas_hofmann.html"
    # a site written elsewhere is not beside the views: they are left alone
    write(open_store(out), tmp_path / "elsewhere")
    assert link_views(tmp_path / "elsewhere") == 0
    done = CliRunner().invoke(app, ["site", "--out", str(out)])
    assert done.exit_code == 0 and "linked 2 view pages to it" in done.output


def test_ties_are_broken_by_count_then_by_name_as_a_reader_looks_for_it() -> None:
    from kg.site.entities import file, tally
    from kg.site.queries import Corpus, Paper

    base = "https://w3id.org/kg/id/person/"
    people = {"zoe": "Zoe Zhang", "%C3%A7a%C4%9Fatay": "Çağatay Demir", "carl": "Carl Berg", "ada": "Ada Ng"}
    corpus = Corpus()
    corpus.papers = {f"p{i}": Paper(f"p{i}", f"Paper {i}", 2025) for i in range(3)}
    corpus.names = {base + k: v for k, v in people.items()}
    corpus.authors = {"p0": [base + k for k in people], "p1": [base + "zoe"], "p2": []}
    site = file(corpus)
    order = [
        corpus.names[iri] for iri, _ in tally([a for p in ("p0", "p1") for a in corpus.authors[p]], site)
    ]
    assert order == ["Zoe Zhang", "Ada Ng", "Çağatay Demir", "Carl Berg"]  # 2 papers, then A, Ç, C
    assert [e.label for e in site.of_kind("person")] == order


def test_a_site_rendered_by_several_processes_is_the_same_site(seed_outputs: Path, tmp_path: Path) -> None:
    one = write(open_store(seed_outputs), tmp_path / "one" / "site", SiteOptions(min_papers=1, jobs=1))
    three = write(open_store(seed_outputs), tmp_path / "three" / "site", SiteOptions(min_papers=1, jobs=3))
    assert (one.pages, one.bytes, one.entities) == (three.pages, three.bytes, three.entities)
    files = sorted(p.relative_to(one.target) for p in one.target.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(three.target) for p in three.target.rglob("*") if p.is_file())
    assert all((one.target / f).read_bytes() == (three.target / f).read_bytes() for f in files)
    assert one.pages == len(files) - 1  # every page, and the style sheet


def test_a_store_read_by_several_processes_is_the_same_corpus(
    seed_outputs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kg.site import queries
    from kg.store import located

    alone = queries.read(open_store(seed_outputs))
    asked: list[str] = []
    solutions = queries._solutions

    parent = os.getpid()

    def counted(store: Any, text: str) -> Any:
        if os.getpid() == parent:  # this process slow: the forked ones take most of the scans
            asked.append(text)
            time.sleep(0.2)
        return solutions(store, text)

    monkeypatch.setattr(queries, "_solutions", counted)
    shared = queries.read(open_store(seed_outputs), 3, located(seed_outputs))
    assert shared == alone and len(alone.papers) == 157 and alone.evidence and alone.sources
    # this process ran its share of the scans and read none again: the forked ones ran the rest
    assert len(asked) == len(set(asked)) < len(queries.every_scan()) / 2
    assert set(asked) <= set(queries.every_scan())
    # a reader that cannot open the store leaves its scans to this process: the same corpus
    assert queries.read(open_store(seed_outputs), 2, seed_outputs / "no-such-store") == alone


def test_the_default_min_papers_follows_the_size_of_the_graph(seed_outputs: Path, tmp_path: Path) -> None:
    from kg.site import default_min_papers

    small = write(open_store(seed_outputs), tmp_path / "site")  # 157 papers: every person has a page
    assert small.entities["person"] == 70
    assert [default_min_papers(n) for n in (999, 1_000, 49_999, 50_000)] == [1, 2, 2, 3]


def test_a_graph_of_months_rises_window_on_window() -> None:
    from kg.plots.periods import PaperDate
    from kg.site.entities import file, rising, windows
    from kg.site.queries import Corpus, Paper

    corpus = Corpus()
    lora = "https://w3id.org/kg/method/lora"
    # 12 papers a month from 2025-01 to 2025-08 but none in 2025-05; LoRA in 1 a month, then 4 from 2025-06
    for month in (1, 2, 3, 4, 6, 7, 8):
        for i in range(12):
            key = f"p{month}-{i}"
            corpus.papers[key] = Paper(key, f"Paper {key}", 2025)
            corpus.dates[key] = PaperDate(2025, month)
            if i < (4 if month >= 6 else 1):
                corpus.mentions[key] = [lora]
    corpus.labels[lora] = "LoRA"
    site = file(corpus)
    assert site.grain == "month"
    last, before = windows(site)
    assert ([k % 12 + 1 for k in before], [k % 12 + 1 for k in last]) == ([2, 3, 4], [6, 7, 8])
    (rise,) = rising(site)
    assert (rise.before, rise.last) == ("2025-02–2025-04", "2025-06–2025-08")  # 3 against 3, May a gap
    assert (rise.count_before, rise.total_before, rise.count_last, rise.total_last) == (3, 36, 12, 36)


def test_a_vocabulary_concept_keeps_its_page_name_when_a_coined_name_collides() -> None:
    """A paper's coined name that collides with a known method's page name ("LoRA" minted under the
    build's base, the vocabulary's lora) gets the suffix; the vocabulary's concept keeps method/lora.html
    (issue 34)."""
    from kg.site.entities import file
    from kg.site.queries import Corpus, Paper

    known, coined = "https://w3id.org/kg/method/lora", "https://w3id.org/kg/id/method/LoRA"
    corpus = Corpus(
        papers={"p": Paper("p", "P", 2025), "q": Paper("q", "Q", 2025)},
        mentions={"p": [known]},
        introduces={"q": [coined]},
    )
    site = file(corpus)
    assert site.entities[known].slug == "lora"
    assert site.entities[coined].slug.startswith("LoRA-") and site.entities[coined].slug != "LoRA"


def test_broad_paradigms_are_listed_apart_from_the_methods_a_researcher_names() -> None:
    """kg:paradigm and kg:generic concepts (LLM, neural network) come after the named methods, in a
    list of their own, and never in the rising table (issue 34)."""
    from kg.site.entities import file, rising
    from kg.site.queries import Corpus, Paper
    from kg.site.render import listing_pages

    llm, lora = "https://w3id.org/kg/method/large-language-model", "https://w3id.org/kg/method/lora"
    papers = {f"p{i}": Paper(f"p{i}", f"P{i}", 2024 + i % 2) for i in range(40)}
    corpus = Corpus(
        papers=papers,
        mentions={p: [llm] + ([lora] if i % 3 == 0 else []) for i, p in enumerate(papers)},
        labels={llm: "large language model", lora: "LoRA"},
        paradigms={llm},
    )
    corpus.years = {2024: 20, 2025: 20}
    site = file(corpus)
    (page,) = listing_pages(site, "method")
    main, apart = page.sections
    assert [link.text for link in main.links] == ["LoRA"]
    assert apart.title == "Broad paradigms and umbrella concepts"
    assert [link.text for link in apart.links] == ["large language model"]
    assert llm not in {r.iri for r in rising(site)}
