"""``kg site``: a static, offline website of a build's graph (a page per person, method, subject,
area, repository and paper, an index with search), read from the store by SPARQL.

Modules: ``queries`` (the store's facts), ``entities`` (who gets a page, file names, counts),
``pages`` (what each page says), ``chart`` (inline SVG), ``render`` (HTML through the
``kg/templates/site.*`` templates).  The site is written into a staging folder beside the target,
each file atomically, and the folder is put in place in one step
(:func:`kg.exporters.replace_folder`): a reader sees the old site or the new one, never half.
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


def write(store: ox.Store, target: Path, options: SiteOptions | None = None) -> Written:
    """Write the site of the graph in ``store`` to the folder ``target`` (replacing it as a whole)."""
    from kg.errors import os_message
    from kg.exporters import (
        TEMP_SUFFIX,
        make_parent,
        remove,
        replace_folder,
        sweep,
        sync_folder,
        temp_prefix,
        write_bytes,
    )

    options = options or SiteOptions()
    if options.min_papers < 1:
        raise KgError(f"min_papers must be at least 1, not {options.min_papers}", code="bad-option")
    site = entities.file(queries.read(store), options.min_papers)
    try:
        make_parent(target)
        sweep(target.parent, target.name)
        staging = target.with_name(f"{temp_prefix(target.name)}new{TEMP_SUFFIX}")
        remove(staging)
        staging.mkdir()
    except OSError as e:
        raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e
    count = size = 0
    kinds: dict[str, int] = {}
    try:
        for page in render.pages(site):
            data = render.html(page, site).encode("utf-8")
            write_bytes(staging / page.path, data)
            count += 1
            size += len(data)
            if page.kind in entities.KINDS and "~" not in page.path:
                kinds[page.kind] = kinds.get(page.kind, 0) + 1
        stylesheet = render.stylesheet().encode("utf-8")
        write_bytes(staging / "site.css", stylesheet)
        size += len(stylesheet)
        for folder in sorted({p.parent for p in staging.rglob("*.html")}):
            sync_folder(folder)
        old = replace_folder(staging, target)
    except BaseException as e:
        remove(staging)
        if isinstance(e, OSError):
            raise KgError(f"cannot write {target}: {os_message(e)}", code="write-failed") from e
        raise
    if old is not None:
        remove(old)
    sync_folder(target.parent)
    return Written(target, count, size, dict(sorted(kinds.items())))
