"""The pages a build writes beside its graph (``BUILD_OUTPUTS``: ``graph.ttl``, ``coauthors.html``,
``topics.html``), and, for a big build, each page drawn in a process of its own while the build goes
on (:class:`PagesApart`; the child is ``python -m kg.build_pages STORE TARGET VIEW``).

The child stages the page beside ``TARGET`` and prints one JSON line: the staged file (``temp``,
``target``, ``sha256``, ``seconds``), or the error (``error``, ``code``, ``at``) with exit status 1.
Anything else is a bug: its traceback goes to stderr.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from kg import viz
from kg.errors import KgError, os_message
from kg.exporters import turtle
from kg.files import Staged, discard, stage
from kg.layout import GRAPH, PAGES
from kg.records import Location

if TYPE_CHECKING:
    import pyoxigraph as ox

    from kg.build_result import Build


def _page(name: str) -> Callable[[Build, BinaryIO], None]:
    """The serializer of ``kg build``'s page of one view (default options), as ``kg viz`` draws it."""

    def serialize(build: Build, out: BinaryIO) -> None:
        _draw(build.store, name, out)

    return serialize


def _draw(store: ox.Store, name: str, out: BinaryIO) -> None:
    from kg.node_papers import node_papers
    from kg.project import view

    graph = view(store, name)
    out.write(viz.render(graph, title=f"kg · {name}", papers=node_papers(store, graph)).encode("utf-8"))


PAGES_APART = 1_000_000
"""Triples from which a build draws its pages side by side, each in a process of its own that opens the
on-disk store read-only (:class:`PagesApart`): one after the other they took a large share of a big
build, where starting a process costs little."""


class PagesApart:
    """Pages of ``BUILD_OUTPUTS`` staged by processes of their own, at once, while the caller goes on
    (each reads the store at ``store``, a folder no one writes to until they are done).

    Each is a new interpreter running ``python -m kg.build_pages``: a fork would copy the
    caller's open store and its threads, and multiprocessing's ``spawn`` would run the caller's
    main script again (a script that calls ``write_outputs`` without a ``__main__`` guard).
    :meth:`staged` waits for them; leaving the ``with`` block waits for those still running (ends
    them if the block failed) and discards what they staged but nobody took, so a failed build
    leaves no temporary file.
    """

    def __init__(self, store: Path, out: Path, names: Iterable[str]) -> None:
        self.names = tuple(names)
        # the children import kg from wherever this process did
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        self._processes = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "kg.build_pages",
                    str(store),
                    str(out / name),
                    name.removesuffix(".html"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=env,
            )
            for name in self.names
        ]
        self._results: list[tuple[Staged, float] | BaseException] | None = None
        self._taken = False

    def __enter__(self) -> PagesApart:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if kind is not None:
            for process in self._processes:
                process.terminate()  # a page killed half-written leaves a temporary file the next sweep removes
        results = self._collect()
        if not self._taken:
            for result in results:
                if isinstance(result, tuple):
                    discard(result[0])

    def staged(self) -> list[tuple[Staged, float]]:
        """Each page staged, with the seconds its process took, in ``names`` order; the first error of
        a process is raised here (its pages and the others' are then discarded on leaving)."""
        results = self._collect()
        for result in results:
            if isinstance(result, BaseException):
                raise result
        self._taken = True
        return [result for result in results if isinstance(result, tuple)]

    def _collect(self) -> list[tuple[Staged, float] | BaseException]:
        if self._results is None:
            self._results = [
                _page_result(name, p) for name, p in zip(self.names, self._processes, strict=True)
            ]
        return self._results


def _page_result(name: str, process: subprocess.Popen[bytes]) -> tuple[Staged, float] | BaseException:
    """What the process drawing page ``name`` said: the page it staged, or its error."""
    out, err = process.communicate()
    lines = out.decode("utf-8", errors="replace").strip().splitlines()
    try:
        said = json.loads(lines[-1]) if lines else None
    except ValueError:
        said = None
    if isinstance(said, dict) and "error" in said:
        at = said.get("at")
        return KgError(
            str(said["error"]), Location(at[0], at[1]) if at else None, str(said.get("code", "error"))
        )
    if process.returncode == 0 and isinstance(said, dict) and "temp" in said:
        staged = Staged(Path(said["temp"]), Path(said["target"]), str(said["sha256"]))
        return staged, float(said["seconds"])
    # a bug, not bad input: its traceback is kept
    trace = err.decode("utf-8", errors="replace")[-4000:]
    return RuntimeError(f"drawing {name} failed (exit status {process.returncode}):\n{trace}")


def stage_page(store: Path, target: Path, view: str) -> tuple[Staged, float]:
    """Stage the page of ``view`` of the store at ``store`` as ``target``, with the seconds it took
    (in a process of :class:`PagesApart`, which opens the store read-only)."""
    import time

    import pyoxigraph as ox

    started = time.perf_counter()
    try:
        graph = ox.Store.read_only(str(store))
    except OSError as e:
        raise KgError(f"cannot open the store {store}: {os_message(e)}", code="bad-store") from e
    staged = stage(target, lambda f: _draw(graph, view, f))
    return staged, time.perf_counter() - started


BUILD_OUTPUTS: dict[str, Callable[[Build, BinaryIO], None]] = {
    GRAPH: turtle.serialize_build,
    **{page: _page(page.removesuffix(".html")) for page in PAGES},
}
"""What ``kg build`` writes into its output folder besides the store: file name -> serializer
(the SHA-256 of ``graph.ttl`` is the build's generation, see ``kg.build_folder.write_outputs``)."""


def main(argv: list[str]) -> int:
    store, target, view = argv
    # ended by a failed build: unwind, so that the page being staged is removed (``kg.files.stage``)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    try:
        staged, seconds = stage_page(Path(store), Path(target), view)
    except KgError as e:
        at = [e.at.path, e.at.line] if e.at is not None else None
        print(json.dumps({"error": e.message, "code": e.code, "at": at}))
        return 1
    print(
        json.dumps(
            {
                "temp": str(staged.temp),
                "target": str(staged.target),
                "sha256": staged.sha256,
                "seconds": seconds,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
