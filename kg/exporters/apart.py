"""Draw one page of a built store in a process of its own (for :class:`kg.exporters.PagesApart`).

    python -m kg.exporters.apart STORE TARGET VIEW

Stages the page beside ``TARGET`` and prints one JSON line: the staged file (``temp``, ``target``,
``sha256``, ``seconds``), or the error (``error``, ``code``, ``at``) with exit status 1. Anything
else is a bug: its traceback goes to stderr.
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

from kg.errors import KgError
from kg.exporters import stage_page


def main(argv: list[str]) -> int:
    store, target, view = argv
    # ended by a failed build: unwind, so that the page being staged is removed (``kg.exporters.stage``)
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
