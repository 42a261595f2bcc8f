"""kg's optional extras (``plot``, ``serve``, ``dask``) and the command that installs one, told to the user
when a command needs an extra that is missing.

The command must be right however kg was installed: from a checkout (``pip install -e .``, where
``pip install 'kg[plot]'`` would fetch some other package named kg) it installs the checkout with the
extra; from a package it names the extra's own requirements, read from kg's installed metadata, so
it never goes stale.  Either way it is run by the Python that runs kg, so it installs into kg's
environment, not another one on the PATH.

>>> " -m pip install " in install_command("plot")
True
"""

from __future__ import annotations

import re
import shlex
import sys
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "kg"


def checkout() -> str | None:
    """The folder of the checkout kg runs from (its package folder beside a ``pyproject.toml`` naming kg,
    as an editable install or ``python -m kg`` in a clone has it); None for an installed package."""
    root = Path(__file__).resolve().parent.parent
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return str(root) if re.search(rf'^name\s*=\s*"{DISTRIBUTION}"\s*$', text, re.MULTILINE) else None


def requirements(extra: str) -> list[str]:
    """The requirements the extra adds, as kg's metadata states them (``matplotlib>=3.8``).

    >>> requirements("serve")
    ['starlette>=0.37', 'uvicorn>=0.29']
    """
    try:
        declared = metadata.requires(DISTRIBUTION) or []
    except metadata.PackageNotFoundError:
        return []
    marker = f'extra == "{extra}"'
    return [line.split(";", 1)[0].strip() for line in declared if marker in line]


def install_command(extra: str) -> str:
    """The command that installs ``extra`` into the environment kg runs in."""
    python = shlex.quote(sys.executable or "python3")
    folder = checkout()
    if folder is not None:
        return f"{python} -m pip install -e {shlex.quote(f'{folder}[{extra}]')}"
    needed = requirements(extra) or [f"{DISTRIBUTION}[{extra}]"]
    return f"{python} -m pip install {' '.join(shlex.quote(r) for r in needed)}"
