#!/usr/bin/env python3
"""Serves a directory on 127.0.0.1 only (the machine's network allows nothing else).

Usage: static_server.py [--no-precompressed] DIR [PORT]    PORT defaults to 8080; 0 picks a
free port. The first line printed is the URL, so a script can start it in the background and
read it.
.wasm goes out as application/wasm, which WebAssembly.instantiateStreaming requires; Python's
guess depends on the machine's mime.types, so it is set here.
When a request accepts br or gzip and the file has a .br or .gz copy beside it (scripts/
precompress.py writes them at build time), the copy goes out with its Content-Encoding, the
original's Content-Type and `Vary: Accept-Encoding`, as a host with precompressed files would
serve it. `--no-precompressed` serves the originals only (the benchmark's uncompressed host).
"""

import functools
import http.server
import os
import sys

# Preferred first: brotli files are smaller.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def accepted(header: str) -> set:
    """The codings an Accept-Encoding header allows (q=0 refuses one)."""
    codings = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        refused = params.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000")
        if name and not refused:
            codings.add(name.strip().lower())
    return codings


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
    }
    precompressed = True

    def end_headers(self):
        # A frame sandboxed without allow-same-origin has an opaque origin (`Origin: null`): its
        # module script and wasm are CORS fetches, refused without this header. Public files only.
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            index = os.path.join(path, "index.html")
            if not self.path.split("?", 1)[0].endswith("/") or not os.path.isfile(index):
                return super().send_head()
            path = index
        if not self.precompressed or not os.path.isfile(path):
            return super().send_head()
        codings = accepted(self.headers.get("Accept-Encoding", ""))
        for coding, suffix in ENCODINGS:
            if coding in codings and os.path.isfile(path + suffix):
                return self.send_encoded(path, path + suffix, coding)
        return self.send_plain(path)

    def send_encoded(self, original: str, copy: str, coding: str):
        file = open(copy, "rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(original))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(os.fstat(file.fileno()).st_size))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return file

    def send_plain(self, path: str):
        # A file that has compressed copies varies by Accept-Encoding even when sent as is, so
        # that a cache never hands this response to a client that asked for br.
        file = open(path, "rb")
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Length", str(os.fstat(file.fileno()).st_size))
        if any(os.path.isfile(path + suffix) for _, suffix in ENCODINGS):
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return file


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--no-precompressed"]:
        Handler.precompressed = False
        args = args[1:]
    if len(args) not in (1, 2):
        sys.exit(__doc__)
    directory = args[0]
    port = int(args[1]) if len(args) == 2 else 8080
    handler = functools.partial(Handler, directory=directory)
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
