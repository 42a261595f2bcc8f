"""arXiv subject codes, resolved against the whole arXiv taxonomy (``ontology/arxiv-subjects.ttl``).

>>> codes()["cs.LG"]
'cs.LG'
>>> codes()["cs.lg"]  # case slips are forgiven
'cs.LG'
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import pyoxigraph as ox

from kg.errors import IssueLog
from kg.records import Mention, Record
from kg.vocab import ARXIV_BASE, SKOS, ontology_path

NAME = "subjects"
KINDS: tuple[str, ...] = ("subject",)
"""The kinds of mention it makes (``Mention.kind``)."""


@lru_cache(maxsize=1)
def codes() -> dict[str, str]:
    """Every known category code, and its case-folded form, mapped to the code."""
    table: dict[str, str] = {}
    with ontology_path("arxiv-subjects.ttl").open("rb") as f:
        triples = list(ox.parse(f, format=ox.RdfFormat.TURTLE))
    for t in triples:
        subject = t.subject
        if not isinstance(subject, ox.NamedNode) or not isinstance(t.object, ox.Literal):
            continue
        local = subject.value.removeprefix(ARXIV_BASE)
        if "/" in local or local == "scheme":
            continue  # groups and archives are not paper subjects
        if t.predicate == SKOS.notation:
            table[t.object.value] = local
    for code in list(table.values()):
        table.setdefault(code.casefold(), code)
    return table


def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
    """One ``subject`` mention per code; the primary one has detail ``primary=1``."""
    known = codes()
    primary = record.primary_subject.text if record.primary_subject else None
    seen: set[str] = set()
    for span in record.subjects:
        code = span.text.strip()
        canonical = known.get(code) or known.get(code.casefold())
        if canonical is None:
            log.warn(
                span.at, "unknown-subject", f"arXiv category {code!r} is not in the taxonomy; kept as written"
            )
            canonical = code
        if canonical in seen:
            continue
        seen.add(canonical)
        detail = (("primary", "1" if code == primary else "0"),)
        yield Mention("subject", canonical, code, span.at, NAME, len(seen), detail)
