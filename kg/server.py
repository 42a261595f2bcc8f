"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint over a built graph (Starlette + uvicorn).

Routes:

- ``/sparql`` (and ``/query``, oxigraph serve's path): the SPARQL 1.1 Protocol query operation: ``GET ?query=``, ``POST`` form
  (``application/x-www-form-urlencoded``) and ``POST application/sparql-query``; results negotiated
  from ``Accept`` (JSON, XML, CSV, TSV; Turtle, N-Triples or RDF/XML for CONSTRUCT and DESCRIBE) or
  a ``format=`` parameter.  Updates (``update=``, ``application/sparql-update``) and ``SERVICE`` calls
  are refused with 403; a malformed query gets 400 with the parser's message.
- ``/queries``: the named queries as JSON; ``/queries/NAME?author=...`` runs one, bound safely.
- ``/``: an offline HTML page (query box, named queries, results table); ``/graph``: the graph views
  written in ``OUT`` (``*.html``; one is served, several are listed, each at ``/views/NAME``).
- ``/site/``: the static site ``kg site`` wrote in ``OUT/site`` (files under that folder only; 404
  until it exists).

Why worker processes: pyoxigraph cannot cancel a running query.  Queries run in a small pool of
processes that each hold the store open read-only; a query still running at the time limit has
its process killed and replaced, and the client gets 503.  The pool size bounds concurrent queries,
so a slow query never stalls the server itself.  Requests wait for a free worker in a bounded queue
(``max_queue`` waiting, each at most ``queue_timeout`` seconds; beyond either, 503 with
``Retry-After``), so a burst is served in turn and an overload is refused quickly rather than piled
up.  Results are cut at a row cap (header ``X-Kg-Truncated: true``).

Hostile clients: each request must arrive (headers and body) within ``read_timeout`` seconds (a slow
body gets 408, slow headers or an idle new connection are closed), bodies over ``max_body`` get 413,
request lines and headers are capped at 64 KiB, at most ``max_connections`` connections are served at
once, and parameters must be valid UTF-8.  The worker processes cannot open network sockets (a
seccomp filter, on Linux), as a second line behind the refusal of ``SERVICE`` in ``kg.sparql``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kg.errors import KgError, unknown
from kg.query_workers import QueryError, QueryPool
from kg.site import SITE_DIR
from kg.store import STORE_DIR

log = logging.getLogger("kg.server")


@dataclass(frozen=True, slots=True)
class ServerOptions:
    """What ``kg serve`` serves and its limits."""

    out: Path = Path("outputs")
    timeout: float = 10.0
    """Seconds a query may run once a worker has it."""
    max_rows: int = 10_000
    """Rows (or triples) returned at most; more are cut and ``X-Kg-Truncated: true`` is sent."""
    workers: int = 2
    """Queries run at once (one process each)."""
    queue_timeout: float = 30.0
    """Seconds a request may wait for a free worker; longer gets 503."""
    max_queue: int = 200
    """Requests waiting for a free worker at most; more get 503 at once."""
    max_body: int = 1_000_000
    """Largest request body accepted, in bytes."""
    read_timeout: float = 10.0
    """Seconds a client has to send a whole request (headers and body)."""
    max_connections: int = 500
    """Connections served at once; requests on more get 503 (uvicorn's ``limit_concurrency``)."""
    cors_origins: tuple[str, ...] = ("*",)


MAX_HEAD = 65_536
"""Largest request line plus headers, in bytes (h11's cap on an incomplete event): a longer GET gets 400."""
MAX_FIELDS = 100
"""Most parameters (query-string or form fields) a request may carry."""


# --- worker processes ----------------------------------------------------------------------------------


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
    pool = QueryPool(store_path, options.workers, options.timeout, options.queue_timeout, options.max_queue)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        try:
            yield
        finally:
            await pool.close()

    endpoints = _Endpoints(options, pool)
    return Starlette(
        routes=[
            Route("/", endpoints.page),
            Route("/sparql", endpoints.sparql, methods=["GET", "POST"]),
            # oxigraph serve's path too, so one URL works against either
            Route("/query", endpoints.sparql, methods=["GET", "POST"]),
            Route("/queries", endpoints.queries),
            Route("/queries/{name}", endpoints.named),
            Route("/graph", endpoints.graph),
            Route("/views/{name}", endpoints.view),
            Mount("/site", _SiteFiles(options.out / SITE_DIR), name="site"),
        ],
        middleware=[
            Middleware(_RequestLog),
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


class _Endpoints:
    """The handlers of ``kg serve``'s routes, over one pool of query workers."""

    def __init__(self, options: ServerOptions, pool: QueryPool) -> None:
        self.options = options
        self.pool = pool

    async def answer(
        self, request: Request, text: str, params: dict[str, list[str]], cap: int | None = None
    ) -> Response:
        from kg.sparql import check_read_only

        try:
            check_read_only(text)
        except KgError as e:
            status = 403 if e.code.endswith("-refused") else 400
            return PlainTextResponse(str(e) + "\n", status_code=status)
        accept = request.headers.get("accept", "*/*")
        forced = _FORMAT_NAMES.get(params.get("format", [""])[-1].lower())
        results_format = negotiate(accept, _RESULT_TYPES, "json")
        graph_format = negotiate(accept, _GRAPH_TYPES, "turtle")
        if forced in ("json", "xml", "csv", "tsv"):
            results_format = forced
        elif forced == "turtle":
            graph_format = forced
        rows = self.options.max_rows if cap is None else min(cap, self.options.max_rows)
        try:
            got = await self.pool.run(text, results_format, graph_format, rows)
        except QueryError as e:
            busy = {"Retry-After": "1"} if e.busy else None
            return PlainTextResponse(e.message + "\n", status_code=e.status, headers=busy)
        headers = {"X-Kg-Rows": str(got.rows)} if got.status == 200 else {}
        if got.truncated and rows == self.options.max_rows:  # a smaller limit asked for is not a cut
            headers["X-Kg-Truncated"] = "true"
            headers["X-Kg-Row-Limit"] = str(self.options.max_rows)
        request.state.rows = got.rows
        return Response(got.body, status_code=got.status, media_type=got.media_type, headers=headers)

    async def sparql(self, request: Request) -> Response:
        try:
            params = _parameters(request.scope["query_string"])
        except _BadRequest as e:
            return PlainTextResponse(f"{e}\n", status_code=400)
        if request.method == "GET":
            if "update" in params:
                return _refuse_update()
            if len(params.get("query", [])) != 1:
                return PlainTextResponse("give exactly one 'query' parameter (SPARQL 1.1 Protocol)\n", 400)
            return await self.answer(request, params["query"][0], params)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/sparql-update" or "update" in params:
            return _refuse_update()
        try:
            body = await _read_body(request, self.options.max_body, self.options.read_timeout)
        except _TooLarge:
            return PlainTextResponse(f"request body over {self.options.max_body} bytes\n", status_code=413)
        except _TooSlow:
            return _closing(f"request body not received within {self.options.read_timeout:g} s\n", 408)
        try:
            if kind == "application/sparql-query":
                return await self.answer(request, _utf8(body, "request body"), params)
            if kind == "application/x-www-form-urlencoded":
                form = _parameters(body)
                if "update" in form:
                    return _refuse_update()
                if len(form.get("query", [])) != 1:
                    return PlainTextResponse("the form needs exactly one 'query' field\n", status_code=400)
                return await self.answer(request, form["query"][0], {**params, **form})
        except _BadRequest as e:
            return PlainTextResponse(f"{e}\n", status_code=400)
        return PlainTextResponse(
            "POST application/sparql-query or application/x-www-form-urlencoded\n", status_code=415
        )

    async def queries(self, request: Request) -> Response:
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
                "needs": list(q.needs),
                "text": q.text,
            }
            for q in QUERIES.values()
        ]
        return JSONResponse(listing)

    async def named(self, request: Request) -> Response:
        from kg.queries import QUERIES, sized
        from kg.sparql import bind

        name = request.path_params["name"]
        if name not in QUERIES:
            return PlainTextResponse(unknown("query", name, QUERIES) + "\n", 404)
        query = QUERIES[name]
        try:
            params = _parameters(request.scope["query_string"])
            repeated = sorted(k for k, v in params.items() if len(v) > 1)
            if repeated:
                raise _BadRequest(f"parameter {repeated[0]!r} given more than once")
            values = {k: v[0] for k, v in params.items() if k != "format"}
            cap = query.limit(values)
            text = bind(sized(query.text, cap), query.bindings(values))
        except (KgError, _BadRequest) as e:
            return PlainTextResponse(str(e) + "\n", status_code=400)
        return await self.answer(request, text, params, cap)

    async def page(self, request: Request) -> Response:
        from kg.queries import QUERIES

        names = "".join(
            f'<option value="{html.escape(q.name)}">{html.escape(q.name)}: {html.escape(q.description)}</option>'
            for q in QUERIES.values()
        )
        return HTMLResponse(PAGE.replace("{{options}}", names))

    async def graph(self, request: Request) -> Response:
        """The graph views written beside the store (``OUT/*.html``): one is served, several are listed."""
        views = sorted(p.name for p in self.options.out.glob("*.html") if p.is_file())
        if not views:
            return PlainTextResponse(f"no graph view in {self.options.out} (no .html file written there)\n", 404)
        if len(views) == 1 or "graph.html" in views:
            return FileResponse(self.options.out / ("graph.html" if "graph.html" in views else views[0]))
        links = "".join(f'<li><a href="/views/{html.escape(v)}">{html.escape(v)}</a></li>' for v in views)
        return HTMLResponse(
            f"<!doctype html><title>kg graph views</title><h1>Graph views</h1><ul>{links}</ul>"
        )

    async def view(self, request: Request) -> Response:
        name = request.path_params["name"]
        views = {p.name for p in self.options.out.glob("*.html") if p.is_file()}
        if name not in views and f"{name}.html" in views:  # /views/coauthors is /views/coauthors.html
            name = f"{name}.html"
        if name not in views:  # only files listed in OUT, never a path from the request
            return PlainTextResponse(unknown("view", name, sorted(views)) + "\n", 404)
        return FileResponse(self.options.out / name, media_type="text/html")


class _SiteFiles:
    """The files of ``OUT/site`` (``kg site``), read-only; 404 while there is no site.

    Starlette's ``StaticFiles`` serves them (it refuses paths and symlinks that lead out of the
    folder) but fails on a folder that does not exist, which a site written after the server
    started would be.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files = StaticFiles(directory=folder, html=True, check_dir=False)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.folder.is_dir():
            response = PlainTextResponse(f"no site in {self.folder} (run 'kg site' first)\n", status_code=404)
            await response(scope, receive, send)
            return
        await self.files(scope, receive, send)


def _refuse_update() -> Response:
    return PlainTextResponse("updates are refused: this endpoint is read-only\n", status_code=403)


def _closing(message: str, status: int) -> Response:
    """An error that ends the connection (a slow client's body is not waited for any longer)."""
    return PlainTextResponse(message, status_code=status, headers={"Connection": "close"})


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


class _BadRequest(Exception):
    pass


async def _read_body(request: Request, limit: int, seconds: float) -> bytes:
    """The request body: at most ``limit`` bytes, received within ``seconds`` (a slow client is let go)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _TooLarge
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise _TooLarge
                chunks.append(chunk)
    except TimeoutError:
        raise _TooSlow from None
    return b"".join(chunks)


def _utf8(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _BadRequest(f"{what} is not valid UTF-8 (byte {e.start})") from None


def _parameters(data: bytes) -> dict[str, list[str]]:
    """A query string or form body: UTF-8 (raw or percent-encoded) or refused, at most ``MAX_FIELDS`` fields.

    >>> _parameters(b"query=ASK%20%7B%7D&format=csv")
    {'query': ['ASK {}'], 'format': ['csv']}
    """
    if data.count(b"&") >= MAX_FIELDS:  # only '&' separates fields (a query's own ';' may be unescaped)
        raise _BadRequest(f"more than {MAX_FIELDS} parameters")
    try:
        return parse_qs(_utf8(data, "parameters"), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError as e:
        raise _BadRequest(f"a percent-encoded parameter is not valid UTF-8 (byte {e.start})") from None


class _RequestLog:
    """One line per request: client, method, path, status, rows, seconds (an ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            rows = scope.get("state", {}).get("rows")
            client = scope["client"][0] if scope.get("client") else "-"
            log.info(
                '%s "%s %s" %d%s %.3f s',
                client,
                scope["method"],
                scope["path"].encode("unicode_escape").decode("ascii"),
                status,
                f" {rows} rows" if rows is not None else "",
                time.perf_counter() - started,
            )


def _protocol(read_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol with a deadline on receiving each request, headers and body.

    uvicorn bounds only the wait between requests on a kept-alive connection: a client that opens a
    connection and sends nothing, or sends its headers a byte at a time, would hold it for ever.
    Here each request must have arrived whole ``read_timeout`` seconds after the connection opened
    or the previous response ended; the app's own body read gives up a little earlier (with 408).
    """
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    grace = read_timeout + 2.0
    received = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED)

    class Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state in received:
                self._disarm()
            elif self._deadline is None and not self.transport.is_closing():
                # the next request began (uvicorn has just dropped its keep-alive timer)
                self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()
                if self.conn.their_state in received:  # a pipelined request already here
                    self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(grace, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport.is_closing():
                return
            if self.conn.our_state is h11.IDLE and self.conn.their_state is h11.IDLE:
                # nothing answered yet and the request line or headers are not all here
                self.transport.write(_TIMEOUT_RESPONSE)
            self.transport.close()

    return Protocol


_TIMEOUT_BODY = b"request not received in time\n"
_TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
    + f"content-length: {len(_TIMEOUT_BODY)}\r\n\r\n".encode()
    + _TIMEOUT_BODY
)


def serve(options: ServerOptions, host: str = "127.0.0.1", port: int = 7878) -> None:
    """Run the endpoint with uvicorn until interrupted (binds to loopback unless told otherwise)."""
    import uvicorn

    app = create_app(options)
    uvicorn.run(
        app,
        host=host,
        port=port,
        http=_protocol(options.read_timeout),
        h11_max_incomplete_event_size=MAX_HEAD,
        limit_concurrency=options.max_connections,
        timeout_keep_alive=5,
        log_level="warning",
        access_log=False,
    )


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
