#!/usr/bin/env python3
"""Trunk post-build hook: writes a .gz and a .br copy next to every text and wasm file of the page.

Hosts that serve precompressed files (nginx `gzip_static`/`brotli_static`, Caddy's
`file_server { precompressed }`, scripts/static_server.py) then send the smallest copy the
browser accepts without compressing on every request, and at the highest level, which a host
compressing on the fly rarely uses. It runs after csp.py, which edits index.html, so the copies
match the final page. It edits TRUNK_STAGING_DIR (or the directory given); brotli comes from
Debian's `brotli` command (scripts/setup.sh installs it).
"""

import gzip
import os
import shutil
import subprocess
import sys

# Files worth compressing: the rest (images, already-compressed data) would not shrink.
SUFFIXES = (".html", ".js", ".wasm", ".css", ".svg", ".json", ".txt")


def compress(path: str, brotli: str) -> None:
    with open(path, "rb") as file:
        raw = file.read()
    # mtime=0: the same input gives the same bytes, so two builds can be compared.
    with open(path + ".gz", "wb") as file:
        file.write(gzip.compress(raw, compresslevel=9, mtime=0))
    subprocess.run([brotli, "--best", "--force", "--output=" + path + ".br", path], check=True)


def main() -> None:
    directory = sys.argv[1] if len(sys.argv) > 1 else os.environ["TRUNK_STAGING_DIR"]
    brotli = shutil.which("brotli")
    if brotli is None:
        sys.exit("precompress.py: the `brotli` command is missing; run scripts/setup.sh")
    for root, _, names in os.walk(directory):
        for name in sorted(names):
            if name.endswith(SUFFIXES):
                compress(os.path.join(root, name), brotli)


if __name__ == "__main__":
    main()
