"""Delta builds: a rebuild that re-makes only the papers its changed files touch and applies the
difference to a copy of the store.

``kg build --out OUT`` over a folder that holds a build (its store, manifest and ledger of one
generation, built with the same settings and no thesaurus) does, instead of a full build:

1. find the files added, changed and removed since (by SHA-256, as the cache does);
2. identify every record (the identities of unchanged files come from the cache) and group them into
   papers, as a full build does: merges across files are decided over all records;
3. re-make the papers of the groups holding a record of a new or changed file, and of the groups of
   the old papers that held a record of a changed or removed file (``kg.resolve.Streaming`` over
   just those groups; their records in unchanged files come from the cache);
4. make the shared nodes those papers touch (persons, coauthor links, counts per year ...) as they
   were and as they are (``kg.shared``): what adds up from the store, changed by the old and new
   papers; name spellings, areas and unknown subjects from the ledger's sums; the rest from the
   ledger entries of the papers holding them;
5. delete the old papers' triples and the shared triples that changed, insert the new ones, in a
   copy of the store (a RocksDB checkpoint: hard links, no copying), which ``write_outputs`` then
   swaps in as it does a full build's store.

The result is the graph a full build of the same inputs makes (``tests/test_delta.py`` compares them
after every kind of change).  A delta falls back to a full build when it cannot be sure: no ledger, a
generation that differs between store, manifest and ledger, other settings, a thesaurus, counts that
do not add up, or more than :data:`MOST` of the papers to re-make (the result says why).

graph.ttl and the pages: a graph of at most ``kg.exporters.turtle.SORT_LIMIT`` triples has them
written again from the store (they cost little there, and graph.ttl is byte-identical to a full
build's); a bigger one has them removed rather than left describing the old graph (``Build.lazy``):
``kg export`` and ``kg viz`` make them from the store, ``kg build --full`` writes them all.
"""

from __future__ import annotations

import copy
import hashlib
import shutil
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pyoxigraph as ox

from kg import store as stores
from kg.assemble import Namer, Triple, _Minted, _paper, count_node
from kg.build_pages import BUILD_OUTPUTS
from kg.cache import (
    CACHE_DIR,
    Entries,
    Extract,
    FileEntry,
    Manifest,
    cache_name,
    changes,
    dumps_extract,
    extraction_key,
    loads_items,
    paper_hash,
)
from kg.errors import IssueLog, KgError, os_message
from kg.executors import Extraction, Progress, Step, _known_keys
from kg.exporters.turtle import SORT_LIMIT
from kg.extractors import check as check_extractors
from kg.ledger import PAPER_CODES, Entry, IssueRow, Ledger, issue, records_of, row, wanted
from kg.pipeline import Accepted, Build, BuildOptions, _accepted, _unchanged, settings
from kg.readers.discover import InputFile, discover
from kg.records import Mention, Record, SourceFile
from kg.resolve import MAX_COAUTHORS, Area, Paper, Place, Plan, Planned, Streaming
from kg.resolve import paper_key as paper_key_of
from kg.shared import Keys, Shared, counts_of, pairs_of
from kg.vocab import DCTERMS, KG, PROV, RDFS, SCHEMA

MOST = 0.3
"""The share of papers above which a delta re-makes so much that a full build costs about as much."""


@dataclass(slots=True)
class _Base:
    """The build a delta starts from."""

    manifest: Manifest
    ledger: Ledger
    extraction: str


def rebuild(
    paths: list[Path], out: Path, options: BuildOptions, log: IssueLog, progress: Progress | None = None
) -> Build | str:
    """The build of ``paths`` as a delta over the build in ``out`` (its store copied and changed,
    not yet swapped in: see ``kg.build_folder.write_outputs``), or why it must be a full build
    (nothing is reported to ``log`` then)."""
    base = _base(out, options)
    if isinstance(base, str):
        return base
    scratch = IssueLog()  # reported to ``log`` only once the delta is sure to be taken
    try:
        result = _Delta(out, options, base, scratch, progress).run(paths)
    except _Full as e:
        return str(e)
    for i in scratch.issues:
        log.report(i.at, i.severity, i.code, i.message)
    result.log = log
    return result


class _Full(Exception):
    """The delta cannot be sure of its result: build in full (the message says why)."""


def _base(out: Path, options: BuildOptions) -> _Base | str:
    """The build in ``out`` a delta starts from, or why there is none."""
    if options.full:
        return "--full"
    if options.thesaurus is not None:
        return "a thesaurus applies to every paper"
    manifest = Manifest.load(out)
    if not manifest.generation:
        return "no previous build"
    if manifest.resolution:
        return "the previous build applied a thesaurus"
    ledger = Ledger.load(out)
    if ledger is None or ledger.generation != manifest.generation:
        return "no ledger of the previous build"
    if not (out / stores.STORE_DIR).is_dir() or stores.generation(out) != manifest.generation:
        return "the store is not the one the manifest names"
    extraction = extraction_key(check_extractors(options.extractors or None))
    if manifest.extraction != extraction or ledger.settings != settings(options, extraction):
        return "other settings, extractors or taxonomies than the previous build"
    return _Base(manifest, ledger, extraction)


@dataclass
class _Delta:
    out: Path
    options: BuildOptions
    base: _Base
    log: IssueLog
    progress: Progress | None

    def run(self, paths: list[Path]) -> Build:
        started = time.perf_counter()
        previous, ledger = self.base.manifest, self.base.ledger
        stores.clean(self.out)
        files = discover(paths, self.log, self.out)
        accepted = _accepted(files, previous, True, self.log)
        now = {item.shown: key for item, key, _ in accepted}
        gone = {(shown, e.digest) for shown, e in previous.files.items() if now.get(shown) != e.digest}
        new_files = [a for a in accepted if (shown_entry(previous, a[0]) or "") != a[1]]
        fresh, fresh_keys = Entries(self.out), Entries(self.out)
        try:
            return self._run(started, files, accepted, gone, new_files, fresh, fresh_keys, ledger)
        except BaseException:
            fresh.close()
            fresh_keys.close()
            raise

    def _run(
        self,
        started: float,
        files: list[InputFile],
        accepted: list[Accepted],
        gone: set[tuple[str, str]],
        new_files: list[Accepted],
        fresh: Entries,
        fresh_keys: Entries,
        ledger: Ledger,
    ) -> Build:
        previous = self.base.manifest
        heads = records_of(ledger.lines)  # every paper's records and issues; the rest is read for few
        # nothing to read: no pool of workers to start (a change or removal takes records from the cache)
        workers = self.options.workers if new_files else 1
        extraction = Extraction(
            self.options.extractors, workers, self.options.scheduler if new_files else None
        )
        with extraction:
            identities = extraction.identify(
                accepted, _known_keys(self.out, self.base.extraction), fresh_keys, self.progress
            )
            plan = Plan.of(identities)
            identified = time.perf_counter()
            groups, removed = self._affected(plan, heads, gone, {key for _, key, _ in new_files})
            if len(groups) > MOST * max(1, len(plan.sizes)):
                raise _Full(f"{len(groups)} of {len(plan.sizes)} papers to make again")
            manifest = Manifest(extraction=self.base.extraction)
            new_ledger = Ledger(dict(ledger.settings), sums=copy.deepcopy(ledger.sums))
            papers = self._papers(plan, groups, accepted, new_files, extraction, manifest, new_ledger, fresh)
        made = time.perf_counter()
        kept = {key: h for key, h in previous.papers.items() if key not in removed}
        if not kept.keys().isdisjoint(p.key for p, _ in papers):  # dropped ones included: which came first?
            raise _Full("a paper made again has the key of one left as it was")
        manifest.papers = dict(sorted({**kept, **manifest.papers}.items()))
        for shown, rows in ledger.files.items():
            if shown in manifest.files and shown not in new_ledger.files:
                new_ledger.files[shown] = rows
        read = {item.shown for item, _, _ in new_files}
        for shown in sorted(new_ledger.files):  # issues of the files not read again, reported again
            if shown not in read:
                for values in new_ledger.files[shown]:
                    self._report(values)
        for at, message in plan.conflicts:
            self.log.warn(at, "identity-conflict", message)
        for key, (_, issues) in heads.items():
            if key not in removed:
                for path, line, severity, code, message in issues:
                    self._report((path, line, severity, code, message))
                new_ledger.lines[key] = ledger.lines[key]
        old = {key: Entry.loads(ledger.lines[key]) for key in sorted(removed)}
        for entry in old.values():
            new_ledger.sums.add(entry, -1)
        for _, entry in papers:
            new_ledger.add(entry)
        delete, insert, counts = self._difference(ledger, new_ledger, old, papers)
        summed = time.perf_counter()
        # nothing changed: the store stays as it is (kg.build_folder.build_into writes nothing)
        staging, graph = (
            self._apply(delete, insert) if removed or papers else (None, stores.open_store(self.out))
        )
        applied = time.perf_counter()
        triples = ledger.counts["triples"] - len(delete) + len(insert)
        counts["records"] = sum(entry.records for entry in manifest.files.values())
        counts["triples"] = triples
        new_ledger.counts = counts
        lazy = tuple(BUILD_OUTPUTS) if triples > SORT_LIMIT else ()
        fingerprint = hashlib.sha256(previous.generation.encode())
        for mark, quads in ((b"-", delete), (b"+", insert)):
            for text in sorted(str(q) for q in quads):
                fingerprint.update(mark + text.encode("utf-8") + b"\n")
        return Build(
            store=graph,
            counts={k: counts[k] for k in ("records", "papers", "persons", "coauthor_pairs")},
            log=self.log,
            base=self.options.base,
            files=files,
            files_read=len(new_files),
            files_reused=len(accepted) - len(new_files),
            triples=triples,
            seconds=time.perf_counter() - started,
            manifest=manifest,
            fresh=fresh,
            fresh_keys=fresh_keys,
            changes=changes(previous.papers, manifest.papers),
            store_path=staging,
            timings={
                "identify": identified - started,
                "read+extract+resolve": made - identified,
                "shared": summed - made,
                "apply": applied - summed,
            },
            ledger=new_ledger,
            lazy=lazy,
            generation=fingerprint.hexdigest() if lazy else "",
            delta={
                "papers_removed": len(removed),
                "papers_made": len(papers),
                "triples_deleted": len(delete),
                "triples_inserted": len(insert),
            },
        )

    def _report(self, values: IssueRow) -> None:
        i = issue(values)
        self.log.report(i.at, i.severity, i.code, i.message)

    def _affected(
        self,
        plan: Plan,
        heads: dict[str, tuple[list[list[Any]], list[list[Any]]]],
        gone: set[tuple[str, str]],
        new_digests: set[str],
    ) -> tuple[set[int], set[str]]:
        """The groups to make again and the old papers they replace.

        A group is re-made when it holds a record of a new or changed file, or a record of an old
        paper that lost one (its file changed or went); an old paper goes when any of its records is
        in a group re-made.  An old paper whose records all lie in unchanged files forms one group
        still (its records still share their keys), so the closure ends.  Papers that want one key
        (``paper-key-collision``: the first made keeps it) are made again together: the holder of
        a key a re-made group wants, and the papers dropped for a key whose holder goes."""
        members: dict[int, list[tuple[str, int]]] = {}
        keys: dict[int, set[str]] = {}
        group_of: dict[tuple[str, int], int] = {}
        for (digest, _), planned in plan.records.items():
            members.setdefault(planned.group, []).append((digest, planned.line))
            keys.setdefault(planned.group, set()).update(planned.keys)
            if (digest, planned.line) in group_of:
                raise _Full("two records on one line")
            group_of[digest, planned.line] = planned.group
        owner: dict[tuple[str, int], str] = {}
        holders: dict[str, list[str]] = {}  # paper key -> the entries that hold or want it
        removed: set[str] = set()
        for paper_key, (records, _) in heads.items():
            holders.setdefault(wanted(paper_key), []).append(paper_key)
            for path, digest, line in records:
                if (path, digest) in gone:
                    removed.add(paper_key)
                else:
                    owner[digest, line] = paper_key
        groups = {g for g, places in members.items() if any(d in new_digests for d, _ in places)}
        queue_groups = list(groups)
        queue_papers = list(removed)

        def take(paper_key: str) -> None:
            for other in (paper_key, *holders.get(wanted(paper_key), ())):
                if other not in removed:
                    removed.add(other)
                    queue_papers.append(other)

        for paper_key in list(removed):
            take(paper_key)
        while queue_groups or queue_papers:
            while queue_papers:
                for path, digest, line in heads[queue_papers.pop()][0]:
                    if (path, digest) in gone:
                        continue
                    g = group_of.get((digest, line))
                    if g is None:
                        raise _Full("a record of an unchanged file is not where the ledger has it")
                    if g not in groups:
                        groups.add(g)
                        queue_groups.append(g)
            while queue_groups:
                g = queue_groups.pop()
                for holder in holders.get(paper_key_of(sorted(keys[g])), ()):
                    take(holder)
                for digest, line in members[g]:
                    if digest in new_digests:
                        continue
                    held = owner.get((digest, line))
                    if held is None:
                        raise _Full("a record of an unchanged file is in no paper of the ledger")
                    take(held)
        return groups, removed

    def _papers(
        self,
        plan: Plan,
        groups: set[int],
        accepted: list[Accepted],
        new_files: list[Accepted],
        extraction: Extraction,
        manifest: Manifest,
        ledger: Ledger,
        fresh: Entries,
    ) -> list[tuple[Paper, Entry]]:
        """The papers of ``groups``, made from their records (read, or taken from the cache)."""
        order = sorted(groups)
        number = {g: i for i, g in enumerate(order)}
        wanted: dict[str, set[int]] = {}
        records: dict[Place, Planned] = {}
        for place, planned in plan.records.items():
            if planned.group in number:
                records[place] = Planned(number[planned.group], planned.line, planned.keys)
                wanted.setdefault(place[0], set()).add(place[1])
        sub = Plan(records, [plan.sizes[g] for g in order], [plan.reasons[g] for g in order], [])
        fresh_names = {item.shown for item, _, _ in new_files}
        previous = self.base.manifest
        made: list[tuple[Paper, Entry]] = []
        mark = len(self.log.issues)

        def source() -> Iterator[tuple[Place, Record, list[Mention]]]:
            for done, (item, key, st) in enumerate(accepted):
                if item.shown not in fresh_names:
                    known = previous.files[item.shown]
                    manifest.files[item.shown] = FileEntry(key, st.st_size, st.st_mtime_ns, known.records)
                    if key in wanted:
                        yield from self._cached_records(item, key, wanted[key], extraction)
                    continue
                if self.progress is not None:
                    self.progress(Step("reading", item, done, len(accepted)))
                extract = Extract()
                ordinal = 0
                first: SourceFile | None = None
                for record, mentions in extraction.stream(item, key, self.log, extract):
                    first = first or record.source
                    yield (key, ordinal), record, mentions
                    ordinal += 1
                _unchanged(item, st)
                fresh[item.shown] = dumps_extract(extract, first)
                ledger.files[item.shown] = [row(i) for i in extract.issues]
                manifest.files[item.shown] = FileEntry(key, st.st_size, st.st_mtime_ns, ordinal)

        def enter(paper: Paper, dropped: bool = False) -> None:
            nonlocal mark
            if not dropped:
                manifest.papers[paper.key] = paper_hash(paper)
            own = [i for i in self.log.issues[mark:] if i.code in PAPER_CODES]
            mark = len(self.log.issues)
            made.append((paper, Entry.of(paper, streaming.areas, own, dropped)))

        # papers made again complete in the order a full build completes them (each on its last
        # record, read in the same order), so a key two of them want goes to the same one
        streaming = Streaming(sub, self.log, source(), enter, None, lambda paper: enter(paper, True))
        for _ in streaming.consume():
            pass
        return made

    def _cached_records(
        self, item: InputFile, key: str, ordinals: set[int], extraction: Extraction
    ) -> Iterator[tuple[Place, Record, list[Mention]]]:
        """The records ``ordinals`` of an unchanged file: from its cache entry (only those decoded),
        else read again (its issues are not reported twice: the ledger has them)."""
        path = self.out / CACHE_DIR / cache_name(item.shown, key, self.base.extraction)
        try:
            items = loads_items(path.read_bytes(), ordinals)
        except (OSError, ValueError, KeyError, TypeError, EOFError, IndexError):
            items = None  # a missing or damaged entry only means reading the file again
        if items is None:
            read = extraction.stream(item, key, IssueLog(), Extract())
            items = [(i, record, mentions) for i, (record, mentions) in enumerate(read) if i in ordinals]
        for ordinal, record, mentions in items:
            yield (key, ordinal), record, mentions

    def _difference(
        self, ledger: Ledger, new_ledger: Ledger, old: dict[str, Entry], papers: list[tuple[Paper, Entry]]
    ) -> tuple[set[Triple], set[Triple], dict[str, int]]:
        """The triples to delete and insert, and the build's new counts.

        The shared nodes of the keys the old and new papers hold are made as they were and as they
        are: what adds up (paper counts, counts per year, coauthor links) from the store changed by
        the old and new papers; the spellings of names, areas and unknown subjects from the ledger's
        sums; repositories, links and introduced names (a least label, a union) from the ledger
        entries of the papers the store says hold them."""
        namer = Namer(self.options.base)
        new = [entry for _, entry in papers]
        keys = Keys()
        for entry in (*old.values(), *new):
            keys.add(entry)
        graph = stores.open_store(self.out)
        before, after = Shared(keys), Shared(keys)
        for shared, sums in ((before, ledger.sums), (after, new_ledger.sums)):
            shared.areas = {k: Area(k, label, pk, pl) for k, (_, label, pk, pl) in sums.areas.items()}
            shared.unknown = set(sums.unknown)
            shared.introduces_methods = sums.introducing > 0
            for person in keys.persons:
                if person in sums.spellings:
                    shared.spellings[person] = Counter(sums.spellings[person])
        made = [e for e in new if not e.dropped]
        gone = [e for e in old.values() if not e.dropped]
        # paper counts and counts per year: as stored, less the old papers', plus the new papers'
        for person in keys.persons:
            stored = _literal(graph, namer.person(person), KG.paperCount)
            before.papers_of[person] = stored
            after.papers_of[person] = (
                stored + sum(person in e.persons for e in made) - sum(person in e.persons for e in gone)
            )
        stored_counts = _stored_counts(graph, namer, keys.counts)
        change: Counter[tuple[str, str, str]] = Counter()
        for entry in made:
            change.update(counts_of(entry))
        for entry in gone:
            change.subtract(counts_of(entry))
        before.per_year = Counter({k: n for k, n in stored_counts.items() if n})
        after.per_year = Counter({k: stored_counts.get(k, 0) + change[k] for k in keys.counts})
        if any(n < 0 for n in (*after.per_year.values(), *after.papers_of.values())):
            raise _Full("the store's counts are not the ledger's")
        after.per_year = +after.per_year  # a count of no paper is no node
        # coauthor links: one stays while a paper the store keeps, or a new one, has both persons
        joined = {pair for entry in made for pair in pairs_of(entry)}
        removed_papers = {str(namer.paper(e.key)) for e in gone}
        creators = _Creators(graph, namer)
        for a, b in keys.pairs:
            before.pairs[a, b] = int(_has(graph, namer.person(a), KG.coauthor, namer.person(b)))
            after.pairs[a, b] = int((a, b) in joined or creators.joint(a, b, removed_papers))
        # repositories, links, introduced names: from every paper that holds them
        for paper_key in sorted(_holding(graph, namer, keys) - set(old)):
            if paper_key in ledger.lines:
                entry = Entry.loads(ledger.lines[paper_key])
                before.add_mentions(entry)
                after.add_mentions(entry)
        for entry in gone:
            before.add_mentions(entry)
        for entry in made:
            after.add_mentions(entry)
        was = before.triples(namer) | set(_stored(graph, namer, {e.key for e in gone}))
        people = _Minted(namer.person)
        will = after.triples(namer)
        for paper, entry in papers:
            if not entry.dropped:
                will.update(_paper(paper, namer, people))
        counts = dict(ledger.counts)
        counts["papers"] += len(made) - len(gone)
        counts["persons"] += sum(1 for p in after.spellings if p not in before.spellings) - sum(
            1 for p in before.spellings if p not in after.spellings
        )
        pairs_before = {p for p, n in before.pairs.items() if n}
        pairs_after = {p for p, n in after.pairs.items() if n}
        counts["coauthor_pairs"] += len(pairs_after - pairs_before) - len(pairs_before - pairs_after)
        return was - will, will - was, counts

    def _apply(self, delete: set[Triple], insert: set[Triple]) -> tuple[Path, ox.Store]:
        """A copy of the store with ``delete`` removed and ``insert`` added (not yet swapped in)."""
        staging = stores.staging(self.out)
        try:
            stores.open_store(self.out).backup(str(staging))
            graph = ox.Store(str(staging))
            for quad in delete:
                graph.remove(quad)
            graph.extend(insert)
            graph.flush()
        except OSError as e:
            shutil.rmtree(staging, ignore_errors=True)
            where = self.out / stores.STORE_DIR
            raise KgError(f"cannot write the store {where}: {os_message(e)}", code="write-failed") from e
        return staging, graph


def shown_entry(manifest: Manifest, item: InputFile) -> str | None:
    """The SHA-256 the previous build read ``item`` with, if it read it."""
    entry = manifest.files.get(item.shown)
    return entry.digest if entry is not None else None


def _literal(graph: ox.Store, subject: ox.NamedNode, predicate: ox.NamedNode) -> int:
    """The integer the store holds for ``subject predicate``, 0 when none."""
    for quad in graph.quads_for_pattern(subject, predicate, None, ox.DefaultGraph()):
        if isinstance(quad.object, ox.Literal):
            return int(quad.object.value)
    return 0


def _has(graph: ox.Store, s: ox.NamedNode, p: ox.NamedNode, o: ox.NamedNode) -> bool:
    return next(iter(graph.quads_for_pattern(s, p, o, ox.DefaultGraph())), None) is not None


class _Creators:
    """Each person's papers in the store (``dcterms:creator``), read once each."""

    def __init__(self, graph: ox.Store, namer: Namer) -> None:
        self.graph, self.namer = graph, namer
        self.papers: dict[str, set[str]] = {}
        self.authors: dict[str, int] = {}

    def of(self, person: str) -> set[str]:
        if person not in self.papers:
            node = self.namer.person(person)
            quads = self.graph.quads_for_pattern(None, DCTERMS.creator, node, ox.DefaultGraph())
            self.papers[person] = {str(q.subject) for q in quads}
        return self.papers[person]

    def joint(self, a: str, b: str, left_out: set[str]) -> bool:
        """Whether a paper in the store, not one of ``left_out``, has both persons among at most
        ``MAX_COAUTHORS`` authors (as ``kg.resolve.add_pairs`` counts pairs)."""
        for paper in (self.of(a) & self.of(b)) - left_out:
            if paper not in self.authors:
                node = ox.NamedNode(paper[1:-1])  # str() of a named node: <iri>
                quads = self.graph.quads_for_pattern(node, DCTERMS.creator, None, ox.DefaultGraph())
                self.authors[paper] = len({q.object for q in quads})
            if self.authors[paper] <= MAX_COAUTHORS:
                return True
        return False


def _holding(graph: ox.Store, namer: Namer, keys: Keys) -> set[str]:
    """The keys of the papers the store has holding a repository, link or introduced name of ``keys``."""
    patterns: list[tuple[ox.NamedNode, ox.NamedNode]] = []
    patterns += [(SCHEMA.codeRepository, ox.NamedNode(key)) for key in keys.repositories]
    patterns += [(RDFS.seeAlso, ox.NamedNode(key)) for key in keys.links]
    for kind, key in keys.introduced:
        if kind == "introduced-resource":
            patterns.append((KG.introduces, namer.resource(key)))
        else:
            concept = namer.introduced(key)
            patterns += [(KG.introduces, concept), (SCHEMA.mentions, concept)]
    prefix = namer.paper("").value
    found: set[str] = set()
    for predicate, node in patterns:
        for quad in graph.quads_for_pattern(None, predicate, node, ox.DefaultGraph()):
            subject = quad.subject
            if isinstance(subject, ox.NamedNode) and subject.value.startswith(prefix):
                found.add(unquote(subject.value.removeprefix(prefix)))
    return found


def _stored_counts(
    graph: ox.Store, namer: Namer, keys: set[tuple[str, str, str]]
) -> dict[tuple[str, str, str], int]:
    """The papers per year the store holds for each (scheme, key, year) of ``keys`` (see
    ``kg.assemble._statistics``: one ``kg:YearCount`` node each)."""
    found: dict[tuple[str, str, str], int] = {}
    for scheme, key, year in keys:
        _, node = count_node(namer, scheme, key, year)
        for quad in graph.quads_for_pattern(node, KG.papers, None, ox.DefaultGraph()):
            if isinstance(quad.object, ox.Literal):
                found[scheme, key, year] = int(quad.object.value)
    return found


def _stored(graph: ox.Store, namer: Namer, papers: set[str]) -> Iterator[Triple]:
    """The triples of ``papers`` as the store holds them: each paper's, and those of its authorships,
    source records and evidence (nodes no other paper shares)."""
    parts = (KG.authorship, PROV.wasDerivedFrom, KG.evidence)
    for key in sorted(papers):
        node = namer.paper(key)
        for quad in graph.quads_for_pattern(node, None, None, ox.DefaultGraph()):
            yield quad
            if quad.predicate in parts and isinstance(quad.object, ox.NamedNode):
                yield from graph.quads_for_pattern(quad.object, None, None, ox.DefaultGraph())
