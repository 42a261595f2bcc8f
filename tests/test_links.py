"""Tests for kg.extractors.links: GitHub repositories and other typed links in abstracts."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kg.errors import IssueLog
from kg.extractors import links
from kg.extractors.links import FoundLink, find_links
from kg.records import Location, Mention, Record, SourceFile, Span

SEEDS = Path(__file__).resolve().parents[1] / "seeds"
REPOSITORY_KEY = re.compile(r"^https://github\.com/[a-z0-9-]+/[a-z0-9._-]+$")
AT = Location("t.txt", 1)


def record(abstract: str | None, title: str | None = None) -> Record:
    return Record(
        reader="t",
        source=SourceFile("t.txt", "0" * 64, "t"),
        at=AT,
        title=None if title is None else Span(title, Location("t.txt", 2)),
        abstract=None if abstract is None else Span(abstract, AT),
    )


def extract(abstract: str | None, title: str | None = None) -> tuple[list[Mention], IssueLog]:
    log = IssueLog()
    return list(links.extract(record(abstract, title), log)), log


def only(text: str) -> FoundLink:
    found = find_links(text)
    assert len(found) == 1, found
    return found[0]


# --- GitHub repository spellings -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "written", "owner", "name"),
    [
        ("Code: https://github.com/a-b/c_d.", "https://github.com/a-b/c_d", "a-b", "c_d"),
        ("github.com/ipsitmantri/GLOT.", "github.com/ipsitmantri/GLOT", "ipsitmantri", "GLOT"),
        ("at https://github.com/a/b), and", "https://github.com/a/b", "a", "b"),
        ("at https://github.com/a/b; then", "https://github.com/a/b", "a", "b"),
        ("at https://github.com/a/b: then", "https://github.com/a/b", "a", "b"),
        ("at https://github.com/a/b!", "https://github.com/a/b", "a", "b"),
        ('quoted "https://github.com/a/b".', "https://github.com/a/b", "a", "b"),
        ("quoted 'https://github.com/a/b'", "https://github.com/a/b", "a", "b"),
        ("quoted \u201chttps://github.com/a/b\u201d", "https://github.com/a/b", "a", "b"),
        ("**https://github.com/a/b**", "https://github.com/a/b", "a", "b"),
        (
            "harness: https://github.com/XiaoduoAILab/Xmodel-2.5.",
            "https://github.com/XiaoduoAILab/Xmodel-2.5",
            "XiaoduoAILab",
            "Xmodel-2.5",
        ),
        (
            "Code is available at https://github. com/pUmpKin-Co/SparsityAndCoD.",
            "https://github. com/pUmpKin-Co/SparsityAndCoD",
            "pUmpKin-Co",
            "SparsityAndCoD",
        ),
        ("split https://github.com/ a/b.", "https://github.com/ a/b", "a", "b"),
        ("split https:// github.com/a/b.", "https:// github.com/a/b", "a", "b"),
        ("bare github.com/a/b.", "github.com/a/b", "a", "b"),
        ("plain http://github.com/a/b", "http://github.com/a/b", "a", "b"),
        ("www www.github.com/a/b", "www.github.com/a/b", "a", "b"),
        ("www https://www.github.com/a/b", "https://www.github.com/a/b", "a", "b"),
        ("upper HTTPS://GITHUB.COM/A/B", "HTTPS://GITHUB.COM/A/B", "A", "B"),
        ("in (https://github.com/a/b) parens", "https://github.com/a/b", "a", "b"),
        ("markdown [code](https://github.com/a/b).", "https://github.com/a/b", "a", "b"),
        (r"latex \url{https://github.com/a/b}.", "https://github.com/a/b", "a", "b"),
        (r"latex \href{https://github.com/a/b}{our code}", "https://github.com/a/b", "a", "b"),
        ("tree https://github.com/a/b/tree/main/x.py", "https://github.com/a/b/tree/main/x.py", "a", "b"),
        ("https://github.com/a/b/blob/main/R.md.", "https://github.com/a/b/blob/main/R.md", "a", "b"),
        ("issues https://github.com/a/b/issues", "https://github.com/a/b/issues", "a", "b"),
        ("readme https://github.com/a/b#readme", "https://github.com/a/b#readme", "a", "b"),
        ("https://github.com/a/b?tab=readme-ov-file.", "https://github.com/a/b?tab=readme-ov-file", "a", "b"),
        ("slash https://github.com/a/b/.", "https://github.com/a/b/", "a", "b"),
        ("git https://github.com/a/b.git", "https://github.com/a/b.git", "a", "b"),
        ("git. https://github.com/a/b.git.", "https://github.com/a/b.git", "a", "b"),
        ("glued license.https://github.com/a/b", "https://github.com/a/b", "a", "b"),
    ],
)
def test_repository_spellings(text: str, written: str, owner: str, name: str) -> None:
    found = only(text)
    assert found.kind == "repository"
    assert found.written == written
    assert text[found.start : found.end] == written
    assert (found.owner, found.name) == (owner, name)
    assert found.url == f"https://github.com/{owner}/{name}"
    assert found.key == f"https://github.com/{owner}/{name}".lower()
    assert REPOSITORY_KEY.match(found.key)


def test_case_variants_are_one_repository() -> None:
    keys = {f.key for f in find_links("github.com/IBM/Repo github.com/ibm/repo GITHUB.com/Ibm/REPO")}
    assert keys == {"https://github.com/ibm/repo"}


# --- GitHub URLs that are not repositories --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("https://github.com/orgs/tml-epfl/repositories", "https://github.com/orgs/tml-epfl/repositories"),
        ("https://github.com/features/actions.", "https://github.com/features/actions"),
        ("https://github.com/features", "https://github.com/features"),
        ("https://github.com/topics/deep-learning", "https://github.com/topics/deep-learning"),
        ("https://github.com/sponsors/someone", "https://github.com/sponsors/someone"),
        ("our lab: https://github.com/tml-epfl.", "https://github.com/tml-epfl"),
        ("github.com/someone/", "https://github.com/someone/"),
        ("https://gist.github.com/someone/0123abcd", "https://gist.github.com/someone/0123abcd"),
        ("gist.github.com/someone/0123abcd", "https://gist.github.com/someone/0123abcd"),
    ],
)
def test_github_pages_that_are_not_repositories(text: str, url: str) -> None:
    found = only(text)
    assert (found.kind, found.url, found.key) == ("other", url, url)


@pytest.mark.parametrize(
    "text",
    [
        "https://github.com/",
        "https://github.com",
        "on github.com.",
        "https://github.com/-bad/x",
        "github.com/a/b@c",
    ],
)
def test_github_urls_without_a_repository_are_reported(text: str) -> None:
    assert find_links(text) == []
    mentions, log = extract(text)
    assert mentions == []
    assert log.counts() == {"bad-repository-url": 1}
    assert "expected" in log.issues[0].message


@pytest.mark.parametrize(
    "text",
    [
        "https://cutepkq.github.io/latent-drift",
        "https://cutepkq.github.io/latent-drift{https://cutepkq.github.io/latent-drift}.",
        "kausable.github.io/CausalDynamics",
        "https://phi-rom.github.io.",
        "https://A.GitHub.IO/x",
    ],
)
def test_github_io_is_a_project_page_never_a_repository(text: str) -> None:
    found = find_links(text)
    assert found and all(f.kind == "project-page" for f in found)


# --- other typed links ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "url"),
    [
        ("https://cutepkq.github.io/latent-drift.", "project-page", "https://cutepkq.github.io/latent-drift"),
        ("https://phi-rom.github.io.", "project-page", "https://phi-rom.github.io"),
        ("https://phi-rom.github.io/.", "project-page", "https://phi-rom.github.io"),
        ("http://Site.GitHub.io/Page", "project-page", "http://site.github.io/Page"),
        ("https://group.gitlab.io/project/", "project-page", "https://group.gitlab.io/project/"),
        (
            "license.https://huggingface.co/XiaoduoAILab/Xmodel-2.5 and",
            "huggingface-model",
            "https://huggingface.co/XiaoduoAILab/Xmodel-2.5",
        ),
        ("huggingface.co/a/b/tree/main.", "huggingface-model", "https://huggingface.co/a/b"),
        ("https://hf.co/a/b", "huggingface-model", "https://huggingface.co/a/b"),
        ("https://huggingface.co/gpt2/blob/main/config.json", "huggingface-model", "https://huggingface.co/gpt2"),
        ("https://huggingface.co/datasets/a/b.", "huggingface-dataset", "https://huggingface.co/datasets/a/b"),
        ("https://huggingface.co/datasets/squad", "huggingface-dataset", "https://huggingface.co/datasets/squad"),
        (
            "https://huggingface.co/datasets/a/b/viewer/default",
            "huggingface-dataset",
            "https://huggingface.co/datasets/a/b",
        ),
        ("https://huggingface.co/spaces/a/b", "huggingface-space", "https://huggingface.co/spaces/a/b"),
        ("https://huggingface.co/someone", "other", "https://huggingface.co/someone"),
        ("https://huggingface.co/docs/transformers", "other", "https://huggingface.co/docs/transformers"),
        ("https://gitlab.com/a/b", "gitlab-repository", "https://gitlab.com/a/b"),
        ("gitlab.com/g/sub/p.git", "gitlab-repository", "https://gitlab.com/g/sub/p"),
        ("https://gitlab.com/g/sub/p/-/tree/main", "gitlab-repository", "https://gitlab.com/g/sub/p"),
        ("https://gitlab.com/a/b/blob/master/x", "gitlab-repository", "https://gitlab.com/a/b"),
        ("https://gitlab.com/explore/projects", "other", "https://gitlab.com/explore/projects"),
        ("https://bitbucket.org/a/b/src/master/", "bitbucket-repository", "https://bitbucket.org/a/b"),
        ("https://EXAMPLE.org/Data?x=1#top.", "other", "https://example.org/Data?x=1#top"),
        ("www.Example.com/page", "other", "https://www.example.com/page"),
        ("http://example.com:8080/a", "other", "http://example.com:8080/a"),
        ("https://example.com/", "other", "https://example.com"),
    ],
)
def test_typed_links(text: str, kind: str, url: str) -> None:
    found = only(text)
    assert (found.kind, found.url, found.key) == (kind, url, url)
    assert kind in links.LINK_KINDS


@pytest.mark.parametrize(
    "text",
    [
        "e.g. the model",
        "i.e., we use arXiv.org for the data",
        "the training data: we use",
        "mail me at someone@github.com",
        "JavaScript: a language",
        "version 2.5.1 of the code",
        "",
    ],
)
def test_prose_holds_no_link(text: str) -> None:
    mentions, log = extract(text)
    assert mentions == [] and log.issues == []


# --- the seeds ------------------------------------------------------------------------------------------

SEED_REPOSITORIES = {
    ("000", 85): "https://github.com/pumpkin-co/sparsityandcod",
    ("000", 101): "https://github.com/robertdvdk/hyperbolic-fully-connected",
    ("000", 133): "https://github.com/ibm/soft-masked-diffusion-language-models",
    ("002", 37): "https://github.com/archer222arc/resilibench",
    ("002", 79): "https://github.com/ipsitmantri/glot",
    ("002", 91): "https://github.com/wzy1026wzy/discrepancy-aware-compression-for-fl",
    ("003", 21): "https://github.com/anders-s-olsen/shiftstretchnmf",
    ("003", 29): "https://github.com/safelix/dinopl",
    ("003", 35): "https://github.com/tml-epfl/why-weight-decay",
    ("003", 41): "https://github.com/taylansoydan/tides",
    ("003", 73): "https://github.com/loshchil/adamw-and-sgdw",
    ("003", 79): "https://github.com/raminmh/liquid_time_constant_networks",
    ("003", 89): "https://github.com/radarfudan/curse-of-memory",
    ("003", 147): "https://github.com/hxnng/archer",
    ("003", 211): "https://github.com/microsoft/archscale",
    ("003", 229): "https://github.com/dreamer-toby/stepquant",
    ("003", 241): "https://github.com/xiaoduoailab/xmodel-2.5",
}


def seed_links() -> list[tuple[str, int, FoundLink]]:
    """Every link in the seed files, with the file's number prefix and the line."""
    found = []
    for path in sorted(SEEDS.glob("*.txt")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            found += [(path.name.split("_")[0], number, link) for link in find_links(line)]
    return found


def test_seeds_name_exactly_17_repositories_on_their_lines() -> None:
    repositories = {(f, n): link.key for f, n, link in seed_links() if link.kind == "repository"}
    assert repositories == SEED_REPOSITORIES
    assert len(set(repositories.values())) == 17


def test_seed_links_that_are_not_repositories() -> None:
    others = {(f, n, link.kind, link.url) for f, n, link in seed_links() if link.kind != "repository"}
    assert others == {
        ("003", 111, "project-page", "https://cutepkq.github.io/latent-drift"),
        ("003", 135, "project-page", "https://kausable.github.io/CausalDynamics"),
        ("003", 209, "project-page", "https://phi-rom.github.io"),
        ("003", 241, "huggingface-model", "https://huggingface.co/XiaoduoAILab/Xmodel-2.5"),
        ("003", 241, "huggingface-model", "https://huggingface.co/XiaoduoAILab/Xmodel-2.5-history"),
    }


def test_seed_lines_raise_no_issue() -> None:
    for path in sorted(SEEDS.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            assert extract(line)[1].issues == [], line


# --- extract(): mentions --------------------------------------------------------------------------------


def test_repository_mention() -> None:
    text = "Code is available at https://github. com/pUmpKin-Co/SparsityAndCoD."
    mentions, log = extract(text)
    assert log.issues == []
    assert mentions == [
        Mention(
            kind="repository",
            key="https://github.com/pumpkin-co/sparsityandcod",
            text="https://github. com/pUmpKin-Co/SparsityAndCoD",
            at=AT,
            extractor="links",
            position=text.index("https"),
            detail=(
                ("field", "abstract"),
                ("name", "SparsityAndCoD"),
                ("owner", "pUmpKin-Co"),
                ("url", "https://github.com/pUmpKin-Co/SparsityAndCoD"),
            ),
        )
    ]


def test_link_mentions() -> None:
    text = (
        "Page: https://cutepkq.github.io/latent-drift{https://cutepkq.github.io/latent-drift}. "
        "Weights: hf.co/a/b"
    )
    mentions, _ = extract(text)
    assert [(m.kind, m.key, m.get("kind"), m.position) for m in mentions] == [
        ("link", "https://cutepkq.github.io/latent-drift", "project-page", 6),
        ("link", "https://huggingface.co/a/b", "huggingface-model", text.index("hf.co")),
    ]
    assert all(m.extractor == links.NAME == "links" and m.at == AT for m in mentions)
    assert mentions[0].detail == (("field", "abstract"), ("kind", "project-page"), ("url", "https://cutepkq.github.io/latent-drift"))
    assert mentions[1].get("url") == "https://huggingface.co/a/b"
    for m in mentions:
        assert list(m.detail) == sorted(m.detail)


def test_one_mention_per_key_first_occurrence() -> None:
    text = "[https://github.com/A/B](https://github.com/a/b) and github.com/a/b/tree/main, GitHub.com/A/b."
    mentions, _ = extract(text)
    assert [(m.key, m.position, m.text) for m in mentions] == [
        ("https://github.com/a/b", 1, "https://github.com/A/B")
    ]


def test_title_links_come_first_and_are_not_repeated() -> None:
    mentions, _ = extract("code at github.com/a/b and github.com/c/d", title="A (github.com/A/B)")
    assert [(m.key, m.at.line) for m in mentions] == [
        ("https://github.com/a/b", 2),
        ("https://github.com/c/d", 1),
    ]


def test_record_without_text_gives_nothing() -> None:
    mentions, log = extract(None)
    assert mentions == [] and log.issues == []


# --- hostile input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        'javascript:alert("https://github.com/a/b")',
        "javascript:location='https://github.com/a/b'",
        "JavaScript:void(github.com/a/b)",
        "vbscript:msgbox(github.com/a/b)",
        "data:text/html,<a%20href=https://github.com/a/b>x</a>",
        "data:text/html;base64,aHR0cHM6Ly9naXRodWIuY29tL2EvYg==",
    ],
)
def test_unsafe_schemes_never_give_links(text: str) -> None:
    assert find_links(text) == []
    mentions, log = extract(text)
    assert mentions == []
    assert log.counts() == {"unsafe-url-scheme": 1}


def test_link_after_unsafe_url_is_still_found() -> None:
    found = find_links("javascript:alert(1) see github.com/a/b")
    assert [f.key for f in found] == ["https://github.com/a/b"]


def test_quotes_end_a_url() -> None:
    found = only('<a href="https://github.com/a/b" onclick="x">')
    assert found.key == "https://github.com/a/b"
    found = only("https://github.com/a/b'onmouseover='alert(1)")
    assert found.written == "https://github.com/a/b"


def test_url_too_long_is_reported_and_skipped() -> None:
    long_url = "https://github.com/a/b/" + "x" * 3000
    mentions, log = extract(f"see {long_url} and github.com/c/d")
    assert [m.key for m in mentions] == ["https://github.com/c/d"]
    assert log.counts() == {"url-too-long": 1}
    assert len(log.issues[0].message) <= 300
    assert len(find_links("https://example.com/" + "y" * 1970)) == 1


def test_unbalanced_parentheses() -> None:
    assert only("((((https://github.com/a/b").key == "https://github.com/a/b"
    assert only("https://github.com/a/b))))))").key == "https://github.com/a/b"
    assert only("(see (https://example.com/x_(y))).").url == "https://example.com/x_(y)"
    assert only("https://example.com/x(").url == "https://example.com/x"


def timed(text: str) -> tuple[list[Mention], IssueLog, float]:
    start = time.perf_counter()
    mentions, log = extract(text)
    return mentions, log, time.perf_counter() - start


@pytest.mark.parametrize(
    "text",
    [
        "github.com/" * 100_000,
        "(" * 1_000_000,
        "https://" * 130_000,
        "github. com/" * 90_000,
        "github.com/ " * 90_000,
        "a." * 500_000,
        "x-" * 500_000 + ".github.io",
        ("a" * 63 + ".") * 15_000,
        "https://example.com/" + ")" * 200_000,
        "javascript:" * 100_000,
        "www." * 250_000,
    ],
    ids=lambda t: repr(t[:12]),
)
def test_megabyte_inputs_stay_fast(text: str) -> None:
    _, _, seconds = timed(text)
    assert seconds < 5


def test_scan_time_is_linear() -> None:
    unit = "Code (see [x](https://github.com/a/b)) github. com/ (((( javascript:x www.q.org/( "
    _, _, small = timed(unit * 2_000)
    _, _, large = timed(unit * 16_000)
    assert large < 8 * small * 4 + 0.5


def test_megabyte_abstract_with_many_links() -> None:
    text = "".join(f"Code: https://github.com/o{i}/r{i}. " for i in range(30_000))
    mentions, log, seconds = timed(text)
    assert len(mentions) == 30_000 and log.issues == []
    assert seconds < 10


# --- properties -----------------------------------------------------------------------------------------

URLISH = st.lists(
    st.sampled_from(
        [
            *"abcAB019-._/:?#()[]{}\"' \n\\@",
            "github.com/", "github. com/", "https://", "http://", "www.", ".github.io", "huggingface.co/",
            "datasets/", "javascript:", "data:text/html,", ".git", "gitlab.com/", "/tree/main",
        ]
    ),
    max_size=30,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(max_size=200), URLISH))
def test_find_links_never_raises_and_keeps_its_promises(text: str) -> None:
    for found in find_links(text):
        assert 0 <= found.start < found.end <= len(text)
        assert text[found.start : found.end] == found.written
        assert len(found.written) <= links.MAX_URL_LENGTH
        if found.kind == "repository":
            assert REPOSITORY_KEY.match(found.key), found
            assert found.url.lower() == found.key
        else:
            assert found.kind in links.LINK_KINDS
            assert found.url.startswith(("https://", "http://"))
            assert not found.url.lower().startswith(("javascript:", "data:"))


@settings(max_examples=200, deadline=None)
@given(URLISH)
def test_extract_never_raises_and_keys_are_unique(text: str) -> None:
    mentions, log = extract(text, title=text)
    keys = [m.key for m in mentions]
    assert len(keys) == len(set(keys))
    for m in mentions:
        assert m.kind in ("repository", "link") and m.extractor == "links"
        assert list(m.detail) == sorted(m.detail)
    assert all(issue.severity == "warning" for issue in log.issues)


@settings(max_examples=200, deadline=None)
@given(
    owner=st.from_regex(r"[A-Za-z0-9][A-Za-z0-9-]{0,20}", fullmatch=True),
    name=st.from_regex(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,20}", fullmatch=True).filter(
        lambda n: not n.endswith((".", ".git", ".GIT", ".Git")) and n not in (".", "..")
    ),
    before=st.sampled_from(["", " ", "(", "[code](", "\\url{", "Code: ", '"']),
    after=st.sampled_from(["", ".", ")", ").", "}", " and", ";", ",", '"', "/tree/main", "#readme"]),
    scheme=st.sampled_from(["https://", "http://", "", "https://www.", "HTTPS://"]),
)
def test_any_written_repository_is_found(
    owner: str, name: str, before: str, after: str, scheme: str
) -> None:
    found = only(f"{before}{scheme}github.com/{owner}/{name}{after}")
    assert (found.kind, found.owner, found.name) == ("repository", owner, name)
    assert found.key == f"https://github.com/{owner}/{name}".lower()


# --- links in every field that carries them, with the field recorded ----------------------------


def test_code_named_only_in_the_comment_is_found_with_its_field() -> None:
    at = Location("day.jsonl", 7)
    paper = Record(
        reader="t",
        source=SourceFile("day.jsonl", "0" * 64, "t"),
        at=at,
        title=Span("A method", at),
        abstract=Span("We propose a method. See https://proj.github.io/m for videos.", at),
        comment=Span("12 pages, 4 figures. Code: https://github.com/Owner/Repo.", at),
        journal_ref=Span("Proc. X 2025, data at https://huggingface.co/datasets/o/d", at),
        links=(Span("https://arxiv.org/abs/2501.00001v1", at), Span("https://arxiv.org/pdf/2501.00001v1", at)),
    )
    log = IssueLog()
    found = [(m.kind, m.key, m.get("field")) for m in links.extract(paper, log)]
    assert found == [
        ("link", "https://proj.github.io/m", "abstract"),
        ("repository", "https://github.com/owner/repo", "comment"),
        ("link", "https://huggingface.co/datasets/o/d", "journal_ref"),
    ]  # the paper's own arXiv pages are no links it gives
    assert log.issues == []


def test_a_link_in_two_fields_is_one_mention_from_the_first() -> None:
    at = Location("a.xml", 3)
    paper = Record(
        reader="t",
        source=SourceFile("a.xml", "0" * 64, "t"),
        at=at,
        abstract=Span("Code at github.com/a/b", at),
        comment=Span("code: https://github.com/A/B/tree/main", at),
    )
    assert [(m.key, m.get("field")) for m in links.extract(paper, IssueLog())] == [
        ("https://github.com/a/b", "abstract")
    ]


def test_an_unsafe_url_in_the_comment_is_reported_there() -> None:
    at = Location("a.xml", 9)
    paper = Record("t", SourceFile("a.xml", "0" * 64, "t"), at, comment=Span("see javascript:alert(1)", at))
    log = IssueLog()
    assert list(links.extract(paper, log)) == []
    assert [(i.code, i.at.line) for i in log.issues] == [("unsafe-url-scheme", 9)]


def test_bibtex_url_note_and_howpublished_give_their_links(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@misc{tool,\n"
        "  title = {A Tool},\n"
        "  author = {Ada Lovelace},\n"
        "  howpublished = {\\url{https://github.com/ada/tool}},\n"
        "  year = {2024}\n"
        "}\n"
        "@inproceedings{paper,\n"
        "  title = {A Paper},\n"
        "  author = {Alan Turing},\n"
        "  url = {https://openreview.net/forum?id=abc},\n"
        "  note = {Code: \\url{https://github.com/alan/paper\\_code}},\n"
        "  year = {2025}\n"
        "}\n",
        encoding="utf-8",
    )
    from kg.readers import read_file

    log = IssueLog()
    records = list(read_file(bib, log))
    found = [[(m.key, m.get("field"), m.at.line) for m in links.extract(r, log)] for r in records]
    assert found == [
        [("https://github.com/ada/tool", "links", 4)],
        [("https://github.com/alan/paper_code", "comment", 11)],  # the openreview page is the paper's own
    ]
    assert records[1].comment is not None and records[1].comment.text == "Code: https://github.com/alan/paper_code"
