#!/usr/bin/env bash
# The test command: README shows it and .ci/run calls it. It installs whatever is missing
# (scripts/setup.sh), then runs every check below, going on past a failure so that one run shows
# them all. It exits non-zero if any check failed, and its last line is the summary.
#   TEST_MODE=quick|long  exported to the tests (long seed sweeps read it); default quick.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export TEST_MODE="${TEST_MODE:-quick}"
case "$TEST_MODE" in
  quick | long) ;;
  *) echo "TEST_MODE must be quick or long, not '$TEST_MODE'" >&2; exit 2 ;;
esac

SKIP=77 # a check function returns this to count as skipped rather than passed or failed

# --- the checks -------------------------------------------------------------------------------
# Each runs in a subshell with `set -e` (see check below): any failing command fails it.

browser_tests() {
  # rustup's cargo proxy puts ~/.cargo/bin first on PATH for whatever cargo runs, so the runner
  # named in .cargo/config.toml could resolve to another copy; pin the one setup.sh checked.
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$(command -v wasm-bindgen-test-runner)" \
    CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=120 \
    cargo test --target wasm32-unknown-unknown --test web
}

page_build() {
  trunk build --release
  # Trunk can succeed with a page that cannot start; check what the browser will load is there.
  local wasm
  wasm="$(find dist -maxdepth 1 -name '*.wasm' | head -1)"
  [ -n "$wasm" ] || { echo "dist/ has no .wasm"; return 1; }
  [ "$(head -c 4 "$wasm" | od -An -tx1 | tr -d ' \n')" = 0061736d ] \
    || { echo "$wasm is not WebAssembly"; return 1; }
  grep -qF "$(basename "$wasm")" dist/index.html \
    || { echo "dist/index.html does not load $(basename "$wasm")"; return 1; }
  grep -qF 'id="runs"' dist/index.html \
    || { echo "dist/index.html is not the page (no #runs)"; return 1; }
  echo "dist/: $(basename "$wasm") ($(wc -c <"$wasm") bytes) and index.html"
}

# --- end-to-end tests -------------------------------------------------------------------------
# Playwright tests (tests/e2e/*.test.mjs) run under node's test runner against the release build
# in dist/ (built by the `page` check), served on 127.0.0.1. Each test gets:
#   BASE_URL       http://127.0.0.1:PORT/, serving dist/
#   CHROMIUM_PATH  /usr/bin/chromium: launch playwright-core with executablePath: CHROMIUM_PATH
#                  and the flags in webdriver.json (Playwright cannot download its own browser)
#   IDEMLAB_BIN    the native CLI, to compare the page's counts with `idemlab run`
# The page sets <html data-state="ready"> once mounted: the tests wait for that. Screenshots go
# to test-results/.
e2e_tests() {
  local tests=""
  [ ! -d tests/e2e ] || tests="$(find tests/e2e -name '*.test.mjs' | sort)"
  [ -n "$tests" ] || { echo "no tests/e2e/*.test.mjs yet"; return "$SKIP"; }
  case " ${failures[*]} " in *" page "*) echo "the page did not build"; return 1 ;; esac
  mkdir -p target
  python3 scripts/static_server.py dist 0 >target/e2e-server.url 2>target/e2e-server.log &
  # Expanded now on purpose: the trap runs when this check's subshell exits, after the function
  # has returned and its locals are gone.
  # shellcheck disable=SC2064
  trap "kill $! 2>/dev/null || true" EXIT
  for _ in $(seq 100); do [ -s target/e2e-server.url ] && break; sleep 0.1; done
  local url
  url="$(head -1 target/e2e-server.url)"
  [ -n "$url" ] || { echo "the static server did not start:"; cat target/e2e-server.log; return 1; }
  # The tests compare the page's counts with `idemlab run` on the same URL.
  cargo build --release --quiet --bin idemlab
  # shellcheck disable=SC2086 # one argument per test file
  BASE_URL="$url" CHROMIUM_PATH=/usr/bin/chromium IDEMLAB_BIN=target/release/idemlab node --test $tests
}

passed=0 failed=0 skipped=0 failures=()

# check NAME CMD...: runs CMD in a subshell with `set -e` and counts the result. (Bash ignores
# `set -e` inside a function called from `if`, `||` or `&&`, hence set +e around a plain call.)
check() {
  local name=$1 start=$SECONDS rc
  shift
  echo "=== $name: $*"
  set +e
  (
    set -e
    "$@"
  )
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then
    passed=$((passed + 1)); echo "--- ok: $name ($((SECONDS - start)) s)"
  elif [ "$rc" -eq "$SKIP" ]; then
    skipped=$((skipped + 1)); echo "--- skipped: $name"
  else
    failed=$((failed + 1)); failures+=("$name"); echo "--- FAILED: $name (exit $rc, $((SECONDS - start)) s)"
  fi
}

echo "=== setup (TEST_MODE=$TEST_MODE)"
# Nothing below can run without the tools, so a failed setup stops the run here.
bash scripts/setup.sh
# shellcheck source=scripts/env.sh
. scripts/env.sh # npm's wasm-opt and the pinned trunk/wasm-bindgen first on PATH

check fmt cargo fmt --check
check clippy cargo clippy --all-targets -- -D warnings
check clippy-wasm cargo clippy --target wasm32-unknown-unknown --lib -- -D warnings
check test cargo test
check browser browser_tests
check page page_build
check e2e e2e_tests

echo
[ "$failed" -eq 0 ] || echo "failed checks: ${failures[*]}"
echo "checks: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
