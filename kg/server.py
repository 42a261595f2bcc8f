"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint over a built graph (Starlette + uvicorn).

Routes:

- ``/sparql``: the SPARQL 1.1 Protocol query operation: ``GET ?query=``, ``POST`` form
  (``application/x-www-form-urlencoded``) and ``POST application/sparql-query``; results negotiated
  from ``Accept`` (JSON, XML, CSV, TSV; Turtle, N-Triples or RDF/XML for CONSTRUCT and DESCRIBE) or
  a ``format=`` parameter.  Updates (``update=``, ``application/sparql-update``) and ``SERVICE`` calls
  are refused with 403; a malformed query gets 400 with the parser's message.
- ``/queries``: the named queries as JSON; ``/queries/NAME?author=...`` runs one, bound safely.
- ``/``: an offline HTML page (query box, named queries, results table); ``/graph``: the graph views
  written in ``OUT`` (``*.html``; one is served, several are listed, each at ``/views/NAME``).

Why worker processes: pyoxigraph cannot cancel a running query.  Queries run in a small pool of
processes that each hold the store open read-only; a query still running at the time limit has
its process killed and replaced, and the client gets 503.  The pool size bounds concurrent queries,
so a slow query never stalls the server itself; a request that waits longer than the time limit for
a free worker gets 503 too.  Results are cut at a row cap (header ``X-Kg-Truncated: true``).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import multiprocessing
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from urllib.parse import parse_qs

import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from kg.errors import KgError
from kg.store import STORE_DIR

log = logging.getLogger("kg.server")


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """What ``kg serve`` serves and its limits."""

    out: Path = Path("outputs")
    timeout: float = 10.0
    """Seconds a query may run (and wait for a free worker)."""
    max_rows: int = 10_000
    """Rows (or triples) returned at most; more are cut and ``X-Kg-Truncated: true`` is sent."""
    workers: int = 2
    """Queries run at once (one process each)."""
    max_body: int = 1_000_000
    """Largest request body accepted, in bytes."""
    cors_origins: tuple[str, ...] = ("*",)


# --- worker processes ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Answer:
    """What a worker sends back: a serialized result, or an error with its HTTP status."""

    status: int
    body: bytes
    media_type: str
    rows: int = 0
    truncated: bool = False


def _work(conn: Connection, store_path: str) -> None:
    """Worker process: open the store read-only, then answer (query, formats, cap) jobs until EOF."""
    import pyoxigraph as ox

    from kg.sparql import MEDIA_TYPES, Graph, Solutions, execute, serialize

    store = ox.Store.read_only(store_path)
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        text, results_format, graph_format, max_rows = job
        try:
            result = execute(store, text, limit=max_rows)
            fmt = graph_format if isinstance(result, Graph) else results_format
            body = serialize(result, fmt)
            if isinstance(result, Solutions):
                rows, truncated = len(result.rows), result.truncated
            elif isinstance(result, Graph):
                rows, truncated = len(result.triples), result.truncated
            else:
                rows, truncated = 1, False
            answer = Answer(200, body, MEDIA_TYPES[fmt], rows, truncated)
        except KgError as e:
            status = 400 if e.code == "bad-query" else 403 if e.code.endswith("-refused") else 500
            answer = Answer(status, (str(e) + "\n").encode(), "text/plain; charset=utf-8")
        conn.send(answer)


@dataclass(slots=True, eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection


class QueryError(Exception):
    """A query the pool could not answer: carries the HTTP status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(slots=True)
class QueryPool:
    """A fixed number of worker processes, each with the store open read-only."""

    store_path: Path
    size: int
    timeout: float
    _idle: asyncio.Queue[_Worker] = field(default_factory=asyncio.Queue)
    _all: set[_Worker] = field(default_factory=set)
    _pending: set[asyncio.Task[None]] = field(default_factory=set)

    def _spawn(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        parent, child = context.Pipe()
        process = context.Process(
            target=_work, args=(child, str(self.store_path)), daemon=True, name="kg-query"
        )
        process.start()
        child.close()
        worker = _Worker(process, parent)
        self._all.add(worker)
        # a worker counts once it has imported pyoxigraph and opened the store (seconds on a busy machine)
        if not parent.poll(120) or parent.recv() != "ready":
            self._stop(worker)
            raise KgError(f"query worker could not open {self.store_path}", code="bad-store")
        return worker

    def _stop(self, worker: _Worker) -> None:
        self._all.discard(worker)
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join(5)

    async def start(self) -> None:
        for _ in range(self.size):
            self._idle.put_nowait(await anyio.to_thread.run_sync(self._spawn))

    async def close(self) -> None:
        for task in list(self._pending):
            task.cancel()
        for worker in list(self._all):
            await anyio.to_thread.run_sync(self._stop, worker)

    async def run(self, text: str, results_format: str, graph_format: str, max_rows: int) -> Answer:
        """Answer one query within the time limit (waiting for a free worker counts too)."""
        started = time.monotonic()
        try:
            worker = await asyncio.wait_for(self._idle.get(), self.timeout)
        except TimeoutError:
            raise QueryError(503, f"server busy: no free query worker within {self.timeout:g} s") from None
        answered = False
        try:
            worker.conn.send((text, results_format, graph_format, max_rows))
            left = max(0.0, self.timeout - (time.monotonic() - started))
            ready = await anyio.to_thread.run_sync(worker.conn.poll, left)
            if not ready:
                raise QueryError(503, f"query stopped at the time limit of {self.timeout:g} s")
            answer: Answer = worker.conn.recv()
            answered = True
            return answer
        except (EOFError, OSError) as e:
            raise QueryError(500, f"query worker failed: {e}") from e
        finally:
            if answered:
                self._idle.put_nowait(worker)
            else:  # still running, dead or abandoned by the client: replace it, in the background
                task = asyncio.get_running_loop().create_task(self._replace(worker))
                self._pending.add(task)
                task.add_done_callback(self._pending.discard)

    async def _replace(self, worker: _Worker) -> None:
        await anyio.to_thread.run_sync(self._stop, worker)
        self._idle.put_nowait(await anyio.to_thread.run_sync(self._spawn))


# --- content negotiation -------------------------------------------------------------------------------

_RESULT_TYPES = {
    "application/sparql-results+json": "json",
    "application/json": "json",
    "application/sparql-results+xml": "xml",
    "application/xml": "xml",
    "text/xml": "xml",
    "text/csv": "csv",
    "text/tab-separated-values": "tsv",
}
_GRAPH_TYPES = {
    "text/turtle": "turtle",
    "application/x-turtle": "turtle",
    "application/n-triples": "ntriples",
    "text/plain": "ntriples",
    "application/rdf+xml": "rdfxml",
}
_FORMAT_NAMES = {
    "json": "json",
    "xml": "xml",
    "csv": "csv",
    "tsv": "tsv",
    "turtle": "turtle",
    "ttl": "turtle",
}


def negotiate(accept: str, table: dict[str, str], default: str) -> str:
    """The format of ``table`` the ``Accept`` header prefers (by q-value, then order), else ``default``.

    >>> negotiate("text/csv;q=0.5, application/sparql-results+xml", _RESULT_TYPES, "json")
    'xml'
    >>> negotiate("*/*", _RESULT_TYPES, "json")
    'json'
    """
    best: tuple[float, int, str] | None = None
    for index, item in enumerate(accept.split(",")):
        media, *params = (part.strip() for part in item.split(";"))
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        fmt = table.get(media.lower())
        if fmt is not None and q > 0 and (best is None or (q, -index) > (best[0], best[1])):
            best = (q, -index, fmt)
    return best[2] if best else default


# --- the application -----------------------------------------------------------------------------------


def create_app(options: ServerOptions) -> Starlette:
    """The ASGI application of ``kg serve`` (the pool starts and stops with the app's lifespan)."""
    store_path = options.out / STORE_DIR
    if not store_path.is_dir():
        raise KgError(
            f"no built graph in {options.out} (run 'kg build --out {options.out}' first)", code="no-store"
        )
    pool = QueryPool(store_path, options.workers, options.timeout)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        try:
            yield
        finally:
            await pool.close()

    async def answer(request: Request, text: str) -> Response:
        from kg.sparql import check_read_only

        try:
            check_read_only(text)
        except KgError as e:
            status = 403 if e.code.endswith("-refused") else 400
            return PlainTextResponse(str(e) + "\n", status_code=status)
        accept = request.headers.get("accept", "*/*")
        forced = _FORMAT_NAMES.get(request.query_params.get("format", "").lower())
        results_format = negotiate(accept, _RESULT_TYPES, "json")
        graph_format = negotiate(accept, _GRAPH_TYPES, "turtle")
        if forced in ("json", "xml", "csv", "tsv"):
            results_format = forced
        elif forced == "turtle":
            graph_format = forced
        try:
            got = await pool.run(text, results_format, graph_format, options.max_rows)
        except QueryError as e:
            return PlainTextResponse(e.message + "\n", status_code=e.status)
        headers = {"X-Kg-Rows": str(got.rows)} if got.status == 200 else {}
        if got.truncated:
            headers["X-Kg-Truncated"] = "true"
            headers["X-Kg-Row-Limit"] = str(options.max_rows)
        request.state.rows = got.rows
        return Response(got.body, status_code=got.status, media_type=got.media_type, headers=headers)

    async def sparql(request: Request) -> Response:
        if request.method == "GET":
            params = request.query_params
            if "update" in params:
                return _refuse_update()
            text = params.get("query")
            if text is None:
                return PlainTextResponse("missing 'query' parameter (SPARQL 1.1 Protocol)\n", status_code=400)
            return await answer(request, text)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/sparql-update":
            return _refuse_update()
        try:
            body = await _read_body(request, options.max_body)
        except _TooLarge:
            return PlainTextResponse(f"request body over {options.max_body} bytes\n", status_code=413)
        if kind == "application/sparql-query":
            return await answer(request, body.decode("utf-8", "replace"))
        if kind == "application/x-www-form-urlencoded":
            form = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
            if "update" in form:
                return _refuse_update()
            if len(form.get("query", [])) != 1:
                return PlainTextResponse("the form needs exactly one 'query' field\n", status_code=400)
            return await answer(request, form["query"][0])
        return PlainTextResponse(
            "POST application/sparql-query or application/x-www-form-urlencoded\n", status_code=415
        )

    async def queries(request: Request) -> Response:
        from kg.queries import QUERIES

        listing = [
            {
                "name": q.name,
                "description": q.description,
                "params": [
                    {
                        "name": p.name,
                        "description": p.description,
                        "required": p.required,
                        "default": p.default,
                    }
                    for p in q.params
                ],
                "text": q.text,
            }
            for q in QUERIES.values()
        ]
        return JSONResponse(listing)

    async def named(request: Request) -> Response:
        from kg.queries import QUERIES
        from kg.sparql import bind

        name = request.path_params["name"]
        if name not in QUERIES:
            return PlainTextResponse(f"unknown query {name!r}; choose from: {', '.join(QUERIES)}\n", 404)
        query = QUERIES[name]
        values = {k: v for k, v in request.query_params.items() if k != "format"}
        try:
            text = bind(query.text, query.bindings(values))
        except KgError as e:
            return PlainTextResponse(str(e) + "\n", status_code=400)
        return await answer(request, text)

    async def page(request: Request) -> Response:
        from kg.queries import QUERIES

        names = "".join(
            f'<option value="{html.escape(q.name)}">{html.escape(q.name)}: {html.escape(q.description)}</option>'
            for q in QUERIES.values()
        )
        return HTMLResponse(PAGE.replace("{{options}}", names))

    async def graph(request: Request) -> Response:
        """The graph views written beside the store (``OUT/*.html``): one is served, several are listed."""
        views = sorted(p.name for p in options.out.glob("*.html") if p.is_file())
        if not views:
            return PlainTextResponse(f"no graph view in {options.out} (no .html file written there)\n", 404)
        if len(views) == 1 or "graph.html" in views:
            return FileResponse(options.out / ("graph.html" if "graph.html" in views else views[0]))
        links = "".join(f'<li><a href="/views/{html.escape(v)}">{html.escape(v)}</a></li>' for v in views)
        return HTMLResponse(
            f"<!doctype html><title>kg graph views</title><h1>Graph views</h1><ul>{links}</ul>"
        )

    async def view(request: Request) -> Response:
        name = request.path_params["name"]
        views = {p.name for p in options.out.glob("*.html") if p.is_file()}
        if name not in views:  # only files listed in OUT, never a path from the request
            return PlainTextResponse("no such view\n", 404)
        return FileResponse(options.out / name, media_type="text/html")

    return Starlette(
        routes=[
            Route("/", page),
            Route("/sparql", sparql, methods=["GET", "POST"]),
            Route("/queries", queries),
            Route("/queries/{name}", named),
            Route("/graph", graph),
            Route("/views/{name}", view),
        ],
        middleware=[
            Middleware(BaseHTTPMiddleware, dispatch=_log_request),
            Middleware(
                CORSMiddleware,
                allow_origins=list(options.cors_origins),
                allow_methods=["GET", "POST", "OPTIONS"],
                allow_headers=["Accept", "Content-Type"],
                expose_headers=["X-Kg-Rows", "X-Kg-Truncated", "X-Kg-Row-Limit"],
            ),
        ],
        lifespan=lifespan,
    )


def _refuse_update() -> Response:
    return PlainTextResponse("updates are refused: this endpoint is read-only\n", status_code=403)


class _TooLarge(Exception):
    pass


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def _log_request(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
    """One line per request: client, method, path, status, rows, seconds."""
    started = time.perf_counter()
    response = await call_next(request)
    rows = getattr(request.state, "rows", None)
    client = request.client.host if request.client else "-"
    log.info(
        '%s "%s %s" %d%s %.3f s',
        client,
        request.method,
        request.url.path,
        response.status_code,
        f" {rows} rows" if rows is not None else "",
        time.perf_counter() - started,
    )
    return response


def serve(options: ServerOptions, host: str = "127.0.0.1", port: int = 7878) -> None:
    """Run the endpoint with uvicorn until interrupted (binds to loopback unless told otherwise)."""
    import uvicorn

    app = create_app(options)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kg SPARQL</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px system-ui,sans-serif;margin:1.5em;max-width:80em}
textarea{width:100%;height:14em;font:13px monospace}
table{border-collapse:collapse;margin-top:1em}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
#status{color:#555;margin:.5em 0}.error{color:#a00;white-space:pre-wrap}label{margin-right:1em}
</style></head><body>
<h1>kg SPARQL endpoint</h1>
<p>Endpoint: <code>/sparql</code> (SPARQL 1.1 Protocol, read-only). <a href="/graph">Graph view</a> &middot;
<a href="/queries">named queries (JSON)</a></p>
<p><label>Named query <select id="named"><option value="">(write your own)</option>{{options}}</select></label></p>
<div id="params"></div>
<textarea id="query" spellcheck="false">SELECT ?paper ?title WHERE {
  ?paper a &lt;https://schema.org/ScholarlyArticle&gt; ;
         &lt;http://purl.org/dc/terms/title&gt; ?title .
} LIMIT 20</textarea>
<p><button id="run">Run</button></p>
<div id="status"></div><div id="results"></div>
<script>
"use strict";
let named = {};
const $ = (id) => document.getElementById(id);
fetch("/queries").then((r) => r.json()).then((list) => { for (const q of list) named[q.name] = q; });
$("named").addEventListener("change", () => {
  const q = named[$("named").value];
  const box = $("params");
  box.replaceChildren();
  if (!q) return;
  $("query").value = q.text;
  for (const p of q.params) {
    const label = document.createElement("label");
    label.textContent = p.name + (p.required ? " (required) " : " ");
    const input = document.createElement("input");
    input.name = p.name; input.placeholder = p.description; input.value = p.default || "";
    label.appendChild(input); box.appendChild(label);
  }
});
function show(data) {
  const out = $("results");
  out.replaceChildren();
  if ("boolean" in data) { out.textContent = String(data.boolean); return; }
  const table = document.createElement("table");
  const head = table.insertRow();
  for (const v of data.head.vars) { const th = document.createElement("th"); th.textContent = v; head.appendChild(th); }
  for (const b of data.results.bindings) {
    const row = table.insertRow();
    for (const v of data.head.vars) row.insertCell().textContent = b[v] ? b[v].value : "";
  }
  out.appendChild(table);
  $("status").textContent = data.results.bindings.length + " rows";
}
$("run").addEventListener("click", async () => {
  const name = $("named").value;
  let response;
  $("status").textContent = "running...";
  const accept = {headers: {Accept: "application/sparql-results+json"}};
  if (name && named[name] && $("query").value === named[name].text) {
    const params = new URLSearchParams();
    for (const input of $("params").querySelectorAll("input")) if (input.value) params.set(input.name, input.value);
    response = await fetch("/queries/" + encodeURIComponent(name) + "?" + params, accept);
  } else {
    response = await fetch("/sparql", {method: "POST", headers: {Accept: "application/sparql-results+json",
      "Content-Type": "application/sparql-query"}, body: $("query").value});
  }
  if (!response.ok) {
    $("results").replaceChildren(); $("status").textContent = "";
    const p = document.createElement("p"); p.className = "error";
    p.textContent = response.status + ": " + await response.text(); $("results").appendChild(p); return;
  }
  if ((response.headers.get("Content-Type") || "").includes("json")) show(await response.json());
  else { const pre = document.createElement("pre"); pre.textContent = await response.text(); $("results").replaceChildren(pre); }
  if (response.headers.get("X-Kg-Truncated")) $("status").textContent += " (cut at the row limit)";
});
</script></body></html>
"""
