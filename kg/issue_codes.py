"""Every issue code kg can report, with its severity and what it means (``kg list issues``).

A code is the stable kebab-case word at the end of an issue line
(``path:line: severity: message [code]``). Three severities:

- ``warning``: one record or field was skipped or changed; the build goes on (exit 1 only under ``--strict``);
- ``error``: a whole file was unusable, or the command stopped (exit 1);
- ``usage``: the command was asked for something it cannot do and stopped before starting (exit 2).

``tests/test_issue_codes.py`` keeps this table equal to the codes the sources emit, and checks that
the docs list them all.

>>> ISSUE_CODES["empty-authors"]
IssueCode(severity='warning', meaning='a record names no author')
>>> sorted({code.severity for code in ISSUE_CODES.values()})
['error', 'usage', 'warning']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CodeSeverity = Literal["warning", "error", "usage"]


@dataclass(frozen=True, slots=True)
class IssueCode:
    """How serious an issue code is and what it means, in one line."""

    severity: CodeSeverity
    meaning: str


def _table(*rows: tuple[str, CodeSeverity, str]) -> dict[str, IssueCode]:
    return {code: IssueCode(severity, meaning) for code, severity, meaning in sorted(rows)}


ISSUE_CODES: dict[str, IssueCode] = _table(
    # input files and folders (kg build)
    ("missing-input", "usage", "a path given to kg build does not exist (or is a dangling link)"),
    ("no-input", "error", "a folder given as input holds no input file"),
    ("not-a-file", "error", "an input, thesaurus or query file is neither a regular file nor a folder (a FIFO, a device); skipped"),
    ("unreadable-file", "error", "a file cannot be read (permissions, I/O error)"),
    ("unreadable-folder", "error", "a folder cannot be listed or read"),
    ("symlink-loop", "warning", "a link leads back into a folder already read; cut there"),
    ("duplicate-file", "warning", "a file has the same content as another input file; skipped"),
    ("output-folder", "warning", "kg's own outputs inside an input folder are not read as input"),
    ("input-changed", "error", "an input file changed or went away during the build; build again"),
    ("empty-file", "error", "a file is empty or holds only whitespace"),
    ("binary-file", "error", "a file holds NUL bytes: binary, not text"),
    ("not-utf8", "error", "a file is not UTF-8 text (UTF-16, or mostly bytes of another encoding)"),
    ("bad-utf8", "warning", "a byte that is not UTF-8 in a text file (Latin-1, Windows-1252?); replaced with U+FFFD, the line kept"),
    ("bad-gzip", "error", "a gzip-compressed file is damaged or cut; the rest is not read"),
    ("unknown-format", "error", "no reader takes the file (kg list readers); the message says what it looks like"),
    ("file-too-large", "error", "a BibTeX file, thesaurus or query file is over its size cap"),
    ("line-too-long", "warning", "a line over the line cap was cut"),
    ("control-characters", "warning", "stray NUL bytes in text were removed; the records kept"),
    ("field-too-long", "warning", "a title, abstract or name over its cap was cut"),
    ("name-too-long", "warning", "an author name over the name cap was skipped"),
    ("not-a-name", "warning", "an author without a letter (page punctuation or footnote marks, such as ':') was skipped"),
    ("joined-author", "warning", "an author began with a list's 'and' or '&' ('and Huchuan Lu'); the joiner was taken off"),
    ("too-many-authors", "warning", "a record lists more authors than the cap; the first ones kept"),
    # records, as the readers find them
    ("no-records", "warning", "a file in a known format holds no readable record"),
    ("truncated-record", "warning", "a record is cut short (no title or abstract, or the file ends in it); skipped"),
    ("missing-title", "warning", "a record has no title"),
    ("missing-abstract", "warning", "a record has no abstract"),
    ("missing-subject", "warning", "a profile record has no arXiv subject line"),
    ("missing-profile-person", "warning", "a profile page names no person"),
    ("record-count", "warning", "a page announces more records than it holds"),
    ("unexpected-line", "warning", "text before a listing's first area line was skipped"),
    ("empty-authors", "warning", "a record names no author"),
    ("bad-xml", "warning", "XML that is not well formed; reading resumes at the next record"),
    ("unsafe-xml", "error", "an XML file declares entities or a DTD; refused, nothing expanded or fetched"),
    ("bad-json", "warning", "a JSON line is not JSON (or not usable JSON); skipped"),
    ("bad-field", "warning", "a field has the wrong type or form (a date, DOI, arXiv id, year); skipped"),
    ("bad-record", "warning", "a record has neither an arXiv id nor a title, or is not an object; skipped"),
    ("deleted-record", "warning", "an OAI-PMH record is marked deleted and has no metadata"),
    ("bad-bibtex-entry", "warning", "a BibTeX entry or field cannot be parsed; skipped"),
    # extraction
    ("empty-author", "warning", "an author name is empty once normalized; skipped"),
    ("unknown-subject", "warning", "an arXiv category is not in the taxonomy; kept as written"),
    ("bad-area", "warning", "a conference area line is not 'Area · Subarea'; skipped"),
    ("bad-repository-url", "warning", "a GitHub URL names no valid owner/repository"),
    ("unsafe-url-scheme", "warning", "a javascript: or data: URL was ignored"),
    ("url-too-long", "warning", "a URL over the URL cap was skipped"),
    ("abstract-too-long", "warning", "methods are looked for in the first part of an overlong abstract only"),
    ("missing-taxonomy", "error", "the shipped method taxonomy is missing (a broken install)"),
    ("bad-taxonomy", "error", "the shipped method taxonomy cannot be read (a broken install)"),
    # identity (resolve)
    ("identity-conflict", "warning", "records that look like one paper carry different arXiv ids or DOIs"),
    ("author-not-listed", "warning", "a record names an author missing from the merged paper's list; added at the end"),
    ("many-authors", "warning", "a paper with over 100 authors keeps its authorships but adds no coauthor links"),
    ("paper-key-collision", "warning", "two papers were given the same key"),
    # the thesaurus (kg build --thesaurus)
    ("thesaurus-header", "warning", "a thesaurus's first line is not the header 'label<TAB>replace by'"),
    ("thesaurus-row", "warning", "a thesaurus row is malformed; skipped"),
    ("thesaurus-duplicate", "warning", "a thesaurus label has a row already; the later row skipped"),
    ("thesaurus-unused", "warning", "a thesaurus row names no person or method of the build; it changed nothing"),
    # the build folder
    ("not-a-build-folder", "usage", "--out holds a graph, store or cache that kg did not build; refused"),
    ("folder-busy", "error", "another kg command is writing the build folder (a build, or an export beside one); refused, nothing written"),
    ("build-owned", "usage", "an export's target is a build's own file (graph.ttl, store, manifest, ledger, cache); refused"),
    ("outputs-kept", "error", "the build read no record, or lost a file the previous build read; outputs kept"),
    ("write-failed", "error", "a file or folder cannot be written (disk full, read-only, a file in the way)"),
    ("bad-file-name", "error", "a name to write inside a folder is not a plain file name"),
    ("missing-dependency", "error", "--scheduler needs Dask, which is not installed (the message says how to install it)"),
    ("scheduler-unreachable", "error", "the Dask scheduler cannot be reached"),
    # the store and queries
    ("no-store", "error", "no built graph in the folder (run kg build first)"),
    ("bad-store", "error", "the store cannot be opened"),
    ("unknown-query", "usage", "no named query has that name (kg list queries)"),
    ("bad-named-query", "error", "a shipped .rq file has a malformed header"),
    ("unreadable-query", "error", "a .rq file given to kg query cannot be read"),
    ("bad-query", "error", "the SPARQL text is malformed; the message gives line and column"),
    ("query-too-long", "error", "the SPARQL text is over the length cap"),
    ("query-too-complex", "error", "the query nests deeper, or has more groups and operators, than the engine can parse safely"),
    ("update-refused", "error", "an update was sent; queries only read the graph"),
    ("service-refused", "error", "a SERVICE call was sent; queries run on the local graph only"),
    ("query-timeout", "error", "a query ran past its time limit"),
    ("query-failed", "error", "the store could not answer a query"),
    ("bad-param", "usage", "a query parameter is malformed, unknown or out of range"),
    ("missing-param", "usage", "a named query was run without a parameter it requires"),
    ("bad-format", "usage", "an unknown result format (kg query --format)"),
    ("missing-counts", "warning", "the graph lacks the counts a named query reads (built by an older kg); rebuild it"),
    ("endpoint-unreachable", "error", "the SPARQL endpoint cannot be reached"),
    ("endpoint-error", "error", "the SPARQL endpoint answered with an error or not with results"),
    ("endpoint-truncated", "error", "the SPARQL endpoint cut the rows a view needs whole"),
    # views, exports, figures, site
    ("unknown-view", "usage", "no view has that name (coauthors, topics, papers, ego)"),
    ("unknown-exporter", "usage", "no exporter has that name (kg list exporters)"),
    ("unknown-extractor", "usage", "no extractor has that name (kg list extractors)"),
    ("unassembled-kind", "error", "an extractor declares a kind of mention kg/assemble.py makes no triple of"),
    ("unknown-figure", "usage", "no figure has that name (kg list figures)"),
    ("unknown-focus", "error", "no node of the graph has the --focus name"),
    ("ambiguous-focus", "error", "the --focus name matches several nodes; be more precise"),
    ("unknown-term", "error", "a method, subject, area, person or owner named on the command line names nothing in the graph (kg plot, kg viz --method/--subject, kg query parameters; exit 2)"),
    ("bad-option", "error", "an option of kg viz, kg plot or kg site has a value it does not take"),
    ("bad-output", "usage", "a figure's output file is not .svg or .png"),
    ("no-views", "error", "the views are not available in this installation"),
    ("missing-asset", "error", "pyvis ships no vis-network script (a broken install)"),
    ("not-a-site-folder", "error", "the site's output folder holds files kg site did not write; refused"),
    ("missing-extra", "usage", "the command needs an optional extra (serve or plot); the message gives the install command for a checkout or a package"),
    # shards, kg load, kg serve
    ("bad-shards", "error", "a shard folder does not match its MANIFEST.json"),
    ("blank-nodes", "error", "a graph with blank nodes cannot be loaded in batches"),
    ("load-failed", "error", "the store refused a batch, or did not accept it after the retries"),
    ("port-in-use", "error", "kg serve cannot listen: the port is taken"),
    ("bad-host", "error", "kg serve cannot listen on that host"),
)
"""Every code, sorted by name."""
