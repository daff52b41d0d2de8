"""`kiln report DIR`: serve a compile trace (see kiln.tools.trace) on localhost to read in a browser."""
import argparse
import functools
import http.server
import os


def serve(root: str, port: int = 0):
    """Serve root on 127.0.0.1 until interrupted; port 0 picks a free port. Prints the address."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"kiln report: serving {root} at http://127.0.0.1:{server.server_port}/ (Ctrl-C stops)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def main_report(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kiln report", description="Serve a kiln compile trace on localhost.")
    parser.add_argument("dir", help="the trace directory (KILN_TRACE, or options={'trace': DIR})")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (default: a free one)")
    args = parser.parse_args(argv)
    if not os.path.isfile(os.path.join(args.dir, "index.html")):
        parser.error(f"{args.dir} holds no trace (no index.html); compile with KILN_TRACE={args.dir} first")
    serve(args.dir, args.port)
    return 0
