"""``kg site``: a static, offline website of a build's graph (a page per person, method, subject,
area, repository and paper, an index with search), read from the store by SPARQL.

Modules: ``queries`` (the store's facts), ``entities`` (who gets a page, file names, counts),
``pages`` (what each page says), ``chart`` (inline SVG), ``render`` (HTML through the
``kg/templates/site.*`` templates).  The site is written into a staging folder beside the target and
put in place in one step (:func:`kg.files.staged_folder`): a reader sees the old site or the
new one, never half of one.
The same graph gives a byte-identical site.

>>> from kg.store import memory
>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     done = write(memory(), pathlib.Path(d) / "site")
...     done.pages, (pathlib.Path(d) / "site" / "index.html").exists()
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from kg.errors import KgError
from kg.site import entities, queries, render

SITE_DIR = "site"
"""The site's folder in a build folder (``kg serve`` serves it under ``/site/``)."""


@dataclass(frozen=True, slots=True)
class SiteOptions:
    min_papers: int = 1
    """Persons, methods, subjects and areas with fewer papers get no page (they are shown as text)."""


@dataclass(frozen=True, slots=True)
class Written:
    """What :func:`write` wrote."""

    target: Path
    pages: int
    bytes: int
    entities: dict[str, int]
    """Pages per kind of entity."""


def refuse_other_folder(target: Path) -> None:
    """Refuse to replace a folder that is not a site kg wrote (a build folder given as ``--output``)."""
    if not target.exists() and not target.is_symlink():
        return
    if not target.is_dir():
        raise KgError(f"{target} is not a folder", code="not-a-site-folder")
    if any(target.iterdir()) and not ((target / "index.html").is_file() and (target / "site.css").is_file()):
        raise KgError(
            f"{target} holds files that are not a kg site; refusing to replace it (give an empty or new "
            "folder, or a site kg wrote)",
            code="not-a-site-folder",
        )


def write(store: ox.Store, target: Path, options: SiteOptions | None = None) -> Written:
    """Write the site of the graph in ``store`` to the folder ``target`` (replacing it as a whole)."""
    from kg.files import staged_folder

    options = options or SiteOptions()
    if options.min_papers < 1:
        raise KgError(f"min_papers must be at least 1, not {options.min_papers}", code="bad-option")
    refuse_other_folder(target)
    site = entities.file(queries.read(store), options.min_papers)
    kinds: dict[str, int] = {}
    with staged_folder(target) as folder:
        for page in render.pages(site):
            folder.write(page.path, render.html(page, site).encode("utf-8"))
            if page.kind in entities.KINDS and "~" not in page.path:
                kinds[page.kind] = kinds.get(page.kind, 0) + 1
        folder.write("site.css", render.stylesheet().encode("utf-8"))
    return Written(target, folder.files - 1, folder.bytes, dict(sorted(kinds.items())))
