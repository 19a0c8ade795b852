#!/usr/bin/env bash
# The benchmark command (README): native and wasm simulation speed, the browser sweep, timeline
# draw and scrub times, the page's weight, the first paint of the entry links, load times (localhost and emulated slow 4G, with and
# without precompressed files), the longest main-thread task on the heaviest links and the peak
# wasm memory of a 1M-event run, printed as a Markdown table; then the native ratios. It
# reports figures and never fails on a slow machine; it is not part of the tests.
#   BENCH_SEEDS=N  seeds per preset for the events/s figures (default 2000)
#   BENCH_SWEEP_SEEDS=N  seeds of the sweep-scaling figure (default 20000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TARGET="${CARGO_TARGET_DIR:-target}" # where cargo builds (a worktree may set it)
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
. scripts/env.sh
cargo build --release --quiet --bin idemlab
# Two builds: dist/ is the page as it ships; dist-bench/ adds the `bench_*` exports
# (`--features bench`) that time the simulator, the sweep and the drawing from inside the page.
trunk build --release >/dev/null 2>&1 || trunk build --release
trunk build --release --features bench --dist dist-bench >/dev/null 2>&1 \
  || trunk build --release --features bench --dist dist-bench
# The measurements must never ship: the production loader names no bench_ export.
if grep -l 'bench_' dist/*.js; then
  echo "bench.sh: dist/ exports bench_* functions; only the --features bench build may" >&2
  exit 1
fi
mkdir -p target
servers=()
trap 'kill "${servers[@]}" 2>/dev/null || true' EXIT
serve() { # serve NAME ARGS...: scripts/static_server.py ARGS in the background
  rm -f "target/bench-$1.url"
  python3 scripts/static_server.py "${@:2}" 0 >"target/bench-$1.url" 2>"target/bench-$1.log" &
  servers+=("$!")
}
url() { # url NAME: the URL that server printed
  for _ in $(seq 100); do [ -s "target/bench-$1.url" ] && break; sleep 0.1; done
  head -1 "target/bench-$1.url"
}
serve bench dist-bench
serve page dist
serve plain --no-precompressed dist
BASE_URL="$(url bench)" PAGE_URL="$(url page)" PLAIN_URL="$(url plain)" PAGE_DIR=dist \
  CHROMIUM_PATH=/usr/bin/chromium IDEMLAB_BIN="$TARGET/release/idemlab" node tests/e2e/bench.mjs
# The first paint (README, First paint): each entry link's LCP against the wasm's arrival,
# ready after it and CLS, on Slow 4G with the CPU 4x slower, from the precompressed server.
echo
PAGE_URL="$(url page)" CHROMIUM_PATH=/usr/bin/chromium node tests/e2e/firstpaint.mjs
# Lighthouse 12.2.3 on the same links (13 needs Node 22), from its own lock in tools/lighthouse,
# which the test command never installs.
[ -x tools/lighthouse/node_modules/.bin/lighthouse ] \
  || (cd tools/lighthouse && npm ci --no-audit --no-fund --loglevel=error)
echo
PAGE_URL="$(url page)" CHROMIUM_PATH=/usr/bin/chromium node tests/e2e/lighthouse.mjs
# Native figures: the heaviest run the search found (CPU and wall time), `idemlab run`'s whole
# path on it over its simulation and counts, and sweep throughput on one thread against every
# core. (The table above has the simulator's rate over the bare event loop's.)
echo
"$TARGET/release/idemlab" bench --scaling --seeds "${BENCH_SWEEP_SEEDS:-20000}"
