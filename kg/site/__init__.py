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

import os
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from kg.errors import KgError
from kg.files import StagedFolder
from kg.layout import SITE as SITE_DIR
from kg.site import entities, names, queries, render
from kg.vocab import SCHEMA

__all__ = ["SITE_DIR", "SiteOptions", "Written", "refuse_other_folder", "write"]


@dataclass(frozen=True, slots=True)
class SiteOptions:
    min_papers: int = 0
    """Persons, methods, subjects and areas with fewer papers get no page (they are shown as text);
    0 chooses by the graph's size (:func:`default_min_papers`)."""
    jobs: int = 0
    """Processes that read the store (when :func:`write` is given its folder) and render the pages; 0:
    one per core for a large graph and site (:data:`PARALLEL_FROM`)."""


MIN_PAPERS_BY_SIZE = ((1_000, 1), (50_000, 2))
"""The ``--min-papers`` a graph of fewer papers than each bound gets; larger ones get 3.  Most persons
of a large graph have one paper (18,556 of the 21,732 of the nineteen arXiv days): pages that repeat
their paper's page, which made the site of 5,000 papers 22,000 person pages and 240 MB."""

PARALLEL_FROM = 5_000
"""Papers from which the store is read, and entities from which the pages are rendered, in one process
per core (below, forking costs more)."""


def default_min_papers(papers: int) -> int:
    """The ``--min-papers`` of a graph of ``papers`` papers when none is given.

    >>> default_min_papers(830), default_min_papers(5_416), default_min_papers(100_000)
    (1, 2, 3)
    """
    return next((n for bound, n in MIN_PAPERS_BY_SIZE if papers < bound), 3)


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


def write(
    store: ox.Store, target: Path, options: SiteOptions | None = None, path: Path | None = None
) -> Written:
    """Write the site of the graph in ``store`` to the folder ``target`` (replacing it as a whole).

    ``path``, the store's folder when it is on disk, lets a large graph's reading be shared out too:
    forked processes open the store there read-only (:func:`kg.site.queries.read`)."""
    options = options or SiteOptions()
    if options.min_papers < 0 or options.jobs < 0:
        raise KgError(
            f"min_papers and jobs must be at least 0, not {options.min_papers} and {options.jobs}",
            code="bad-option",
        )
    refuse_other_folder(target)
    # the papers are counted only when the number of readers is left to the graph's size
    readers = 1 if path is None else options.jobs or processes(0, paper_count(store))
    corpus = queries.read(store, readers, path)
    site = entities.file(corpus, options.min_papers or default_min_papers(len(corpus.papers)))
    names.attach(site, store)  # the names several persons share (kg.persons), for their pages
    return write_site(site, target, options.jobs)


def write_site(site: entities.Site, target: Path, jobs: int = 0) -> Written:
    """Write the pages of a filed site to the folder ``target`` (replacing it as a whole), by ``jobs``
    processes (0: one per core for a large site)."""
    from kg.files import staged_folder

    parts = processes(jobs, len(site.entities))
    with staged_folder(target) as folder:
        if parts > 1:
            done = _render_apart(site, folder.path, parts)
        else:
            done = [_render(site, StagedFolder(folder.path), 0, 1)]
        folder.write("site.css", render.stylesheet().encode("utf-8"))
    kinds: dict[str, int] = {}
    for _, _, counted in done:
        for kind, n in counted.items():
            kinds[kind] = kinds.get(kind, 0) + n
    pages = sum(files for files, _, _ in done)
    size = sum(written for _, written, _ in done) + folder.bytes
    return Written(target, pages, size, dict(sorted(kinds.items())))


def processes(jobs: int, size: int) -> int:
    """The processes that share a job of ``size`` entities (or papers): ``jobs``, or for 0 one per
    core from :data:`PARALLEL_FROM`."""
    return jobs or (os.cpu_count() or 1 if size >= PARALLEL_FROM else 1)


def paper_count(store: ox.Store) -> int:
    result = store.query(f"SELECT (COUNT(*) AS ?n) WHERE {{ ?s a {SCHEMA.ScholarlyArticle} }}")
    assert isinstance(result, ox.QuerySolutions)
    count = next(iter(result))[0]
    return int(count.value) if isinstance(count, ox.Literal) else 0


Rendered = tuple[int, int, dict[str, int]]
"""What one part of the site came to: files, bytes, and pages per kind of entity."""


def _render(site: entities.Site, folder: StagedFolder, part: int, parts: int) -> Rendered:
    kinds: dict[str, int] = {}
    files, size = folder.files, folder.bytes
    for page in render.pages(site, part, parts):
        folder.write(page.path, render.html(page, site).encode("utf-8"))
        if page.kind in entities.kinds() and "~" not in page.path:
            kinds[page.kind] = kinds.get(page.kind, 0) + 1
    return folder.files - files, folder.bytes - size, kinds


_SITE: list[entities.Site] = []
"""The site being rendered, for the forked processes that render its parts (inherited, not pickled)."""


def _render_part(folder: Path, part: int, parts: int) -> Rendered:
    return _render(_SITE[0], StagedFolder(folder), part, parts)


def _render_apart(site: entities.Site, folder: Path, parts: int) -> list[Rendered]:
    """The site's pages rendered by ``parts`` forked processes, each writing its part into ``folder``:
    the site is filed once and the processes share it (copy on write), so nothing is sent to them."""
    import multiprocessing

    _SITE[:] = [site]
    try:
        with multiprocessing.get_context("fork").Pool(parts) as pool:
            return pool.starmap(_render_part, [(folder, part, parts) for part in range(parts)])
    finally:
        _SITE.clear()
