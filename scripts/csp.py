#!/usr/bin/env python3
"""Trunk post-build hook: gives the built page a Content-Security-Policy.

Trunk writes its wasm loader as an inline <script type="module">, whose text (file names with
content hashes) changes with every build. This hook hashes that exact text and inserts a <meta>
CSP that allows it by hash and nothing else inline, plus 'wasm-unsafe-eval' for WebAssembly.
Styles come only from the stylesheet: the page sets styles through the CSSOM, which CSP allows.
It edits index.html in TRUNK_STAGING_DIR (or the directory given) and fails if the page has
other inline scripts, so a new one cannot slip past the policy unnoticed.
"""

import base64
import hashlib
import os
import re
import sys

POLICY = (
    "default-src 'self'; "
    "script-src 'self' {hashes} 'wasm-unsafe-eval'; "
    "style-src 'self'; "
    "img-src 'self' data: blob:; "
    "connect-src 'self'; "
    "object-src 'none'; "
    "base-uri 'self'; "
    "form-action 'none'"
)


def main() -> None:
    directory = sys.argv[1] if len(sys.argv) > 1 else os.environ["TRUNK_STAGING_DIR"]
    path = os.path.join(directory, "index.html")
    with open(path, encoding="utf-8") as file:
        html = file.read()
    scripts = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
    if len(scripts) != 1:
        sys.exit(f"csp.py: expected exactly Trunk's one inline loader script, found {len(scripts)}")
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode("utf-8")).digest()).decode()
    policy = POLICY.format(hashes="'sha256-" + digest + "'")
    meta = '<meta http-equiv="Content-Security-Policy" content="' + policy + '" />'
    if "Content-Security-Policy" in html:
        sys.exit("csp.py: index.html already has a CSP")
    # The policy must come before anything it governs: right after <meta charset>.
    html = html.replace('<meta charset="utf-8" />', '<meta charset="utf-8" />\n    ' + meta, 1)
    if meta not in html:
        sys.exit('csp.py: index.html has no <meta charset="utf-8" /> to put the policy after')
    with open(path, "w", encoding="utf-8") as file:
        file.write(html)


if __name__ == "__main__":
    main()
