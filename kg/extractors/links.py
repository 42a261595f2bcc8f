"""Links a paper names (title, abstract, comment, journal reference, own addresses): GitHub repositories
and other typed links.

A repository's key is its canonical IRI in lower case, because GitHub owner and
repository names are case-insensitive (one repository, one IRI); the display URL
keeps the case as written.  Other links keep their path and get a kind.

>>> [(f.kind, f.key) for f in find_links("Code: https://github. com/pUmpKin-Co/SparsityAndCoD.")]
[('repository', 'https://github.com/pumpkin-co/sparsityandcod')]
>>> found = find_links("see (github.com/XiaoduoAILab/Xmodel-2.5.git) and https://kausable.github.io/CausalDynamics.")
>>> [(f.kind, f.owner, f.name, f.url) for f in found]  # doctest: +NORMALIZE_WHITESPACE
[('repository', 'XiaoduoAILab', 'Xmodel-2.5', 'https://github.com/XiaoduoAILab/Xmodel-2.5'),
 ('project-page', '', '', 'https://kausable.github.io/CausalDynamics')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from kg.errors import IssueLog
from kg.records import Location, Mention, Record, Span

NAME = "links"
KINDS: tuple[str, ...] = ("repository", "link")
"""The kinds of mention it makes (``Mention.kind``)."""

MAX_URL_LENGTH = 2000
"""Longer URLs are page noise or an attack, not a link: they are reported and skipped."""

LINK_KINDS = (
    "project-page",
    "huggingface-model",
    "huggingface-dataset",
    "huggingface-space",
    "gitlab-repository",
    "bitbucket-repository",
    "other",
)

# Characters a URL may hold on a page.  Quotes, braces, brackets, backslashes and
# whitespace end a URL: they delimit it in LaTeX (\url{...}, \href{...}{...}),
# markdown ([text](url)) and HTML attributes, and are not valid in a URL unescaped.
_URL_CHAR = r"[A-Za-z0-9\-._~:/?#@!$&*+,;=%()]"
# a domain label then a TLD; no nested unbounded repeats, so matching stays linear
_HOSTNAME = r"(?:[a-z0-9-]{1,63}\.){1,10}[a-z]{2,24}(?![a-z0-9-])"
# "github. com/..." is how some listings break the URL over a line; only taken before a slash
_GITHUB = r"(?:www\.)?github\.(?:com|\ com(?=/))(?!\.?[a-z0-9-])"
# hosts recognised without a scheme; any other host needs http(s):// or www.
_KNOWN_BARE = (
    r"(?:gist\.github\.com|(?:[a-z0-9-]{1,63}\.){1,4}(?:github|gitlab)\.io"
    r"|(?:www\.)?gitlab\.com|(?:www\.)?bitbucket\.org|(?:www\.)?huggingface\.co|hf\.co)"
    r"(?!\.?[a-z0-9-])"
)

_CANDIDATE_TEXT = rf"""
    (?=[a-z0-9])  # every candidate starts with a letter or digit: lets the scan skip punctuation fast
    (?:
        (?P<unsafe>
            (?<![a-z0-9+.-])(?:javascript|vbscript):(?=\S)
          | (?<![a-z0-9+.-])data:[a-z]+/[a-z0-9.+-]+[;,]
        )
      | (?:
            (?P<scheme>(?<![a-z0-9+-])https?)://(?:\ (?=[a-z0-9]))?
            (?P<host>{_GITHUB}|{_HOSTNAME})
          | (?<![a-z0-9.@_-])
            (?P<bare>{_GITHUB}|{_KNOWN_BARE}|www\.{_HOSTNAME})
        )
        (?P<port>:[0-9]{{1,5}}(?![0-9]))?
        (?P<path>[/?#]{_URL_CHAR}*)?
    )
    """
_CANDIDATE = re.compile(_CANDIDATE_TEXT, re.IGNORECASE | re.VERBOSE)
# the same at a place where a glued URL was cut off the one before it ("Volcano|github.com/..."):
# what precedes it is a word, so the lookbehinds that keep "xhttps" or "mygithub.com" out are dropped
_GLUED_CANDIDATE = re.compile(
    _CANDIDATE_TEXT.replace("(?<![a-z0-9+-])", "").replace("(?<![a-z0-9.@_-])", ""),
    re.IGNORECASE | re.VERBOSE,
)
# a second URL run into a first one's path, right after a letter or digit: ".../Volcanogithub.com/x/y",
# ".../Sealinghttps://github.com/x/y" (after "/" or "=" it is the first URL's own path or query)
_GLUED = re.compile(r"(?<=[a-z0-9])(?:https?://|(?:www\.)?github\.com/)", re.IGNORECASE)
# the rest of "github.com/ owner/repo" after the space that split it
_SPLIT_TAIL = re.compile(rf"[a-z0-9][a-z0-9-]{{0,38}}/[a-z0-9._-]{_URL_CHAR}*", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s")
_TRAILING = frozenset(".,;:!?*'\"")
_OWNER = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}")
_REPO = re.compile(r"[A-Za-z0-9._-]{1,100}")

# First path segments that are GitHub's own pages, not users (GitHub reserves them as names).
_GITHUB_SITE_PAGES = frozenset(
    {
        "about", "account", "apps", "codespaces", "collections", "contact", "customer-stories", "dashboard",
        "enterprise", "events", "explore", "features", "join", "login", "logout", "marketplace", "new",
        "notifications", "open-source", "orgs", "organizations", "pricing", "pulls", "issues", "readme",
        "resources", "search", "security", "settings", "signup", "site", "solutions", "sponsors", "team",
        "topics", "trending", "users"
    }
)
_HUGGINGFACE_SITE_PAGES = frozenset(
    {
        "api", "blog", "chat", "collections", "docs", "enterprise", "hub", "inference-endpoints", "join",
        "learn", "login", "models", "new", "organizations", "papers", "posts", "pricing", "search",
        "settings", "tasks", "welcome"
    }
)
# sub-pages of a repository on Hugging Face, GitLab (old style, without "/-/") and Bitbucket
_REPO_SUB_PAGES = frozenset(
    {
        "blob", "commits", "discussions", "edit", "raw", "resolve", "src", "tree", "viewer", "issues",
        "merge_requests", "wikis", "pipelines", "branches", "tags", "pull-requests", "downloads"
    }
)
_GITLAB_SITE_PAGES = frozenset(
    {
        "-", "admin", "api", "dashboard", "explore", "groups", "help", "projects", "search", "users"
    }
)


@dataclass(frozen=True, slots=True)
class FoundLink:
    """A link found in text: where it is, how it was written, and what it names.

    ``kind`` is ``repository`` (a GitHub repository) or one of :data:`LINK_KINDS`;
    ``owner`` and ``name`` are as written, empty when the link names no repository.
    """

    start: int
    end: int
    written: str
    url: str
    kind: str
    owner: str = ""
    name: str = ""

    @property
    def key(self) -> str:
        """The key resolution uses: the lower-case IRI for a repository, the normalized URL otherwise."""
        return self.url.lower() if self.kind == "repository" else self.url


@dataclass(frozen=True, slots=True)
class Rejection:
    """Something that looked like a link but is not usable, with the issue code to report."""

    start: int
    end: int
    code: str
    message: str


FIELDS = ("title", "abstract", "comment", "journal_ref")
"""The record's free-text fields links are read from, in order: an arXiv comment is where most papers
name their code ("Code: https://github.com/..."), and a BibTeX entry's ``note`` is its comment."""

OWN_PAGES = "links"
"""The record's field of the paper's own addresses (arXiv's abstract and PDF pages, a BibTeX ``url`` or
``howpublished``): only links naming code, a model or a dataset are taken from it, as the rest are the
paper's pages themselves (``schema:url``), not links it gives."""


def extract(record: Record, log: IssueLog) -> Iterator[Mention]:
    """Links named in the record's title, abstract, comment, journal reference and own addresses:
    GitHub repositories and other typed links, each with the field it was found in (detail ``field``).

    >>> from kg.records import SourceFile
    >>> at = Location("x.jsonl", 3)
    >>> record = Record("r", SourceFile("x.jsonl", "0" * 64, "r"), at, abstract=Span("We study LoRA.", at),
    ...                 comment=Span("12 pages. Code: https://github.com/a/b", at))
    >>> [(m.key, m.get("field")) for m in extract(record, IssueLog())]
    [('https://github.com/a/b', 'comment')]
    """
    seen: set[str] = set()
    for name in FIELDS:
        span = getattr(record, name)
        if span is not None:
            yield from _mentions(span, name, log, seen)
    for span in record.links:
        yield from _mentions(span, OWN_PAGES, log, seen, code_only=True)


def find_links(text: str) -> list[FoundLink]:
    """Every link in ``text``, in order of position (duplicates kept).

    >>> find_links("[code](https://GitHub.com/a/b/tree/main)")[0].key
    'https://github.com/a/b'
    """
    return [found for found in scan(text) if isinstance(found, FoundLink)]


# Every candidate the pattern can match contains one of these (lower-cased); most abstracts
# have none, and a substring test is far cheaper than running the pattern over the text.
_MARKERS = ("http", "www.", "github", "gitlab", "bitbucket", "huggingface", "hf.co", "script:", "data:")


def scan(text: str) -> Iterator[FoundLink | Rejection]:
    """Links and rejected link-like text in ``text``, in order; linear in the length of ``text``."""
    lowered = text.lower()
    if not any(marker in lowered for marker in _MARKERS):
        return
    pos = 0
    glued = -1  # where a URL glued to the one before it starts
    while True:
        match = _GLUED_CANDIDATE.match(text, pos) if pos == glued else None
        match = match or _CANDIDATE.search(text, pos)
        if match is None:
            return
        start = match.start()
        if match.group("unsafe") is not None:
            # the whole token is the unsafe URL, including any http URL quoted inside it
            space = _WHITESPACE.search(text, match.end())
            end = space.start() if space is not None else len(text)
            yield Rejection(
                start,
                end,
                "unsafe-url-scheme",
                f"ignored a {match.group('unsafe').split(':')[0].lower()}: URL "
                f"{_quote(text[start:end])} (expected an http or https link)",
            )
            pos = max(end, start + 1)
            continue
        host = match.group("host") or match.group("bare")
        path = match.group("path") or ""
        end = match.end()
        if path == "/" and _is_github(host) and text.startswith(" ", end):
            tail = _SPLIT_TAIL.match(text, end + 1)
            if tail is not None:
                path, end = "/" + tail.group(), tail.end()
        cut = _GLUED.search(path, 1)
        if cut is not None:
            end -= len(path) - cut.start()
            path = path[: cut.start()]
            glued = end
        emphasis = len(text[max(0, start - 3) : start]) - len(text[max(0, start - 3) : start].rstrip("_"))
        stripped = _strip_trailing(path, emphasis)
        end -= len(path) - len(stripped)
        path = stripped
        pos = max(end, start + 1)
        written = text[start:end]
        if len(written) > MAX_URL_LENGTH:
            yield Rejection(
                start,
                end,
                "url-too-long",
                f"skipped a {len(written)}-character URL starting {_quote(written)} "
                f"(expected at most {MAX_URL_LENGTH} characters)",
            )
            continue
        scheme = (match.group("scheme") or "https").lower()
        yield _classify(start, end, written, scheme, host, match.group("port") or "", path)


def _mentions(
    span: Span, name: str, log: IssueLog, seen: set[str], *, code_only: bool = False
) -> Iterator[Mention]:
    """Mentions of the links in one field, skipping keys already seen in the record."""
    for found in scan(span.text):
        if isinstance(found, Rejection):
            if not code_only:  # a source's own address for the paper is its reader's to check
                log.warn(span.at, found.code, found.message)
            continue
        if found.key in seen or (code_only and found.kind == "other"):
            continue
        seen.add(found.key)
        yield _mention(found, span.at, name)


def _mention(found: FoundLink, at: Location, field: str) -> Mention:
    if found.kind == "repository":
        kind = "repository"
        detail = {"field": field, "name": found.name, "owner": found.owner, "url": found.url}
    else:
        kind = "link"
        detail = {"field": field, "kind": found.kind, "url": found.url}
        if found.name:
            detail.update(owner=found.owner, name=found.name)
    return Mention(
        kind=kind,
        key=found.key,
        text=found.written,
        at=at,
        extractor=NAME,
        position=found.start,
        detail=tuple(sorted(detail.items())),
    )


def _classify(
    start: int, end: int, written: str, scheme: str, host: str, port: str, path: str
) -> FoundLink | Rejection:
    """Type one matched URL; ``path`` has its trailing punctuation already stripped."""
    host = host.replace(" ", "").lower()
    bare_host = host.removeprefix("www.")
    route = re.split(r"[?#]", path, maxsplit=1)[0]
    segments = [s for s in route.split("/") if s]

    def link(kind: str, url: str, owner: str = "", name: str = "") -> FoundLink:
        return FoundLink(start, end, written, url, kind, owner, name)

    if not port and bare_host == "github.com":
        return _github(start, end, written, scheme, path, segments)
    if host.endswith((".github.io", ".gitlab.io")):
        return link("project-page", _normalized(scheme, host, port, path))
    if not port and bare_host in ("huggingface.co", "hf.co"):
        return _huggingface(start, end, written, scheme, host, path, segments)
    if not port and bare_host == "gitlab.com":
        if "/-/" in route:
            segments = [s for s in route.split("/-/", 1)[0].split("/") if s]
        segments = _before_sub_page(segments)
        if len(segments) >= 2 and segments[0].lower() not in _GITLAB_SITE_PAGES:
            segments[-1] = _without_git(segments[-1])
            if segments[-1]:
                owner, name = "/".join(segments[:-1]), segments[-1]
                return link("gitlab-repository", f"https://gitlab.com/{owner}/{name}", owner, name)
    if not port and bare_host == "bitbucket.org" and len(segments) >= 2:
        owner, name = segments[0], _without_git(segments[1])
        if name:
            return link("bitbucket-repository", f"https://bitbucket.org/{owner}/{name}", owner, name)
    return link("other", _normalized(scheme, host, port, path))


def _github(
    start: int, end: int, written: str, scheme: str, path: str, segments: list[str]
) -> FoundLink | Rejection:
    """A GitHub URL: a repository when it names owner/repo, else a link to a GitHub page."""
    if not segments:
        return Rejection(
            start,
            end,
            "bad-repository-url",
            f"GitHub URL {_quote(written)} names no repository (expected github.com/<owner>/<repo>)",
        )
    if len(segments) == 1 or segments[0].lower() in _GITHUB_SITE_PAGES:
        # github.com/<user> alone is a user or organisation page, and github.com/features, /orgs/...
        # are GitHub's own pages: links worth keeping, but no repository
        return FoundLink(start, end, written, _normalized(scheme, "github.com", "", path), "other")
    owner, name = segments[0], _without_git(segments[1])
    if not _OWNER.fullmatch(owner) or not _REPO.fullmatch(name) or name in (".", ".."):
        return Rejection(
            start,
            end,
            "bad-repository-url",
            f"GitHub URL {_quote(written)} has no valid owner/repository (expected an owner of letters, "
            "digits and hyphens and a repository of letters, digits, '.', '_' and '-')",
        )
    # sub-paths (/tree/main/..., /blob/..., /issues), queries and fragments name parts of the repository
    return FoundLink(start, end, written, f"https://github.com/{owner}/{name}", "repository", owner, name)


def _huggingface(
    start: int, end: int, written: str, scheme: str, host: str, path: str, segments: list[str]
) -> FoundLink:
    """A Hugging Face URL: a model, dataset or space when it names one, else a link."""
    kind, prefix = "huggingface-model", ""
    if segments and segments[0].lower() in ("datasets", "spaces"):
        kind = "huggingface-dataset" if segments[0].lower() == "datasets" else "huggingface-space"
        prefix, segments = segments[0].lower() + "/", segments[1:]
    elif segments and segments[0].lower() in _HUGGINGFACE_SITE_PAGES:
        segments = []
    named = _before_sub_page(segments)[:2]
    # huggingface.co/<word> alone is an organisation or user page (or an old-style model name that
    # cannot be told apart from one); a dataset or space named by one word is an old-style id
    if named and (len(named) == 2 or prefix or len(segments) > 1):
        owner, name = ("", named[0]) if len(named) == 1 else (named[0], named[1])
        repo_id = f"{owner}/{name}" if owner else name
        return FoundLink(start, end, written, f"https://huggingface.co/{prefix}{repo_id}", kind, owner, name)
    return FoundLink(start, end, written, _normalized(scheme, host, "", path), "other")


def _before_sub_page(segments: list[str]) -> list[str]:
    """Path segments up to the first repository sub-page (tree, blob, ...)."""
    for i, segment in enumerate(segments):
        if segment.lower() in _REPO_SUB_PAGES:
            return segments[:i]
    return segments


def _without_git(name: str) -> str:
    return name[:-4] if name.lower().endswith(".git") else name


def _normalized(scheme: str, host: str, port: str, path: str) -> str:
    """The URL with its scheme and host lower-cased; a bare "/" path is dropped."""
    return f"{scheme}://{host}{port}{'' if path == '/' else path}"


def _is_github(host: str | None) -> bool:
    return host is not None and host.replace(" ", "").lower().removeprefix("www.") == "github.com"


def _strip_trailing(path: str, underscores: int = 0) -> str:
    """``path`` without the sentence punctuation and unbalanced brackets that follow a URL on a page,
    and without as many closing underscores as opened it (markdown emphasis: ``_https://..._``)."""
    opens, closes = path.count("("), path.count(")")
    end = len(path)
    while end > 0:
        last = path[end - 1]
        if last == "_" and underscores > 0:
            underscores -= 1
            end -= 1
        elif last in _TRAILING:
            end -= 1
        elif last == ")" and closes > opens:
            closes -= 1
            end -= 1
        elif last == "(" and opens > closes:
            opens -= 1
            end -= 1
        else:
            break
    return path[:end]


def _quote(text: str, limit: int = 80) -> str:
    """Page text for a message: quoted and bounded."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "\u2026")
