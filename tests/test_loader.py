"""The store's loader thread: what it loads is exactly what it is given, and its errors reach the
caller."""

from __future__ import annotations

import itertools
import threading
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg import store as stores

P = ox.NamedNode("https://example.org/p")


def quads_of(texts: list[str]) -> list[ox.Quad]:
    return [ox.Quad(ox.NamedNode(f"https://example.org/s{i}"), P, ox.Literal(t)) for i, t in enumerate(texts)]


def loaded(quads: list[ox.Quad], monkeypatch: pytest.MonkeyPatch, batch: int = 3) -> set[ox.Quad]:
    monkeypatch.setattr(stores, "BATCH", batch)
    store = ox.Store()
    with stores.Loader(store) as loader:
        passed = list(loader.loading(quads))
    assert passed == quads  # handed on as given, in order
    return set(store)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.characters(exclude_categories=("Cs",))), max_size=12))
def test_any_text_is_loaded_as_it_is(texts: list[str]) -> None:
    """Literals pass through N-Quads text unchanged: quotes, newlines, control characters, ``_:``."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        quads = quads_of(texts)
        assert loaded(quads, monkeypatch) == set(quads)


def test_hostile_and_typed_terms(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ['say "hi"\n\\', "\x00\x1f\x7f", "_:b0 looks like a blank node", "Zoë \u202e", ""]
    quads = [
        *quads_of(texts),
        ox.Quad(P, P, ox.Literal("2024", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#gYear"))),
        ox.Quad(P, P, ox.Literal("chat", language="fr")),
        ox.Quad(P, P, ox.NamedNode("https://example.org/a%20b?c=d#e")),
    ]
    assert loaded(quads, monkeypatch) == set(quads)


@pytest.mark.parametrize("streamed", [True, False] if stores.STREAMED else [False])
def test_a_blank_node_stays_one_node_across_batches(monkeypatch: pytest.MonkeyPatch, streamed: bool) -> None:
    """Streamed, the batches are one document, so a blank node is one node (named anew by the
    parser); batch by batch, a parser would name each batch's anew, so batches with one go as quads."""
    monkeypatch.setattr(stores, "STREAMED", streamed)
    b = ox.BlankNode("b1")
    quads = [ox.Quad(b, P, ox.Literal(str(i))) for i in range(7)]
    got = loaded(quads, monkeypatch, batch=2)
    assert len(got) == 7 and len({q.subject for q in got}) == 1
    assert {q.object for q in got} == {q.object for q in quads}
    if not streamed:
        assert {q.subject for q in got} == {b}


@pytest.mark.parametrize("streamed", [True, False] if stores.STREAMED else [False])
def test_both_ways_load_the_same(monkeypatch: pytest.MonkeyPatch, streamed: bool) -> None:
    monkeypatch.setattr(stores, "STREAMED", streamed)
    quads = quads_of([f"text {i}" for i in range(100)])
    assert loaded(quads, monkeypatch, batch=7) == set(quads)


def test_a_loader_error_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(self: stores.Loader, item: Any) -> None:
        raise OSError("No space left on device")

    monkeypatch.setattr(stores.Loader, "_load", full)
    monkeypatch.setattr(stores, "BATCH", 2)
    with pytest.raises(OSError, match="No space"), stores.Loader(ox.Store()) as loader:
        for _ in loader.loading(quads_of([str(i) for i in range(50)])):
            pass
    assert not loader._thread.is_alive()
    # the last batch's error, raised on leaving the block
    with pytest.raises(OSError, match="No space"), stores.Loader(ox.Store()) as loader:
        loader.put(quads_of(["x"]))


def test_a_caller_error_stops_the_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    started = threading.Event()
    release = threading.Event()
    seen: list[object] = []

    def slow(self: stores.Loader, item: Any) -> None:
        seen.append(item)
        started.set()
        release.wait(5)

    monkeypatch.setattr(stores.Loader, "_load", slow)
    with pytest.raises(KeyError), stores.Loader(ox.Store()) as loader:
        for i in range(4):  # one loading, two waiting, and the caller fails before the fourth
            loader.put(quads_of([str(i)]))
            if i == 0:
                started.wait(5)
            if i == 2:
                threading.Timer(0.2, release.set).start()  # after the caller has failed
                raise KeyError("the caller's own error")
    assert not loader._thread.is_alive()
    assert len(seen) == 1  # the batches still waiting were dropped


@pytest.mark.skipif(not stores.STREAMED, reason="the pipe is POSIX's")
def test_a_bulk_load_error_mid_stream_reaches_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk loader fails after reading a little (a full disk): the writer blocked on the full
    pipe is released, the batches still coming are dropped, and the caller gets the error."""
    read: list[int] = []

    class FullDisk:
        def bulk_load(self, *, path: str, format: ox.RdfFormat) -> None:
            with open(path, "rb") as f:
                read.append(len(f.read(1000)))
            raise OSError("IO error: No space left on device")

    monkeypatch.setattr(stores, "BATCH", 100)
    quads = quads_of(["x" * 1000 for _ in range(5000)])  # 5 MB: more than the pipe holds
    with pytest.raises(OSError, match="No space"), stores.Loader(FullDisk()) as loader:  # type: ignore[arg-type]
        for _ in loader.loading(quads):
            pass
    assert read == [1000]
    assert not loader._thread.is_alive() and not loader._sink.is_alive()


@pytest.mark.skipif(not stores.STREAMED, reason="the pipe is POSIX's")
def test_streamed_loader_closes_its_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    fds = Path("/proc/self/fd")
    if not fds.is_dir():
        pytest.skip("no /proc to count open files")
    before = sorted(p.name for p in fds.iterdir())
    for _ in range(3):
        assert loaded(quads_of(["a", "b", "c", "d"]), monkeypatch, batch=2)
    assert sorted(p.name for p in fds.iterdir()) == before  # no pipe end left open


TURTLE = rb"""@prefix ex: <https://example.org/> .
ex:a ex:p "one", "two \" quoted" ;
    ex:q ex:b .
ex:b ex:p "tr\u00e8s"@fr .
"""


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, len(TURTLE)), max_size=8), st.booleans())
def test_text_written_in_any_pieces_is_loaded_as_one_document(cuts: list[int], streamed: bool) -> None:
    """Text handed over piece by piece (as a serializer writes a file) loads as the whole document:
    a piece may end inside a term, and the prefixes of the first serve the rest."""
    whole = ox.Store()
    whole.load(TURTLE, ox.RdfFormat.TURTLE)
    expected = set(whole)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(stores, "STREAMED", streamed and stores.STREAMED)
        monkeypatch.setattr(stores.Loader, "CHUNK", 5)  # hand over (nearly) every piece
        store = ox.Store()
        written = bytearray()
        with stores.Loader(store, ox.RdfFormat.TURTLE) as loader:
            bounds = [0, *sorted(cuts), len(TURTLE)]
            for a, b in itertools.pairwise(bounds):
                tee = loader.tee(_Bytes(written))
                assert tee.write(TURTLE[a:b]) == b - a
        assert bytes(written) == TURTLE  # the file got every piece too
        assert set(store) == expected


class _Bytes:
    def __init__(self, into: bytearray) -> None:
        self.into = into

    def write(self, data: bytes) -> int:
        self.into += data
        return len(data)

    def flush(self) -> None:
        pass


@pytest.mark.skipif(not stores.STREAMED, reason="the pipe is POSIX's")
def test_a_bulk_load_error_reaches_a_writer_of_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk loader fails while text is still being written through the tee: the writer gets
    the error at a later piece, not a hang, and the threads end."""

    class FullDisk:
        def bulk_load(self, *, path: str, format: ox.RdfFormat) -> None:
            with open(path, "rb") as f:
                f.read(1000)
            raise OSError("IO error: No space left on device")

    monkeypatch.setattr(stores.Loader, "CHUNK", 1 << 16)
    written = bytearray()
    piece = b'<https://example.org/s> <https://example.org/p> "' + b"x" * 8000 + b'" .\n'
    with pytest.raises(OSError, match="No space"), stores.Loader(FullDisk(), ox.RdfFormat.TURTLE) as loader:  # type: ignore[arg-type]
        tee = loader.tee(_Bytes(written))
        for _ in range(2000):  # 16 MB: more than the pipe and the queue hold
            tee.write(piece)
    assert len(written) < 2000 * len(piece)  # stopped early
    assert not loader._thread.is_alive() and not loader._sink.is_alive()
