"""Persons decided block by block: which authorships of a name block are one person, why, and the
person's key.

The persons stage runs after papers are made.  :func:`blocks` puts every authorship in the block of
the names it can share a person with (``kg.persons.names.block_key``); :func:`cluster_block` decides
one block, reading nothing outside it (so a delta re-decides only the blocks its papers touch), in
an order fixed by the authorships' content (so the input order changes nothing):

1. the thesaurus's marks (``kg.persons.marks``): their authorships are joined, different marks kept apart;
2. strong evidence: authorships of compatible names that share a coauthor, an affiliation or an
   e-mail domain are joined, the strongest pairs first;
3. one name, one person, unless the name is common: the groups of a name few people have are
   joined (a lone paper of a rare name goes with the others); those of a common name are joined only
   when their evidence outweighs how common the name is (average linkage), and a lone paper with
   nothing in common with the others stays a person of its own;
4. an initial or a shorter form ("J. Smith", "John Smith" beside "John A. Smith") joins the one fuller
   name of the block it fits when that form is rare, and none when it fits several.

Two authorships of one paper are never one person.  Each join records why.  See docs/persons.md.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from kg.persons.evidence import Authorship, Evidence, Profile, weigh
from kg.persons.marks import Mark, marked_block
from kg.persons.names import LOOSE, Name, block_key, expected_people, generalizes, relation, specificity

STRONG = 3.0
"""Evidence (log-odds) that joins two authorships whatever their names' frequency: one rare coauthor,
an affiliation or a domain."""
MERGE_BASE = 2.0
MERGE_SCALE = 1.0
"""The evidence a common name needs: ``MERGE_BASE + MERGE_SCALE * ln(people)``, where ``people`` is
how many people of the name a population of arXiv authors holds (``Frequencies.people``).  At or below
zero the name is rare: all its authorships are one person's."""
DENSE = 150
"""A common name with more authorships than this in a block weighs only the pairs that share a
coauthor or a place (the others count as no evidence), not all of them: a name of thousands of papers
would otherwise cost millions of comparisons."""
VARIANT_PEOPLE = 0.1
"""An initial or shorter form whose expected people are fewer than this joins the one fuller name it
fits without further evidence."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """One person the persons stage decided: its key, name, authorships and why they were joined."""

    key: str
    """The person's key (the person IRI's last segment is made from it)."""
    name: str
    """How the person is named: the most frequent spelling of its name."""
    name_key: str
    """The name key it is known by; persons that share one share a name (see :func:`shared`)."""
    members: tuple[tuple[str, int], ...]
    """Its authorships as (paper key, position), sorted."""
    reasons: tuple[str, ...]
    """Why its authorships are one person, one line per join."""


def block_of(a: Authorship, marks: Sequence[Mark] = ()) -> str:
    """The block an authorship is decided in: its name's, or the name of the person a mark says it is."""
    return block_key(marked_block(a, marks) or Name.parse(a.written or a.name))


def blocks(authorships: Iterable[Authorship], marks: Sequence[Mark] = ()) -> dict[str, list[Authorship]]:
    """Authorships by block, blocks in key order."""
    out: dict[str, list[Authorship]] = defaultdict(list)
    for a in authorships:
        out[block_of(a, marks)].append(a)
    return dict(sorted(out.items()))


def persons(authorships: Iterable[Authorship], marks: Sequence[Mark] = ()) -> list[Cluster]:
    """Every block decided, persons in key order."""
    out = [c for block in blocks(authorships, marks).values() for c in cluster_block(block, marks)]
    return sorted(out, key=lambda c: c.key)


def shared(clusters: Iterable[Cluster]) -> dict[str, list[str]]:
    """The names several persons share: name key -> their person keys."""
    by_name: dict[str, list[str]] = defaultdict(list)
    for c in clusters:
        by_name[c.name_key].append(c.key)
    return {n: sorted(keys) for n, keys in sorted(by_name.items()) if len(keys) > 1}


class _Groups:
    """Union-find over a block's authorships that refuses joins two authorships of one paper, or two
    different marked persons, forbid, and keeps each group's reasons."""

    def __init__(self, papers: list[str], marked: list[str | None]) -> None:
        n = len(papers)
        self.parent = list(range(n))
        self.papers = [{p} for p in papers]
        self.mark = list(marked)
        self.reasons: list[list[str]] = [[] for _ in range(n)]

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def can_join(self, i: int, j: int) -> bool:
        a, b = self.find(i), self.find(j)
        if a == b or self.papers[a] & self.papers[b]:
            return False
        return self.mark[a] is None or self.mark[b] is None or self.mark[a] == self.mark[b]

    def join(self, i: int, j: int, reason: str) -> bool:
        if not self.can_join(i, j):
            return False
        a, b = sorted((self.find(i), self.find(j)))
        self.parent[b] = a
        self.papers[a] |= self.papers[b]
        self.mark[a] = self.mark[a] or self.mark[b]
        self.reasons[a] += self.reasons[b] + ([reason] if reason else [])
        self.reasons[b] = []
        return True

    def roots(self, members: Iterable[int]) -> list[int]:
        return sorted({self.find(i) for i in members})


def threshold(people: float) -> float:
    """The evidence a name held by ``people`` expected people needs to join two of its groups.

    >>> threshold(math.exp(-2)), threshold(1.0)
    (0.0, 2.0)
    """
    return MERGE_BASE + MERGE_SCALE * math.log(max(people, 1e-9))


def cluster_block(authorships: Sequence[Authorship], marks: Sequence[Mark] = ()) -> tuple[Cluster, ...]:
    """The persons of one block (see the module's docstring)."""
    items = sorted(authorships, key=lambda a: (a.paper, a.position))
    if len(items) == 1 and not marks:  # most blocks: nothing to compare
        a = items[0]
        return (Cluster(_bare(a.name), a.written, a.name, (a.at,), ()),)
    picked = [next((m for m in marks if m.picks(a)), None) for a in items]
    # a marked authorship bears the name its row gives (a rename, or the same name qualified)
    profiles = [
        Profile.of(a, Name.parse(m.person) if m else None) for a, m in zip(items, picked, strict=True)
    ]
    groups = _Groups([a.paper for a in items], [m.person if m else None for m in picked])
    # 1. the user's marks
    first: dict[str, int] = {}
    for i, m in enumerate(picked):
        if m is not None:
            j = first.setdefault(m.person, i)
            groups.join(
                j, i, f"thesaurus line {m.row} says {items[i].paper} and {items[j].paper} are {m.person}"
            )
    # 2. strong evidence between compatible names
    cache: dict[tuple[int, int], Evidence] = {}

    def evidence(i: int, j: int) -> Evidence:
        if (i, j) not in cache:
            cache[i, j] = weigh(profiles[i], profiles[j])
        return cache[i, j]

    strong = []
    sharing = _sharing(profiles)
    for i, j in sharing:
        how = relation(profiles[i].name, profiles[j].name)
        e = evidence(i, j)
        # a short form (Tim, Timothy) is no evidence of one person: Wenqi and Wenqiao Zhang, Xin and
        # Xinjie Zhang share advisors on the arXiv days and are two people; the thesaurus can join them
        if how and how != LOOSE and (e.coauthors or e.places) and e.weight >= STRONG:
            strong.append((-e.weight, i, j))
    for _, i, j in sorted(strong):
        groups.join(i, j, f"{items[i].paper} and {items[j].paper} share {evidence(i, j).says()}")
    # 3. one name, one person unless the name is common
    for members in _same_names(profiles):
        people = expected_people(profiles[members[0]].name)
        needed = threshold(people)
        roots = groups.roots(members)
        if needed <= 0:
            shown = items[members[0]].written
            for r in roots[1:]:
                groups.join(
                    roots[0], r, f"{shown} is a rare name ({people:.2g} people of it expected): one person"
                )
            continue
        if len(members) <= DENSE:
            pairs = [(i, j) for x, i in enumerate(members) for j in members[x + 1 :]]
        else:
            inside = set(members)
            pairs = [(i, j) for i, j in sharing if i in inside and j in inside]
        _average_linkage(groups, members, needed, evidence, pairs, items)
    # 4. initials and shorter forms into the one fuller name they fit
    _variants(groups, profiles, items)
    return _clusters(groups, items, picked)


def _sharing(profiles: Sequence[Profile]) -> list[tuple[int, int]]:
    """Pairs of authorships (``i < j``) that share a coauthor or a place: found through an index, not
    by comparing every pair (a block of a common surname holds thousands)."""
    index: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(profiles):
        for c in p.coauthors:
            index["c:" + c].append(i)  # a coauthor's block: shared coauthors are weighed later
        for x in p.affiliations:
            index[x].append(i)
    pairs: set[tuple[int, int]] = set()
    for members in index.values():
        pairs.update(itertools.combinations(members, 2))  # members ascend: each pair (i < j)
    return sorted(pairs)


def _same_names(profiles: Sequence[Profile]) -> list[list[int]]:
    """The authorships of each name (spellings of one name together), in order of their first."""
    owner: dict[str, int] = {}
    parent = list(range(len(profiles)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, p in enumerate(profiles):
        for form in p.name.forms:
            j = owner.setdefault(form, i)
            a, b = find(i), find(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    classes: dict[int, list[int]] = defaultdict(list)
    for i in range(len(profiles)):
        classes[find(i)].append(i)
    return [classes[k] for k in sorted(classes)]


def _average_linkage(
    groups: _Groups,
    members: list[int],
    needed: float,
    evidence: Callable[[int, int], Evidence],
    pairs: Iterable[tuple[int, int]],
    items: Sequence[Authorship],
) -> None:
    """Join the groups of one common name while the best average evidence between two of them is
    at least ``needed`` (the best first; ties to the smaller groups' numbers).  ``pairs`` are the
    pairs weighed (every pair of a small name; of a name of many papers only those that share
    something, the others counting as no evidence).  The pairs of groups wait in a heap, and a join
    makes again only those of the joined groups: a name of thousands of papers is not rescored
    whole after every join."""
    size: Counter[int] = Counter(groups.find(i) for i in members)
    sums: dict[tuple[int, int], float] = defaultdict(float)
    best: dict[tuple[int, int], tuple[float, int, int]] = {}
    for i, j in pairs:
        a, b = sorted((groups.find(i), groups.find(j)))
        if a == b:
            continue
        w = evidence(i, j).weight
        sums[a, b] += w
        best[a, b] = _stronger(best.get((a, b)), (w, i, j))
    linked: dict[int, set[int]] = defaultdict(set)
    for a, b in sums:
        linked[a].add(b)
        linked[b].add(a)
    heap = [(-total / (size[a] * size[b]), a, b) for (a, b), total in sums.items()]
    heapq.heapify(heap)
    while heap:
        negative, a, b = heapq.heappop(heap)
        if (a, b) not in sums or sums[a, b] / (size[a] * size[b]) != -negative:
            continue  # joined already, or changed since (a newer entry stands for it)
        if -negative < needed:
            return
        if not groups.can_join(a, b):
            continue
        _, i, j = best[a, b]
        groups.join(
            a,
            b,
            f"{items[i].paper} and {items[j].paper} share {evidence(i, j).says()} "
            f"(evidence {-negative:.1f}, the name needs {needed:.1f})",
        )
        root, gone = (a, b) if groups.find(a) == a else (b, a)
        size[root] += size.pop(gone)
        del sums[a, b], best[a, b]
        for other in sorted((linked.pop(gone) | linked[root]) - {root, gone}):
            key = (min(root, other), max(root, other))
            was = (min(gone, other), max(gone, other))
            total = sums.pop(key, 0.0) + sums.pop(was, 0.0)
            sums[key], best[key] = total, _stronger(best.pop(key, None), best.pop(was, None))
            linked[other].discard(gone)
            linked[other].add(root)
            linked[root].add(other)
            heapq.heappush(heap, (-total / (size[key[0]] * size[key[1]]), *key))
        linked[root].discard(gone)


def _stronger(*picks: tuple[float, int, int] | None) -> tuple[float, int, int]:
    """The pair of authorships a join of two groups is said to rest on: the strongest, then the first."""
    return max((p for p in picks if p is not None), key=lambda p: (p[0], -p[1], -p[2]))


def _variants(groups: _Groups, profiles: Sequence[Profile], items: Sequence[Authorship]) -> None:
    """Join each group named only by a less specific form ("J. Smith") to the one group of a fuller
    name it can be ("John A. Smith"), when that form is rare; none when it fits several."""
    by_root: dict[int, list[int]] = defaultdict(list)
    for i in range(len(profiles)):
        by_root[groups.find(i)].append(i)
    fullest = {r: max((profiles[i].name for i in ms), key=specificity) for r, ms in by_root.items()}
    # a name whose first given name is written in full is a shorter form only of names that start so
    starting: dict[str, list[int]] = defaultdict(list)
    for s in sorted(by_root):
        if fullest[s].given:
            starting[fullest[s].given[0]].append(s)
    for r in sorted(by_root):
        name = fullest[r]
        if not name.given:
            continue
        candidates = sorted(by_root) if len(name.given[0]) == 1 else starting[name.given[0]]
        fits = [s for s in candidates if s != r and generalizes(name, fullest[s])]
        # several groups of one fuller name (two John A. Smiths) are as ambiguous as two names
        if len(fits) != 1 or expected_people(name) >= VARIANT_PEOPLE:
            continue
        shown = items[by_root[r][0]].written
        groups.join(
            fits[0], r, f"{shown} is the only {items[by_root[fits[0]][0]].written} of the block it can be"
        )


def _bare(key: str) -> str:
    """A name key as a person key: a ``~`` it holds becomes ``-``, so that no name is written like the
    key of another person of a shared name (``yang liu~arxiv-2401.00001``)."""
    return key.replace("~", "-")


def _clusters(
    groups: _Groups, items: Sequence[Authorship], picked: Sequence[Mark | None]
) -> tuple[Cluster, ...]:
    by_root: dict[int, list[int]] = defaultdict(list)
    for i in range(len(items)):
        by_root[groups.find(i)].append(i)
    drafts = []
    for r, members in by_root.items():
        names = Counter(items[i].name for i in members)
        name_key = min(names, key=lambda n: (-names[n], -specificity(Name.parse(n))[0], n))
        spellings = Counter(items[i].written for i in members if items[i].name == name_key)
        shown = min(spellings, key=lambda s: (-spellings[s], s))
        mark = next((picked[i] for i in members if picked[i] is not None), None)
        base = name_key
        if mark is not None:
            base = mark.key() or name_key
            shown = mark.person if mark.key() else shown
        earliest = min((items[i].year or 9999, items[i].paper, items[i].position) for i in members)
        drafts.append((_bare(base), earliest, shown, name_key, members, groups.reasons[r]))
    drafts.sort(key=lambda d: (d[0], d[1]))
    sharing = Counter(d[3] for d in drafts)
    out = []
    taken: set[str] = set()
    for base, earliest, shown, name_key, members, reasons in drafts:
        if sharing[name_key] > 1 and not any(picked[i] for i in members):
            common = expected_people(Name.parse(name_key))
            reasons = [
                *reasons,
                f"kept apart from the {sharing[name_key] - 1} other {shown} of this build: nothing they share "
                f"outweighs how common the name is ({common:.2g} people of it expected)",
            ]
        key = base
        if key in taken:
            key = f"{base}~{earliest[1]}"
            if key in taken:
                key = f"{key}-{earliest[2]}"
        taken.add(key)
        refs = tuple(sorted((items[i].paper, items[i].position) for i in members))
        out.append(Cluster(key, shown, name_key, refs, tuple(dict.fromkeys(reasons))))  # each reason once
    return tuple(sorted(out, key=lambda c: c.key))
