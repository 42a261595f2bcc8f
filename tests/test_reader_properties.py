"""Hypothesis: readers never crash on arbitrary text and never lose a record silently."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import IssueLog
from kg.readers import read_file
from kg.readers.text import clean

LINE = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=80)
ABSTRACT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Zl", "Zp", "Cc")), min_size=1, max_size=300
)


def read(text: str) -> tuple[list[object], IssueLog]:
    log = IssueLog()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "page.txt"
        path.write_text(text, encoding="utf-8")
        return list(read_file(path, log)), log


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.lists(LINE, max_size=30))
def test_arbitrary_text_never_crashes(lines: list[str]) -> None:
    for header in ("", "arXiv subjects\n\n", "论文检索\n\n", "Daily Papers\n\n"):
        _records, log = read(header + "\n".join(lines))
        assert all(str(i).count(": ") >= 2 for i in log.issues)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(ABSTRACT, st.booleans()), min_size=1, max_size=12))
def test_listing_records_are_kept_or_reported(items: list[tuple[str, bool]]) -> None:
    """Every area line starts a record that is either read or named in a warning."""
    parts = ["论文检索"]
    for abstract, truncated in items:
        parts += ["Deep Learning · Everything Else", "Ada Lovelace, Alan Turing"]
        if not truncated:
            parts.append(abstract)
    records, log = read("\n\n".join(parts) + "\n")
    skipped = [
        i for i in log.issues if i.code in ("truncated-record", "field-too-long", "control-characters")
    ]
    assert len(records) + sum(i.code == "truncated-record" for i in skipped) >= len(items)
    assert len(records) <= len(items)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        ABSTRACT.filter(lambda s: s.strip() != "" and not re.fullmatch(r"\s*Daily Papers\s*", s)),
        min_size=1,
        max_size=20,
    )
)
def test_daily_feed_keeps_every_paragraph(abstracts: list[str]) -> None:
    records, _ = read("Daily Papers\n\n" + "\n\n".join(abstracts) + "\n")
    expected = [a for a in abstracts if clean(a)]
    assert len(records) == len(expected)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1990, 2030), ABSTRACT, st.sampled_from(["cs.LG", "math.OC", "xx.ZZ", ""])),
        min_size=1,
        max_size=10,
    )
)
def test_profile_records_are_kept_or_reported(items: list[tuple[int, str, str]]) -> None:
    parts = ["arXiv subjects", "Ada Lovelace", "Publications and source records attributed to Ada Lovelace."]
    for year, abstract, subject in items:
        parts += [f"arXiv{year}", "A Title", abstract.replace("\n", " ")]
        if subject:
            parts.append(subject + "↗")
    records, log = read("\n\n".join(parts) + "\n")
    dropped = sum(i.code == "truncated-record" for i in log.issues)
    assert len(records) + dropped == len(items)


def test_clean_looks_for_exactly_the_characters_it_removes() -> None:
    """clean() translates only text in which its quick search finds a character to remove: the search
    must find every one of them and nothing else (every code point checked)."""
    from kg.readers import text

    removed = set(text._CONTROL_TABLE) | set(text._BIDI)
    found = {c for c in range(0x110000) if text._UNSAFE.search(chr(c)) is not None}
    assert found == removed


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",))))
def test_clean_is_nfc_without_control_or_bidi_characters(value: str) -> None:
    import unicodedata

    from kg.readers import text

    out = clean(value)
    assert (
        out
        == unicodedata.normalize("NFC", value.translate(text._CONTROL_TABLE).translate(text._BIDI)).strip()
    )
    assert unicodedata.is_normalized("NFC", out)
    assert not any(ord(c) in text._CONTROL_TABLE or ord(c) in text._BIDI for c in out)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(["", "Mon, ", "Thu, ", "Xyz, ", "mon, "]),
    st.integers(0, 40),
    st.sampled_from(["Jan", "Feb", "Mar", "Jun", "Sep", "Dec", "Foo", "jan"]),
    st.integers(0, 10_000),
    st.integers(0, 30),
    st.integers(0, 70),
    st.integers(0, 70),
    st.sampled_from(["GMT", "+0100", "EST", ""]),
)
def test_arxiv_dates_read_as_email_utils_reads_them(
    weekday: str, day: int, month: str, year: int, hour: int, minute: int, second: int, zone: str
) -> None:
    """The JSON-lines reader's quick path for arXiv's dates gives what the general RFC 2822 parser
    gives, impossible days and times included."""
    import email.utils

    from kg.readers.jsonl import _date

    value = f"{weekday}{day} {month} {year:04d} {hour:02d}:{minute:02d}:{second:02d} {zone}".strip()
    try:
        expected: str | None = email.utils.parsedate_to_datetime(value).date().isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):
        expected = None
    assert _date(value) == expected
