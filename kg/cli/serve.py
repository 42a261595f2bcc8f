"""``kg serve``: a read-only SPARQL 1.1 endpoint over a built graph (needs the ``serve`` extra)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from kg.cli.app import app, err
from kg.errors import KgError, UsageError


@app.command()
def serve(
    out: Annotated[Path, typer.Option("--out", "-o", help="Build folder whose store/ is served.")] = Path(
        "outputs"
    ),
    host: Annotated[
        str, typer.Option(help="Address to bind (loopback unless told otherwise).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=0, max=65535)] = 7878,
    timeout: Annotated[float, typer.Option(help="Seconds a query may run.", min=0.01)] = 10.0,
    max_rows: Annotated[int, typer.Option(help="Rows returned at most (more are cut).", min=1)] = 10_000,
    workers: Annotated[int, typer.Option(help="Queries run at once (one process each).", min=1)] = 2,
    queue_timeout: Annotated[
        float, typer.Option(help="Seconds a request may wait for a free worker (then 503).", min=0.01)
    ] = 30.0,
    max_queue: Annotated[
        int, typer.Option(help="Requests waiting for a worker at most (more get 503).", min=1)
    ] = 200,
    read_timeout: Annotated[
        float, typer.Option(help="Seconds a client has to send its whole request.", min=0.1)
    ] = 10.0,
    max_connections: Annotated[
        int, typer.Option(help="Connections served at once (requests on more get 503).", min=1)
    ] = 500,
) -> None:
    """Serve the graph at http://HOST:PORT/query and /sparql (SPARQL 1.1 Protocol) with a query page at /,
    and the site kg site wrote in OUT/site at /site/.

    Example: kg serve --out outputs --port 7878
    """
    try:
        from kg.server import ServerOptions
        from kg.server import serve as run
    except ImportError as e:
        from kg.extras import install_command

        raise UsageError(
            f"kg serve needs the serve extra: {install_command('serve')} ({e})", code="missing-extra"
        ) from e
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    options = ServerOptions(
        out=out,
        timeout=timeout,
        max_rows=max_rows,
        workers=workers,
        queue_timeout=queue_timeout,
        max_queue=max_queue,
        read_timeout=read_timeout,
        max_connections=max_connections,
    )
    try:  # the store and the port first: one line and exit 1, not a URL and then uvicorn's error
        from kg.store import open_store

        store = open_store(out)  # no-store or bad-store, said before any URL is printed
        del store
        check_port(host, port)
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(1) from e
    err.print(f"kg serve: {out}/store at http://{host}:{port}/query (and /sparql; Ctrl-C stops)", markup=False)
    try:
        run(options, host=host, port=port)
    except KgError as e:
        err.print(str(e), markup=False)
        raise typer.Exit(1) from e


def check_port(host: str, port: int) -> None:
    """Raise ``KgError`` (``port-in-use``) when ``host:port`` cannot be listened on (another server
    holds it), as uvicorn would find only after the URL was printed, with exit code 3."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (OSError, IndexError) as e:
        raise KgError(
            f"cannot listen on {host}:{port}: {getattr(e, 'strerror', None) or e} (expected a local address)",
            code="bad-host",
        ) from e
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            s.bind(address)
        except OSError as e:
            raise KgError(
                f"cannot listen on {host}:{port}: {e.strerror or e} (expected a free port; choose another with --port)",
                code="port-in-use",
            ) from e
