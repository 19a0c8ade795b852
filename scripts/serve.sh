#!/usr/bin/env bash
# Builds the page and serves it on http://127.0.0.1:$PORT/ (PORT defaults to 8080) until Ctrl-C.
# It serves the release build in dist/ as it is, the same files the tests check.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
PORT="${PORT:-8080}"

bash scripts/setup.sh
# shellcheck source=scripts/env.sh
. scripts/env.sh # npm's wasm-opt and the pinned trunk/wasm-bindgen first on PATH
trunk build --release
# Not `trunk serve`: that rebuilds on every change and injects its live-reload script.
exec python3 scripts/static_server.py dist "$PORT"
