#!/usr/bin/env bash
# The benchmark command (README): native and wasm simulation speed, the browser sweep, timeline
# draw and scrub times, the page's gzipped bytes and load to interactive, printed as a Markdown
# table. It reports figures and never fails on a slow machine; it is not part of the tests.
#   BENCH_SEEDS=N  seeds per preset for the events/s figures (default 2000)
#   BENCH_SWEEP_SEEDS=N  seeds of the sweep-scaling figure (default 20000)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
. scripts/env.sh
cargo build --release --quiet --bin idemlab
trunk build --release >/dev/null 2>&1 || trunk build --release
mkdir -p target
python3 scripts/static_server.py dist 0 >target/bench-server.url 2>target/bench-server.log &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -s target/bench-server.url ] && break; sleep 0.1; done
BASE_URL="$(head -1 target/bench-server.url)" CHROMIUM_PATH=/usr/bin/chromium \
  IDEMLAB_BIN=target/release/idemlab node tests/e2e/bench.mjs
# Native figures (issue 10): the heaviest run the search found (CPU and wall time), and sweep
# throughput on one thread against every core.
echo
target/release/idemlab bench --scaling --seeds "${BENCH_SWEEP_SEEDS:-20000}"
