"""What keeps a big build's memory flat: glibc's mmap threshold fixed, person keys shared, and
repositories, links and introduced names summarized as their mentions come instead of kept."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from typing import Any

import pyoxigraph as ox
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg import executors
from kg import shared as shared_nodes
from kg.errors import IssueLog
from kg.kinds import Shared, mention_rows
from kg.kinds.code import Repository
from kg.kinds.methods import Introduced
from kg.pipeline import BuildOptions, build
from kg.records import Location, Mention
from kg.terms import Namer, method_iri, string
from kg.vocab import DATA_BASE, KG, RDF, SCHEMA, SKOS, XSD
from tests.conftest import ROOT, SEEDS

glibc = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not hasattr(ctypes.CDLL(None), "mallinfo2"),
    reason="glibc only",
)


class Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()  # noqa: SIM905
    ]


def mapped() -> int:
    """Bytes glibc's malloc holds in blocks mapped of their own."""
    mallinfo2 = ctypes.CDLL(None).mallinfo2
    mallinfo2.restype = Mallinfo2
    return int(mallinfo2().hblkhd)


BLOCKS = """
import sys
from kg import executors, pipeline
from tests.test_memory import mapped
if sys.argv[1] == "fixed":
    assert executors.steady_malloc()
size = 4 * executors.MMAP_THRESHOLD
first = bytearray(2 * size)
del first
before = mapped()
second = bytearray(size)
grown = mapped() - before
del second
print(grown, mapped() - before)
"""


@glibc
@pytest.mark.parametrize("malloc", ["default", "fixed"])
def test_big_blocks_stay_mapped_after_one_is_freed(malloc: str) -> None:
    """By default glibc serves the second block from the heap (its threshold rose to the size of the
    first, bigger block when that was freed); fixed, a big block is mapped, and unmapped when freed.
    In a fresh process: in this one, earlier tests may have left a free hole in the heap it fits."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_MMAP_THRESHOLD_"}
    run = subprocess.run(
        [sys.executable, "-c", BLOCKS, malloc], capture_output=True, text=True, check=True, cwd=ROOT, env=env
    )
    grown, left = map(int, run.stdout.split())
    size = 4 * executors.MMAP_THRESHOLD
    if malloc == "fixed":
        assert grown >= size and left < size
    else:
        assert grown < size


@glibc
def test_a_threshold_the_user_set_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MALLOC_MMAP_THRESHOLD_", raising=False)
    assert executors.steady_malloc.__wrapped__() is True
    monkeypatch.setenv("MALLOC_MMAP_THRESHOLD_", "65536")
    assert executors.steady_malloc.__wrapped__() is False


@pytest.mark.parametrize("workers", [1, 2])
def test_coauthor_pairs_share_one_copy_of_each_person_key(
    monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """Each paper's author mentions come with their own strings (from a worker's results, too); the
    pairs counted over a whole build keep one copy of each person key, not one per paper."""
    seen: list[Shared] = []
    pairs_of = shared_nodes.pairs

    def kept(shared: Shared) -> int:
        seen.append(shared)
        return pairs_of(shared)

    monkeypatch.setattr(shared_nodes, "pairs", kept)
    build([SEEDS], BuildOptions(workers=workers), IssueLog())
    pairs = seen[0].sums["pair"]
    copies: dict[str, set[int]] = {}
    for pair in pairs:
        for key in pair:
            copies.setdefault(key, set()).add(id(key))
    assert len(pairs) == 119
    # persons in pairs from several papers (the profiled author's coauthors)
    assert max(sum(1 for p in pairs if key in p) for key in copies) >= 5
    assert all(len(ids) == 1 for ids in copies.values()), {k: len(v) for k, v in copies.items() if len(v) > 1}


# --- running summaries of repositories, links and introduced names -----------------------------------

WORDS = st.sampled_from(["", "a", "B", "lora", "adam", "Zeta", "é"])


@st.composite
def introduced_mentions(draw: st.DrawFn) -> list[Mention]:
    kind = draw(st.sampled_from(["introduced-method", "introduced-resource"]))
    out = []
    for _ in range(draw(st.integers(1, 6))):
        detail = [
            ("broader", draw(WORDS)),
            ("full", draw(WORDS)),
            ("related", ";".join(draw(st.lists(WORDS, max_size=3)))),
            ("short", draw(WORDS)),
            ("type", draw(st.sampled_from(["dataset", "library", "benchmark"]))),
        ]
        kept = tuple((k, v) for k, v in detail if v or draw(st.booleans()))
        out.append(Mention(kind, "stepquant", draw(WORDS) or "X", Location("f", 1), "methods", 0, kept))
    return out


def described(mentions: list[Mention]) -> list[ox.Quad]:
    """The triples of an introduced name as described from the whole list of its mentions."""
    namer = Namer(DATA_BASE)
    m0 = mentions[0]
    resource = m0.kind == "introduced-resource"
    node = namer.resource(m0.key) if resource else namer.introduced(m0.key)
    label = min(m.text for m in mentions)
    if resource:
        kind = min(m.get("type", "dataset") for m in mentions)
        named = [ox.Quad(node, SCHEMA.name, string(label)), ox.Quad(node, SKOS.prefLabel, string(label))]
        if kind == "library":
            return [*named, ox.Quad(node, RDF.type, SCHEMA.SoftwareApplication)]
        # a dataset is a concept of the scheme of datasets named by papers
        return [
            *named,
            ox.Quad(node, RDF.type, SCHEMA.Dataset),
            ox.Quad(node, RDF.type, SKOS.Concept),
            ox.Quad(node, SKOS.inScheme, namer.resource_scheme()),
        ]
    out = [
        ox.Quad(node, RDF.type, KG.Method),
        ox.Quad(node, RDF.type, SKOS.Concept),
        ox.Quad(node, SKOS.inScheme, namer.introduced_scheme()),
        ox.Quad(node, SKOS.prefLabel, string(label)),
    ]
    full = min((m.get("full") for m in mentions if m.get("full")), default="")
    short = min((m.get("short") for m in mentions if m.get("short")), default="")
    if full and full != label:
        out.append(ox.Quad(node, SKOS.altLabel, string(full)))
    if short:
        out.append(ox.Quad(node, KG.shortForm, string(short)))
    related = sorted({slug for m in mentions for slug in m.get("related").split(";") if slug})
    broader = sorted({m.get("broader") for m in mentions if m.get("broader")})
    out += [ox.Quad(node, SKOS.broader, method_iri(slug)) for slug in broader]
    out += [ox.Quad(node, SKOS.related, method_iri(slug)) for slug in related if slug not in broader]
    return out


@given(introduced_mentions(), st.randoms(use_true_random=False))
def test_an_introduced_name_is_described_from_all_its_mentions_in_any_order(
    mentions: list[Mention], rng: Any
) -> None:
    rng.shuffle(mentions)
    summaries: dict[tuple[str, str], Introduced] = {}
    for m in mentions:
        Introduced.add(summaries, m.kind, mention_rows([m])[0])
    (summary,) = summaries.values()
    resource = mentions[0].kind == "introduced-resource"
    assert list(summary.triples(resource, "stepquant", Namer(DATA_BASE))) == described(mentions)


@given(
    st.lists(
        st.tuples(WORDS, WORDS, st.sampled_from(["", "https://github.com/a/b", "http://github.com/A/b"])),
        min_size=1,
        max_size=6,
    )
)
def test_a_repository_is_described_from_all_its_mentions(details: list[tuple[str, str, str]]) -> None:
    key = "https://github.com/a/b"
    mentions = [
        Mention("repository", key, "x", Location("f", 1), "links", 0, (("name", n), ("owner", o), ("url", u)))
        for o, n, u in details
    ]
    summaries: dict[tuple[str, str], Repository] = {}
    for m in mentions:
        Repository.add(summaries, m.key, m.get("owner"), m.get("name"), m.get("url"))
    owner, name = min((o, n) for o, n, _ in details)
    url = min(u for _, _, u in details)
    expected = [
        ox.Quad(ox.NamedNode(key), RDF.type, SCHEMA.SoftwareSourceCode),
        ox.Quad(ox.NamedNode(key), SCHEMA.name, string(f"{owner}/{name}")),
        ox.Quad(ox.NamedNode(key), KG.owner, string(owner)),
    ]
    # every repository has its URL: as written when given, else its IRI
    expected.append(ox.Quad(ox.NamedNode(key), SCHEMA.url, ox.Literal(url or key, datatype=XSD.anyURI)))
    assert list(summaries["repository", key].triples(key)) == expected
