"""Screenshots of the network views of a build, as ``docs/views.md`` shows them.

Draws the coauthor, topic and papers views (and one person's ego view) of a built graph with
``kg viz``, beside its site when ``kg site`` wrote one, opens each in Debian's Chromium (headless,
through Playwright) and saves a 1400x900 picture; a last one shows the coauthor map coloured by mean
publication year with one person's details panel open.  Prints how many labels each picture shows.

Usage::

    kg build seeds ../shared/data/arxiv_daily_listings --out /tmp/real && kg site --out /tmp/real
    python benchmarks/view_screenshots.py /tmp/real docs/figures --focus "Thomas Hofmann"
"""

from __future__ import annotations

import argparse
from pathlib import Path

from typer.testing import CliRunner

from kg.cli import app

ARGS = ["--headless", "--no-sandbox", "--disable-gpu"]


def draw(build: Path, name: str, extra: list[str]) -> Path:
    """``kg viz`` of one view into the build folder (beside its site); the page's path."""
    target = build / f"{name}.html"
    view = name.split("-")[0]
    done = CliRunner().invoke(app, ["viz", view, "--out", str(build), "--output", str(target), *extra])
    if done.exit_code != 0:
        raise SystemExit(done.output)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build", type=Path, help="a kg build --out folder")
    parser.add_argument("figures", type=Path, help="folder to write view-*.png into")
    parser.add_argument("--focus", default="Thomas Hofmann", help="the person of the ego view and details")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    a = parser.parse_args()
    from playwright.sync_api import sync_playwright

    pages = {
        "coauthors": draw(a.build, "coauthors", []),
        "topics": draw(a.build, "topics", []),
        "papers": draw(a.build, "papers", ["--max-nodes", "300"]),
        "ego": draw(a.build, "ego", ["--focus", a.focus]),
    }
    a.figures.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=a.chromium, args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        for name, path in pages.items():
            page.goto(path.resolve().as_uri())
            page.wait_for_function("window.kgDrawn === true", timeout=120_000)
            page.wait_for_timeout(300)
            page.screenshot(path=str(a.figures / f"view-{name}.png"))
            print(f"view-{name}.png: {page.evaluate('window.kgLabels.length')} labels")
        page.goto(pages["coauthors"].resolve().as_uri())
        page.wait_for_function("window.kgDrawn === true", timeout=120_000)
        page.check("input[name=colour-by][value=year]")
        page.wait_for_timeout(300)
        page.screenshot(path=str(a.figures / "view-overlay.png"))
        page.fill("#search", a.focus)
        page.press("#search", "Enter")
        page.wait_for_timeout(300)
        page.screenshot(path=str(a.figures / "view-details.png"))
        print("view-overlay.png, view-details.png")
        browser.close()
        if errors:
            raise SystemExit(f"page errors: {errors}")


if __name__ == "__main__":
    main()
