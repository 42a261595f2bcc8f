"""The parts of a name block that are decided apart: the authorships whose names can meet.

A block (``kg.persons.names.block_key``: a surname and an initial) holds names that never bear on one
another: Wei Wang's papers and Wen Wang's are compared with nothing of each other's, since
:func:`~kg.persons.names.relation` relates two names only when their forms meet or one's first given
name starts the other's ("J." and "John", "Tim" and "Timothy"), and every step of
:func:`~kg.persons.cluster.cluster_block` joins related names only.  So a block is decided part by
part, with the same result (each part's persons are what the whole block's decision gives them), and
a delta decides again only the parts its papers' authorships fall in, not a whole block of a common
surname.

Names are in one part when they share a form, when one's first given name starts the other's, or
when their person keys would be written alike (``kg.persons.cluster`` writes a ``~`` as ``-``), so
that keys made apart never collide.  A block where the thesaurus marks an authorship is one part:
a mark can rename across names.

>>> parts([("Wei Wang", "wei wang"), ("Wen Wang", "wen wang"), ("W. Wang", "w. wang")])
[[0, 1, 2]]
>>> parts([("Wei Wang", "wei wang"), ("Wen Wang", "wen wang"), ("Wei Wang", "wei wang")])
[[0, 2], [1]]
"""

from __future__ import annotations

from collections.abc import Sequence

from kg.persons.names import Name


def parts(names: Sequence[tuple[str, str]]) -> list[list[int]]:
    """The parts of a block whose authorships are named ``names`` (each its name as written and its
    name key): lists of indices, each ascending, in order of their first index."""
    parent = list(range(len(names)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a != b:
            parent[max(a, b)] = min(a, b)

    owner: dict[str, int] = {}
    firsts: dict[str, int] = {}
    for i, (written, key) in enumerate(names):
        name = Name.parse(written or key)
        for token in (*(f"f:{form}" for form in name.forms), "k:" + key.replace("~", "-")):
            join(i, owner.setdefault(token, i))
        if name.given:
            join(i, firsts.setdefault(name.given[0], i))
    # first given names that start one another: each joins the names after it in sorted order that it starts
    ordered = sorted(firsts)
    for n, first in enumerate(ordered):
        for later in ordered[n + 1 :]:
            if not later.startswith(first):
                break
            join(firsts[first], firsts[later])
    grouped: dict[int, list[int]] = {}
    for i in range(len(names)):
        grouped.setdefault(find(i), []).append(i)
    return [grouped[root] for root in sorted(grouped)]
