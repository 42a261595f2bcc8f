"""Write ``ontology/name-frequencies.tsv`` and ``ontology/word-frequencies.tsv``: how common given
names and surnames are among authors, and words among abstracts (what kg.persons weighs evidence by).

Run by hand when the inputs change (CI uses the committed tables)::

    python ontology/make_frequencies.py [DATA]     # --check: fail unless the tables are current

The inputs are the arXiv listings kept beside the project (``DATA`` defaults to ``../shared/data``):
the daily listings (``arxiv_daily_listings``, ``arxiv_daily_more``: JSON lines with an ``authors``
list), the OAI-PMH page (``<forenames>``/``<keyname>``) and the Atom entries (``<name>``).  Names are
counted once each (distinct folded names, not authorships: a prolific author does not make a name
common), by the first given name written in full and by the surname's last part, as
``kg.persons.names.Name`` reads them.  Counts of 1 are left out (the reader treats a missing name as
rare).  Only counts go into the table, no name of a person: ``given``/``surname`` rows hold single
name words that many people share.  Words are counted by the abstracts (and titles) of the daily
listings that hold them, as ``kg.persons.evidence.content_words`` reads them; words of fewer than 3
abstracts are left out (the reader takes a missing word as rare).  The output is sorted, so the
same inputs give the same bytes.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kg.persons.evidence import content_words  # noqa: E402
from kg.persons.names import Name  # noqa: E402

NAMES = HERE / "name-frequencies.tsv"
WORDS = HERE / "word-frequencies.tsv"
DEFAULT = HERE.parent.parent / "shared" / "data"
_TAG = re.compile(r"<(name|forenames|keyname)>([^<]*)</\1>")


def listings(data: Path) -> list[dict[str, object]]:
    """The daily listings' papers, each once (a listing repeats cross-listed papers)."""
    papers: dict[str, dict[str, object]] = {}
    for folder in ("arxiv_daily_listings", "arxiv_daily_more"):
        for path in sorted((data / folder).glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    paper = json.loads(line)
                    papers.setdefault(str(paper.get("id")), paper)
    return [papers[k] for k in sorted(papers)]


def words(papers: list[dict[str, object]]) -> str:
    df: Counter[str] = Counter()
    for paper in papers:
        df.update(content_words(str(paper.get("title") or ""), str(paper.get("summary") or "")))
    rows = [f"documents\t{len(papers)}"] + [f"word\t{w}\t{n}" for w, n in sorted(df.items()) if n > 2]
    return "\n".join(rows) + "\n"


def authors(data: Path) -> list[str]:
    """Every author name the inputs write, in file order."""
    names: list[str] = []
    for paper in listings(data):
        names.extend(paper.get("authors") or [])  # type: ignore[arg-type]
    for path in sorted((data / "arxiv_oai_pmh").glob("*.xml")):
        forenames = ""
        for tag, text in _TAG.findall(path.read_text(encoding="utf-8")):
            if tag == "forenames":
                forenames = text
            elif tag == "keyname":
                names.append(f"{forenames} {text}".strip())
                forenames = ""
    for path in sorted((data / "arxiv_atom_api").glob("*.xml")):
        names.extend(text for tag, text in _TAG.findall(path.read_text(encoding="utf-8")) if tag == "name")
    return names


def table(names: list[str]) -> str:
    distinct = {}
    for text in names:
        name = Name.parse(text)
        if name.given and name.surname:
            distinct.setdefault(name.forms[0], name)
    given: Counter[str] = Counter()
    surnames: Counter[str] = Counter()
    for name in distinct.values():
        if len(name.given[0]) > 1:
            given[name.first] += 1
        surnames[name.surname[-1]] += 1
    rows = [f"names\t{len(distinct)}"]
    rows += [f"given\t{g}\t{n}" for g, n in sorted(given.items()) if n > 1]
    rows += [f"surname\t{s}\t{n}" for s, n in sorted(surnames.items()) if n > 1]
    return "\n".join(rows) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    rest = [a for a in argv if a != "--check"]
    data = Path(rest[0]) if rest else DEFAULT
    stale = 0
    for out, text in ((NAMES, table(authors(data))), (WORDS, words(listings(data)))):
        if check:
            current = out.read_text(encoding="utf-8") if out.exists() else ""
            print(f"{out.name} is {'current' if current == text else 'stale'}")
            stale += current != text
        else:
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out} ({text.count(chr(10))} rows)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
