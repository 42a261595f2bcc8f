"""Exporters: the only place that writes files; every file is written atomically.

``EXPORTERS`` is the table; adding a format is one module with ``NAME``,
``SUFFIX`` and ``write(build, target)`` plus one line here.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, BinaryIO

from kg.errors import KgError
from kg.exporters import turtle

if TYPE_CHECKING:
    from kg.pipeline import Build

EXPORTERS: dict[str, ModuleType] = {
    turtle.NAME: turtle,
}

BUILD_OUTPUTS: dict[str, Callable[[Build, Path], Path]] = {
    "graph.ttl": turtle.write,
}
"""What ``kg build`` writes into its output folder besides the store: file name -> writer."""


def exporter(name: str) -> ModuleType:
    """The exporter called ``name``; an unknown name lists the choices."""
    try:
        return EXPORTERS[name]
    except KeyError:
        raise KgError(
            f"unknown exporter {name!r}; choose from: {', '.join(sorted(EXPORTERS))}", code="unknown-exporter"
        ) from None


@contextmanager
def atomic(target: Path) -> Iterator[BinaryIO]:
    """A binary file that appears at ``target`` complete or not at all (temp file + ``os.replace``)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(target: Path, write: Callable[[BinaryIO], None]) -> Path:
    """Write ``target`` with ``write(f)``; an OSError becomes a KgError naming the file."""
    try:
        with atomic(target) as f:
            write(f)
    except OSError as e:
        raise KgError(f"cannot write {target}: {e.strerror or e}", code="write-failed") from e
    return target
