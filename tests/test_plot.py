"""``kg plot``: each figure computed from a hand-made graph (and the seeds), drawn as valid SVG and 300 dpi PNG.

The small graphs are stated with the vocabulary the assembler writes, including the build's
``kg:countsByYear`` counts, so that each figure's numbers can be worked out by hand.
"""

from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import pyoxigraph as ox
import pytest
from typer.testing import CliRunner

from kg.cli import app
from kg.errors import KgError, UsageError
from kg.plots import bursts as burst_figure
from kg.plots import counts, thematic
from kg.plots import overlay as overlay_figure
from kg.plots import trend as trend_figure
from kg.plots.bursts import kleinberg
from kg.plots.canvas import render, style
from kg.plots.figures import FIGURES, PlotOptions, draw, figure_module, plot
from kg.vocab import (
    ARXIV_BASE,
    DATA_BASE,
    DCTERMS,
    FABIO,
    FOAF,
    KG,
    KG_BASE,
    METHOD_BASE,
    RDF,
    SCHEMA,
    SKOS,
    XSD,
)

SVG = "{http://www.w3.org/2000/svg}"
GENERIC = ox.NamedNode(KG_BASE + "generic")  # the term the methods taxonomy marks umbrella methods with


@dataclass(frozen=True)
class P:
    """A hand-made paper: key, year, author names, method slugs, subject codes, area (parent, child)."""

    key: str
    year: int = 0
    authors: Sequence[str] = ()
    methods: Sequence[str] = ()
    subjects: Sequence[str] = ()
    area: tuple[str, str] | None = None
    issued: str = ""
    """``dcterms:issued`` (YYYY-MM-DD), when the source gave a date."""
    arxiv: str = ""
    """An arXiv identifier (``2503.00001v1``), whose number holds its month."""


def small_store(
    papers: Sequence[P], generic: Sequence[str] = (), labels: dict[str, str] | None = None
) -> ox.Store:
    """A store holding these papers and the per-year counts a build writes for their concepts."""
    store = ox.Store()
    quads: list[ox.Quad] = []
    per_year: dict[tuple[str, int], set[str]] = defaultdict(set)

    def add(s: ox.NamedNode, p: ox.NamedNode, o: ox.NamedNode | ox.Literal) -> None:
        quads.append(ox.Quad(s, p, o, ox.DefaultGraph()))

    for paper in papers:
        node = ox.NamedNode(f"{DATA_BASE}paper/{paper.key}")
        add(node, RDF.type, SCHEMA.ScholarlyArticle)
        add(node, DCTERMS.title, ox.Literal(f"Paper {paper.key}"))
        if paper.year:
            add(node, FABIO.hasPublicationYear, ox.Literal(str(paper.year), datatype=XSD.gYear))
        if paper.issued:
            add(node, DCTERMS.issued, ox.Literal(paper.issued, datatype=XSD.date))
        if paper.arxiv:
            add(node, DCTERMS.identifier, ox.Literal(f"arxiv:{paper.arxiv}"))
        for name in paper.authors:
            person = ox.NamedNode(f"{DATA_BASE}person/{name.lower().replace(' ', '_')}")
            add(node, DCTERMS.creator, person)
            add(person, RDF.type, FOAF.Person)
            add(person, FOAF.name, ox.Literal(name))
        concepts: list[str] = []
        for slug in paper.methods:
            concept = ox.NamedNode(METHOD_BASE + slug)
            add(node, SCHEMA.mentions, concept)
            add(concept, SKOS.prefLabel, ox.Literal((labels or {}).get(slug, slug.upper()), language="en"))
            concepts.append(concept.value)
        for code in paper.subjects:
            concept = ox.NamedNode(ARXIV_BASE + code)
            add(node, DCTERMS.subject, concept)
            add(concept, SKOS.notation, ox.Literal(code))
            add(concept, SKOS.prefLabel, ox.Literal(f"Subject {code}", language="en"))
            concepts.append(concept.value)
        if paper.area:
            parent_key, child_key = (part.lower().replace(" ", "-") for part in paper.area)
            parent = ox.NamedNode(f"{DATA_BASE}area/{parent_key}")
            concept = ox.NamedNode(f"{DATA_BASE}area/{parent_key}--{child_key}")
            add(node, KG.area, concept)
            add(concept, SKOS.prefLabel, ox.Literal(paper.area[1], language="en"))
            add(concept, SKOS.broader, parent)
            add(parent, SKOS.prefLabel, ox.Literal(paper.area[0], language="en"))
            concepts.append(concept.value)
        if paper.year:
            for concept_iri in concepts:
                per_year[concept_iri, paper.year].add(paper.key)
    for (concept_iri, year), keys in sorted(per_year.items()):
        count = ox.NamedNode(f"{concept_iri}/count/{year}")
        add(ox.NamedNode(concept_iri), KG.countsByYear, count)
        add(count, RDF.type, KG.YearCount)
        add(count, KG.year, ox.Literal(str(year), datatype=XSD.gYear))
        add(count, KG.papers, ox.Literal(str(len(keys)), datatype=XSD.integer))
    for slug in generic:
        add(ox.NamedNode(METHOD_BASE + slug), GENERIC, ox.Literal(True))
    store.bulk_extend(quads)
    return store


PAPERS = [
    P("a1", 2020, ["Ada Lovelace", "Alan Turing"], ["lora", "model"], ["cs.LG"], ("Deep Learning", "Everything Else")),
    P("a2", 2020, ["Ada Lovelace", "Grace Hopper"], ["model"], ["cs.LG"]),
    P("a3", 2021, ["Alan Turing"], ["lora", "model", "transformer"], ["cs.CL"], ("Theory", "Everything Else")),
    P("a4", 2021, ["Grace Hopper", "Alan Turing"], ["transformer", "model"], ["cs.CL"]),
    P("a5", 2022, ["Ada Lovelace"], ["transformer", "model"], ["cs.CL"]),
    P("a6", 2022, ["Edsger Dijkstra"], ["model"], ["cs.LG"]),
    P("a7", 0, ["Nobody Dated"], ["lora"], ["cs.LG"]),
]  # fmt: skip
"""lora: 2020 and 2021 (and an undated paper); transformer: 2021 and 2022; model (generic): every year."""


@pytest.fixture(scope="module")
def store() -> ox.Store:
    return small_store(PAPERS, generic=["model"])


def svg_of(store: ox.Store, name: str, options: PlotOptions | None = None) -> str:
    figure = draw(store, name, options)
    with style():
        return render(figure, "svg").decode("utf-8")


def group(svg: str, gid: str) -> ET.Element:
    found = ET.fromstring(svg).find(f".//{SVG}g[@id='{gid}']")
    assert found is not None, f"no element {gid!r} in the SVG"
    return found


def png_dpi(data: bytes) -> tuple[float, float]:
    """The resolution stored in a PNG's pHYs chunk, in dots per inch."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        if kind == b"pHYs":
            x, y, unit = struct.unpack(">IIB", data[at + 8 : at + 17])
            assert unit == 1  # metres
            return x * 0.0254, y * 0.0254
        at += 12 + length
    raise AssertionError("no pHYs chunk")


# --- Kleinberg's burst detection ---------------------------------------------------------------------


def test_kleinberg_one_year_burst_computed_by_hand() -> None:
    # 9 of 40 papers use the term: p0 = 0.225, p1 = 2 * p0 = 0.45; entering the burst state costs ln 4.
    # Year 3 (6 of 10): base state 6 ln(1/0.225) + 4 ln(1/0.775) = 9.9695, burst state 6 ln(1/0.45)
    # + 4 ln(1/0.55) = 7.1824: 2.7871 saved > 1.3863 to enter.  Years of 1 in 10 cost 2.3934 more in
    # the burst state, more than leaving and entering again, so the burst is year 3 alone.
    assert [(a, b, round(s, 4)) for a, b, s in kleinberg([1, 1, 6, 1], [10, 10, 10, 10])] == [(2, 2, 2.7871)]


def test_kleinberg_two_year_burst_computed_by_hand() -> None:
    # 10 of 60 papers: p0 = 1/6, p1 = 1/3; entering costs ln 6 = 1.7918.  A year of 5 in 10 costs
    # 5 ln 6 + 5 ln(6/5) = 9.8704 in the base state and 5 ln 3 + 5 ln(3/2) = 7.5204 in the burst state
    # (2.3500 saved); a year of 0 in 10 costs 10 ln(6/5) = 1.8232 and 10 ln(3/2) = 4.0547 (2.2314 more in
    # the burst state).  The two years of 5 save 4.7000 > 1.7918: one burst, years 3-4, strength 4.700.
    found = kleinberg([0, 0, 5, 5, 0, 0], [10] * 6)
    assert [(a, b, round(s, 3)) for a, b, s in found] == [(2, 3, 4.700)]


def test_kleinberg_entering_cost_and_flat_shares() -> None:
    assert kleinberg([1, 1, 6, 1], [10, 10, 10, 10], gamma=3.0) == []  # 3 ln 4 = 4.16 > 2.79 saved
    assert kleinberg([2, 4, 6], [10, 20, 30]) == []  # the same share every year
    assert kleinberg([0, 0], [5, 5]) == [] and kleinberg([], []) == []
    assert kleinberg([3, 3], [3, 3]) == []  # every paper: nothing stands out
    with pytest.raises(ValueError):
        kleinberg([4], [3])


def test_bursts_figure_finds_the_burst_year() -> None:
    papers = [P(f"b{y}-{i}", y, methods=["steady"] + (["spike"] if y == 2022 and i < 6 else []))
              for y in range(2019, 2025) for i in range(10)]  # fmt: skip
    papers += [P("x2019", 2019, methods=["spike"])]
    data = burst_figure.compute(small_store(papers), PlotOptions())
    assert [r.concept.label for r in data.rows] == ["SPIKE"]  # steady is in every paper: no burst
    row = data.rows[0]
    assert data.grain == "year" and data.periods == tuple(str(y) for y in range(2019, 2025))
    shown = (data.periods[row.first], data.periods[row.strongest.begin], data.periods[row.strongest.end])
    assert shown == ("2019", "2022", "2022")
    svg = svg_of(small_store(papers), "bursts")
    assert group(svg, "cell-0-2022").find(f"{SVG}path") is not None
    fills = {y: ET.tostring(group(svg, f"cell-0-{y}"), encoding="unicode") for y in data.periods}
    assert "#d7191c" in fills["2022"] and not any("#d7191c" in fills[y] for y in data.periods if y != "2022")


# --- trend -------------------------------------------------------------------------------------------


def test_trend_of_a_method_in_two_years_has_two_points(store: ox.Store) -> None:
    data = trend_figure.compute(store, PlotOptions(methods=("lora",)))
    assert data.periods == ("2020", "2021", "2022") and data.grain == "year"
    (series,) = data.series
    assert series.values == (1.0, 1.0, 0.0)  # the undated paper is in no year
    small = small_store([p for p in PAPERS if p.year in (2020, 2021)])
    svg = svg_of(small, "trend", PlotOptions(methods=("LoRA",)))
    line = group(svg, "series-0")
    path = line.find(f"{SVG}path")
    assert path is not None
    assert len(re.findall(r"[ML] ", path.get("d", ""))) == 2  # two points joined
    assert len(line.findall(f".//{SVG}use")) == 2  # two markers


def test_trend_shares_and_names(store: ox.Store) -> None:
    both = PlotOptions(methods=("transformer",), subjects=("cs.CL",), share=True, min_period=1)
    data = trend_figure.compute(store, both)
    assert data.totals == (2, 2, 2)
    assert [s.concept.label for s in data.series] == ["TRANSFORMER", "Subject cs.CL (cs.CL)"]
    assert data.series[0].values == (0.0, 1.0, 0.5)
    assert data.series[1].values == (0.0, 1.0, 0.5)
    named = trend_figure.compute(store, PlotOptions(subjects=("subject CS.cl",)))  # its name, any case
    assert [s.concept.label for s in named.series] == ["Subject cs.CL (cs.CL)"]
    areas = trend_figure.compute(store, PlotOptions(areas=("Deep Learning · Everything Else",)))
    assert [(s.concept.label, s.values) for s in areas.series] == [
        ("Deep Learning · Everything Else", (1.0, 0.0, 0.0))
    ]
    theory = trend_figure.compute(store, PlotOptions(areas=("theory",)))  # the parent's name: its areas
    assert [(s.concept.label, s.values) for s in theory.series] == [
        ("Theory · Everything Else", (0.0, 1.0, 0.0))
    ]
    assert len(trend_figure.compute(store, PlotOptions(areas=("everything else",))).series) == 2
    with pytest.raises(KgError, match="no dated papers with a method named 'bert'") as e:
        trend_figure.compute(store, PlotOptions(methods=("bert",)))
    assert e.value.code == "unknown-term"


def test_generic_methods_left_out_by_default_and_back_with_the_flag(store: ox.Store) -> None:
    top = trend_figure.compute(store, PlotOptions())
    assert [s.concept.slug for s in top.series] == ["transformer", "lora"]  # 3 and 2 dated papers
    everything = trend_figure.compute(store, PlotOptions(generic=True))
    assert [s.concept.slug for s in everything.series] == ["model", "transformer", "lora"]
    with pytest.raises(KgError, match="generic methods need --generic"):
        trend_figure.compute(store, PlotOptions(methods=("model",)))
    assert METHOD_BASE + "model" not in counts.mentions(store)
    assert METHOD_BASE + "model" in counts.mentions(store, generic=True)
    terms = {t for theme in thematic.compute(store, PlotOptions(min_papers=1)).themes for t in theme.terms}
    assert "MODEL" not in terms
    terms = {
        t
        for theme in thematic.compute(store, PlotOptions(min_papers=1, generic=True)).themes
        for t in theme.terms
    }
    assert "MODEL" in terms
    topics = overlay_figure.compute(store, PlotOptions(view="topics"))
    assert METHOD_BASE + "model" not in topics.graph
    assert (
        METHOD_BASE + "model" in overlay_figure.compute(store, PlotOptions(view="topics", generic=True)).graph
    )


# --- thematic map ------------------------------------------------------------------------------------


def test_thematic_map_computed_by_hand() -> None:
    # a and b in papers 1 and 2, c and d in 3 and 4, b and c in 5: c_a = c_d = 2, c_b = c_c = 3.
    # e_ab = e_cd = 2^2 / (2 * 3) = 2/3, e_bc = 1^2 / (3 * 3) = 1/9.  Themes {a, b} and {c, d}: each has
    # centrality 1/9 (its one link out) and density 100 * (2/3) / 2 = 33.3.
    papers = [P("1", methods=["a", "b"]), P("2", methods=["a", "b"]), P("3", methods=["c", "d"]),
              P("4", methods=["c", "d"]), P("5", methods=["b", "c"])]  # fmt: skip
    data = thematic.compute(small_store(papers), PlotOptions())
    assert sorted(sorted(t.terms) for t in data.themes) == [["A", "B"], ["C", "D"]]
    for theme in data.themes:
        assert theme.frequency == 5
        assert theme.centrality == pytest.approx(1 / 9)
        assert theme.density == pytest.approx(100 / 3)
    assert data.terms == 4


def test_thematic_map_quadrants() -> None:
    # four tight pairs: x-y also linked to m-n and r-s (the most central), p-q to nobody (the densest):
    # c_x = c_y = 6, c_m = c_n = c_r = c_s = c_p = c_q = 5.  Centrality: x-y 4/30, m-n and r-s 2/30,
    # p-q 0; density: x-y 100 * (16/36) / 2 = 22.2, m-n and r-s 100 * (16/25) / 2 = 32, p-q
    # 100 * (25/25) / 2 = 50.  Ranks (ties averaged) split at their mean, 2.5.
    pairs = (("x", "y"), ("p", "q"), ("m", "n"), ("r", "s"))
    papers = [P(f"{a}{b}{i}", methods=[a, b]) for a, b in pairs for i in range(4)]
    papers += [
        P(a + b, methods=[a, b]) for a, b in (("x", "m"), ("y", "n"), ("x", "r"), ("y", "s"), ("p", "q"))
    ]
    data = thematic.compute(small_store(papers), PlotOptions())
    themes = {"".join(sorted(t.terms)).lower(): t for t in data.themes}
    assert set(themes) == {"xy", "pq", "mn", "rs"}
    assert themes["xy"].centrality == pytest.approx(4 / 30) and themes["pq"].centrality == 0.0
    assert themes["mn"].centrality == pytest.approx(2 / 30)
    assert themes["xy"].density == pytest.approx(100 * 16 / 36 / 2)
    assert themes["pq"].density == pytest.approx(50)
    assert (themes["xy"].rank_centrality, themes["xy"].rank_density) == (4.0, 1.0)
    assert (themes["mn"].rank_centrality, themes["mn"].rank_density) == (2.5, 2.5)
    assert data.mean_centrality == data.mean_density == 2.5
    assert {k: t.quadrant for k, t in themes.items()} == {
        "xy": "basic", "pq": "niche", "mn": "emerging or declining", "rs": "emerging or declining"
    }  # fmt: skip
    svg = svg_of(small_store(papers), "thematic-map")
    assert all(group(svg, f"theme-{i}") is not None for i in range(4))


# --- overlay -----------------------------------------------------------------------------------------


def test_overlay_colours_nodes_by_mean_year_and_labels_without_overlap(store: ox.Store) -> None:
    data = overlay_figure.compute(store, PlotOptions())
    years = {data.graph.nodes[n]["label"]: data.graph.nodes[n]["mean_year"] for n in data.graph}
    assert years["Ada Lovelace"] == pytest.approx((2020 + 2020 + 2022) / 3)
    assert years["Alan Turing"] == pytest.approx((2020 + 2021 + 2021) / 3)
    assert years["Nobody Dated"] == 0.0
    # Ada and Alan have 3 papers and 2 coauthors each: the tie goes by IRI
    assert data.ranked[0] == next(n for n in data.graph if data.graph.nodes[n]["label"] == "Ada Lovelace")
    figure = overlay_figure.draw(data, PlotOptions())
    figure.canvas.draw()  # where the labels end up when the file is written
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]  # the Agg canvas has one
    labels = [t for t in figure.axes[0].texts if t.get_gid() and str(t.get_gid()).startswith("label-")]
    assert len(labels) >= 3
    boxes = [t.get_window_extent(renderer) for t in labels]
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b)


def test_overlay_labels_of_the_seeds_never_overlap(seed_outputs: Path) -> None:
    from kg.store import open_store

    for view in ("topics", "coauthors"):
        figure = draw(open_store(seed_outputs), "overlay", PlotOptions(view=view, labels=60))
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]  # the Agg canvas has one
        labels = [t for t in figure.axes[0].texts if str(t.get_gid() or "").startswith("label-")]
        assert len(labels) >= 20, view
        frame = figure.axes[0].get_window_extent(renderer)
        boxes = [t.get_window_extent(renderer) for t in labels]
        assert all(frame.contains(b.x0, b.y0) and frame.contains(b.x1, b.y1) for b in boxes)
        assert not [
            (a.get_text(), b.get_text())
            for (a, x), (b, y) in combinations(zip(labels, boxes, strict=True), 2)
            if x.overlaps(y)
        ]


def test_overlay_unknown_view(store: ox.Store) -> None:
    with pytest.raises(KgError, match="unknown view 'papers'; choose from: coauthors, topics"):
        overlay_figure.compute(store, PlotOptions(view="papers"))


# --- files -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(FIGURES))
def test_each_figure_is_valid_svg_and_300_dpi_png(store: ox.Store, name: str, tmp_path: Path) -> None:
    options = PlotOptions(min_papers=1)
    svg = plot(store, name, tmp_path / f"{name}.svg", options)
    root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG}svg"
    assert len(root.findall(f".//{SVG}path")) > 10
    png = plot(store, name, tmp_path / f"{name}.png", options)
    data = png.read_bytes()
    assert png_dpi(data) == (pytest.approx(300, abs=0.01), pytest.approx(300, abs=0.01))
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 1500 and height >= 300
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([f"{name}.svg", f"{name}.png"])  # and no temporary file


@pytest.mark.parametrize("name", list(FIGURES))
def test_same_graph_same_svg(store: ox.Store, name: str, tmp_path: Path) -> None:
    first = plot(store, name, tmp_path / "a.svg").read_bytes()
    second = plot(small_store(PAPERS, generic=["model"]), name, tmp_path / "b.svg").read_bytes()
    assert first == second
    assert b"<dc:date>" not in first


def test_hostile_labels_stay_text(tmp_path: Path) -> None:
    hostile = r"$\frac{1}{0$ <script>alert(1)</script> & --> \x"
    papers = [P("h1", 2020, ["A"], ["evil", "good"]), P("h2", 2021, ["A"], ["evil", "good"])]
    store = small_store(papers, labels={"evil": hostile})
    for name in FIGURES:
        target = plot(store, name, tmp_path / f"{name}.svg", PlotOptions(view="topics", title=hostile))
        text = target.read_text(encoding="utf-8")
        ET.fromstring(text)  # still well-formed
        assert "<script>" not in text
    # drawn as written, dollar signs and all (matplotlib names each text in a comment beside its glyphs)
    assert (
        r"<!-- $\frac{1}{0$ &lt;script&gt;"
        in plot(store, "trend", tmp_path / "t.svg", PlotOptions(title=hostile)).read_text()
    )


def test_unknown_figure_and_format(store: ox.Store, tmp_path: Path) -> None:
    with pytest.raises(
        UsageError, match="unknown figure 'heatmap'; choose from: trend, bursts, thematic-map, overlay"
    ):
        figure_module("heatmap")
    with pytest.raises(UsageError, match=r"give a file ending in \.svg or \.png"):
        plot(store, "trend", tmp_path / "trend.pdf")
    assert not list(tmp_path.iterdir())


# --- the seeds and the command line ------------------------------------------------------------------


def test_trend_of_the_seeds_matches_the_named_query(seed_outputs: Path) -> None:
    from kg.queries import named_query
    from kg.sparql import Solutions, bind, execute
    from kg.store import open_store

    store = open_store(seed_outputs)
    data = trend_figure.compute(store, PlotOptions(top=3, generic=True, grain="year", min_period=1))
    assert len(data.series) == 3
    query = named_query("method-trend")  # with generic methods, as the figure above
    result = execute(store, bind(query.text, query.bindings({"generic": "true"})))
    assert isinstance(result, Solutions)
    expected: dict[str, dict[int, int]] = defaultdict(dict)
    for concept, _, year, papers in result.rows:
        assert concept is not None and year is not None and papers is not None
        expected[concept.value][int(year.value)] = int(papers.value)
    for series in data.series:
        got = {int(y): int(v) for y, v in zip(data.periods, series.values, strict=True) if v}
        assert got == expected[series.concept.iri]
    assert math.isclose(sum(data.totals), sum(counts.paper_totals(store).values()))


def test_cli_plot(seed_outputs: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    target = tmp_path / "trend.png"
    result = runner.invoke(
        app, ["plot", "trend", "--out", str(seed_outputs), "--output", str(target), "--share"]
    )
    assert result.exit_code == 0, result.output
    assert png_dpi(target.read_bytes())[0] == pytest.approx(300, abs=0.01)
    for name in ("bursts", "thematic-map", "overlay"):
        svg = tmp_path / f"{name}.svg"
        result = runner.invoke(app, ["plot", name, "-o", str(seed_outputs), "--output", str(svg)])
        assert result.exit_code == 0, result.output
        ET.parse(svg)
    result = runner.invoke(app, ["plot", "trends", "-o", str(seed_outputs)])
    assert result.exit_code == 2
    assert "unknown figure 'trends'; choose from: trend, bursts, thematic-map, overlay" in result.output
    result = runner.invoke(
        app, ["plot", "trend", "-o", str(seed_outputs), "--output", str(tmp_path / "x.jpg")]
    )
    assert result.exit_code == 2 and "ending in .svg or .png" in result.output
    result = runner.invoke(app, ["plot", "trend", "-o", str(seed_outputs), "--method", "no-such-method", "--output", str(tmp_path / "y.svg")])  # fmt: skip
    assert result.exit_code == 2 and "no dated papers with a method named 'no-such-method'" in result.output
    assert not (tmp_path / "y.svg").exists()
    result = runner.invoke(app, ["plot", "bursts", "-o", str(seed_outputs), "--kind", "author"])
    assert (
        result.exit_code == 2 and "unknown kind 'author'; choose from: method, subject, area" in result.output
    )
    result = runner.invoke(app, ["plot", "overlay", "-o", str(seed_outputs), "--view", "papers"])
    assert result.exit_code == 2 and "choose from: coauthors, topics" in result.output
    result = runner.invoke(app, ["plot", "trend", "-o", str(tmp_path / "nothing")])
    assert result.exit_code == 1 and "no built graph" in result.output
    listing = runner.invoke(app, ["list", "figures"])
    assert listing.exit_code == 0 and all(name in listing.output for name in FIGURES)


# --- time at the grain the data has ------------------------------------------------------------------


def monthly_papers() -> list[P]:
    """Twelve papers a month from 2025-03 to 2025-08 but none in 2025-05, three in 2025-07; lora in two
    of each month's papers (one in 2025-07); an old cross-listed paper of 2021 and two papers with
    only a year."""
    papers = []
    for month, n in ((3, 12), (4, 12), (6, 12), (7, 3), (8, 12)):
        for i in range(n):
            methods = ["lora"] if i < 2 and not (month == 7 and i == 1) else ["transformer"]
            if month in (3, 6) and i % 2:  # a date from the source for some, the arXiv id's month for others
                papers.append(P(f"m{month}-{i}", 2025, methods=methods, issued=f"2025-{month:02d}-1{i % 9}"))
            else:
                papers.append(P(f"m{month}-{i}", 2025, methods=methods, arxiv=f"25{month:02d}.{i:05d}v1"))
    papers.append(P("old", 2021, methods=["lora"], arxiv="2109.00001v2"))
    papers += [P("y1", 2025, methods=["lora"]), P("y2", 2025, methods=["transformer"])]
    return papers


def test_a_month_trend_has_gaps_where_no_papers_are_and_says_what_it_left_out() -> None:
    store = small_store(monthly_papers())
    data = trend_figure.compute(store, PlotOptions(methods=("lora",), grain="month"))
    assert data.grain == "month"
    assert data.periods == ("2025-03", "2025-04", "2025-05", "2025-06", "2025-07", "2025-08")
    assert data.totals == (12, 12, 0, 12, 3, 12)
    (lora,) = data.series
    assert lora.values[:2] == (2.0, 2.0) and math.isnan(lora.values[2]) and lora.values[3:] == (2.0, 1.0, 2.0)
    # the 2021 paper does not stretch the axis; the papers with only a year are not put in a month
    assert data.note == "2 papers with only a year left out; 1 paper dated outside 2025-03–2025-08 left out"
    shares = trend_figure.compute(store, PlotOptions(methods=("lora",), grain="month", share=True))
    got = shares.series[0].values
    assert math.isnan(got[2]) and math.isnan(got[4])  # no papers; 3 papers: fewer than --min-period 10
    assert [round(v, 3) for v in (got[0], got[1], got[3], got[5])] == [0.167] * 4
    quarters = trend_figure.compute(store, PlotOptions(methods=("lora",), grain="quarter"))
    assert (quarters.periods, quarters.totals, quarters.series[0].values) == (
        ("2025-Q1", "2025-Q2", "2025-Q3"), (12, 24, 15), (2.0, 4.0, 3.0)
    )


def test_the_grain_follows_the_span_of_the_data_and_from_to_choose_the_periods() -> None:
    store = small_store(monthly_papers())
    assert trend_figure.compute(store, PlotOptions(methods=("lora",))).grain == "month"  # six months
    window = trend_figure.compute(store, PlotOptions(methods=("lora",), grain="month", start="2025-04", stop="2025-Q2"))
    assert window.periods == ("2025-04", "2025-05", "2025-06")
    years = trend_figure.compute(store, PlotOptions(methods=("lora",), grain="year", start="2021"))
    assert years.periods == ("2021", "2022", "2023", "2024", "2025") and years.totals == (1, 0, 0, 0, 53)
    assert math.isnan(years.series[0].values[1])  # a year without papers is a gap, not 0
    with pytest.raises(KgError, match="is not a period"):
        trend_figure.compute(store, PlotOptions(start="spring"))
    runner = CliRunner()
    assert runner.invoke(app, ["plot", "trend", "--by", "week"]).exit_code == 2


def test_sparse_periods_make_no_burst() -> None:
    # one paper in 2021 that uses the term is 100% of its year; it must not make a burst
    papers = [P(f"p{y}-{i}", y, methods=["term"] if (y == 2024 and i < 8) or i == 0 else ["other"])
              for y in (2023, 2024, 2025) for i in range(20)]  # fmt: skip
    papers += [P("lonely", 2021, methods=["term"])]
    data = burst_figure.compute(small_store(papers), PlotOptions(grain="year", start="2021"))
    (row,) = [r for r in data.rows if r.concept.label == "TERM"]
    assert [(data.periods[b.begin], data.periods[b.end]) for b in row.bursts] == [("2024", "2024")]
