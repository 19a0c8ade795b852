#!/usr/bin/env python3
"""Serves a directory on 127.0.0.1 only (the machine's network allows nothing else).

Usage: static_server.py DIR [PORT]    PORT defaults to 8080; 0 picks a free port.
The first line printed is the URL, so a script can start it in the background and read it.
.wasm goes out as application/wasm, which WebAssembly.instantiateStreaming requires; Python's
guess depends on the machine's mime.types, so it is set here.
"""

import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    directory = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) == 3 else 8080
    handler = functools.partial(Handler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
