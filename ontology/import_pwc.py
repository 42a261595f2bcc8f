"""Write ``ontology/methods-pwc.tsv`` from a Papers with Code methods snapshot (``methods.json``).

Only facts are kept: each method's URL, name, full name, collections and paper count; descriptions
are never copied.  Run from the repository root when the snapshot changes::

    python ontology/import_pwc.py ../shared/data/pwc_methods/methods.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT_PATH = Path(__file__).resolve().parent / "methods-pwc.tsv"
HEADER = (
    "# Papers with Code methods snapshot (CC BY-SA 4.0): names, full names, collections and paper counts only.\n"
    "# Written by ontology/import_pwc.py from ../shared/data/pwc_methods/methods.json; read by ontology/make_methods.py.\n"
    "url\tname\tfull_name\tcollections\tnum_papers\n"
)


def cell(text: object) -> str:
    return " ".join(str(text).split())


def main(snapshot: str) -> None:
    methods = json.loads(Path(snapshot).read_text(encoding="utf-8"))
    rows = []
    for m in methods:
        collections = [c["collection"] for c in m.get("collections") or [] if c.get("collection")]
        full = m.get("full_name")
        rows.append(
            "\t".join(
                [
                    cell(m.get("url") or ""),
                    cell(m["name"]),
                    "" if full is None else cell(full),
                    " | ".join(cell(c) for c in collections),
                    str(int(m.get("num_papers") or 0)),
                ]
            )
            + "\n"
        )
    tmp = OUT_PATH.with_suffix(".tmp")
    tmp.write_text(HEADER + "".join(rows), encoding="utf-8")
    tmp.replace(OUT_PATH)
    print(f"wrote {OUT_PATH.name}: {len(rows)} methods")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/pwc_methods/methods.json")
