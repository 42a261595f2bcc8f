"""The build folder: the name of every file and folder ``kg build --out OUT`` writes there.

One home for the layout (docs/builds.md tells what each holds and how a build commits them):

- ``graph.ttl`` and the pages (:data:`PAGES`): the outputs beside the store (:data:`OUTPUTS`); a delta
  build of a big graph leaves them to be made on demand (:data:`LAZY`);
- ``store/``: the Oxigraph store, the graph itself;
- ``cache/``: what was read from each input file (``kg.cache``);
- ``ledger.sqlite``: what each paper gave to the nodes papers share, and where its records lie
  (``kg.ledger``: the base of a delta build);
- ``manifest.json``: the input files and papers of the build, renamed into place last (its commit);
- ``site/`` (``kg site``) and ``export/`` (``kg export``): written by other commands, never by a build.

Nothing here imports kg: every module that names a part of the folder takes the name from here.

>>> OUTPUTS
('graph.ttl', 'coauthors.html', 'topics.html')
>>> STORE in NAMES and SITE not in NAMES
True
"""

from __future__ import annotations

GRAPH = "graph.ttl"
"""The graph as Turtle; its SHA-256 is the build's generation (what store, manifest and ledger name)."""
PAGES = ("coauthors.html", "topics.html")
"""The network views a build draws beside its graph."""
OUTPUTS = (GRAPH, *PAGES)
"""The files a build writes beside the store (``kg.build_pages.BUILD_OUTPUTS`` serializes each)."""
LAZY = OUTPUTS
"""What a delta build of a graph over ``kg.exporters.turtle.SORT_LIMIT`` triples removes rather than
rewrites: ``kg export``, ``kg viz`` and ``kg build --full`` make them from the store."""
STORE = "store"
CACHE = "cache"
LEDGER = "ledger.sqlite"
MANIFEST = "manifest.json"
SITE = "site"
"""Where ``kg site`` writes the website by default (``OUT/site``)."""
EXPORT = "export"
"""Where ``kg export`` writes by default (``OUT/export``)."""
LEGACY = ("ledger.json.gz",)
"""What earlier versions of kg wrote into a build folder and a build now removes."""
NAMES = (*OUTPUTS, STORE, CACHE, MANIFEST, LEDGER, EXPORT, *LEGACY)
"""What kg writes into a build folder: never read back as input, and what marks a folder as a build's."""
