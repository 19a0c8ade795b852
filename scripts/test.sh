#!/usr/bin/env bash
# The test command: README shows it and .ci/run calls it. It installs whatever is missing
# (scripts/setup.sh), then runs every check below, going on past a failure so that one run shows
# them all. It exits non-zero if any check failed, and its last line is the summary.
#   TEST_MODE=quick|long  exported to the tests (long seed sweeps read it); default quick.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Where cargo puts what it builds: the tests below find the CLI and the page's unstripped wasm
# there, so a CARGO_TARGET_DIR elsewhere (a worktree, a helper) is honoured.
TARGET="${CARGO_TARGET_DIR:-target}"

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
  # The runner takes the first driver it finds by environment (geckodriver before chromedriver),
  # so each run names exactly one.
  unset GECKODRIVER GECKODRIVER_REMOTE CHROMEDRIVER CHROMEDRIVER_REMOTE SAFARIDRIVER SAFARIDRIVER_REMOTE
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER="$(command -v wasm-bindgen-test-runner)" \
    WASM_BINDGEN_TEST_TIMEOUT=120 "$@" cargo test -p idemlab-web --target wasm32-unknown-unknown --test web
}

browser_tests_chromium() { browser_tests env CHROMEDRIVER=/usr/bin/chromedriver; }

browser_tests_firefox() {
  require_engine firefox || return
  # webdriver.json's moz:firefoxOptions names Firefox ESR and its headless flag.
  browser_tests env GECKODRIVER="$(command -v geckodriver)"
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
  # core's float formatter costs about 8 KB gzipped; every fraction the page prints goes through
  # decimal::Fixed or decimal::Short instead. The unstripped build still names its functions.
  if grep -q flt2dec "$TARGET/wasm32-unknown-unknown/wasm-release/idemlab.wasm"; then
    echo "the page links core's float formatter again: a {} or {:.N} of an f64 in the lib;"
    echo "write it with decimal::Fixed (or decimal::Short) instead"
    return 1
  fi
  # scripts/scorm.py (the post-build hook) writes a SCORM 1.2 package per lesson.
  local zip
  for zip in dist/scorm/idemlab-lesson-{a,b,c}.zip; do
    python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(not {"imsmanifest.xml", "launch.html", "index.html"} <= set(names))' "$zip" \
      || { echo "$zip is missing or lacks imsmanifest.xml, launch.html or index.html"; return 1; }
  done
  echo "dist/: $(basename "$wasm") ($(wc -c <"$wasm") bytes), index.html and 3 SCORM packages"
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

# serve_page: serves dist/ on 127.0.0.1 until the calling check's subshell exits, builds the CLI
# the tests compare the page with, and exports BASE_URL and IDEMLAB_BIN for the tests.
serve_page() {
  case " ${failures[*]} " in *" page "*) echo "the page did not build"; return 1 ;; esac
  mkdir -p target
  rm -f target/e2e-server.url
  python3 scripts/static_server.py dist 0 >target/e2e-server.url 2>target/e2e-server.log &
  # Expanded now on purpose: the trap runs when this check's subshell exits, after the function
  # has returned and its locals are gone.
  # shellcheck disable=SC2064
  trap "kill $! 2>/dev/null || true" EXIT
  for _ in $(seq 100); do [ -s target/e2e-server.url ] && break; sleep 0.1; done
  BASE_URL="$(head -1 target/e2e-server.url)"
  [ -n "$BASE_URL" ] || { echo "the static server did not start:"; cat target/e2e-server.log; return 1; }
  cargo build --release --quiet --bin idemlab
  export BASE_URL IDEMLAB_BIN="$TARGET/release/idemlab"
}

e2e_tests() {
  local tests=""
  [ ! -d tests/e2e ] || tests="$(find tests/e2e -name '*.test.mjs' | sort)"
  [ -n "$tests" ] || { echo "no tests/e2e/*.test.mjs yet"; return "$SKIP"; }
  serve_page
  # shellcheck disable=SC2086 # one argument per test file
  CHROMIUM_PATH=/usr/bin/chromium node --test $tests
}

# --- the database model against PostgreSQL ----------------------------------------------------
# tests/pg/conformance.test.mjs starts a private PostgreSQL 15 cluster in a temporary folder (as
# the postgres user when run as root), replays `idemlab run --sql` for its cases and stops it.
pg_conformance() {
  cargo build --release --quiet --bin idemlab
  IDEMLAB_BIN="$TARGET/release/idemlab" node --test tests/pg/conformance.test.mjs
}

# --- other engines ----------------------------------------------------------------------------
# Debian's Firefox ESR (through geckodriver) and WebKitGTK, Safari's engine family (through
# WebKitWebDriver, drawing into Xvfb). setup.sh installs them where it can. Where one is missing,
# its checks print a line naming what is missing and count as skipped, never as passed; with
# CI=true, where setup.sh must have installed them, they fail instead.
FIREFOX_PATH=/usr/bin/firefox-esr # webdriver.json names it too, for the wasm-bindgen runner
WEBKIT_DRIVER=/usr/bin/WebKitWebDriver
MINIBROWSER_PATH=/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser

engine_missing() { # engine_missing ENGINE: prints what ENGINE lacks here, or nothing
  case "$1" in
    chromium)
      [ -x /usr/bin/chromium ] || echo "/usr/bin/chromium (apt: chromium)"
      [ -x /usr/bin/chromedriver ] || echo "/usr/bin/chromedriver (apt: chromium-driver)" ;;
    firefox)
      [ -x "$FIREFOX_PATH" ] || echo "$FIREFOX_PATH (apt: firefox-esr)"
      command -v geckodriver >/dev/null || echo "geckodriver (cargo install geckodriver)" ;;
    webkit)
      [ -x "$WEBKIT_DRIVER" ] || echo "$WEBKIT_DRIVER (apt: webkit2gtk-driver)"
      [ -x "$MINIBROWSER_PATH" ] || echo "$MINIBROWSER_PATH (apt: webkit2gtk-driver)"
      command -v xvfb-run >/dev/null || echo "xvfb-run (apt: xvfb)" ;;
  esac
}

require_engine() { # require_engine ENGINE: succeeds if it is here; else skips, or fails in CI
  local missing
  missing="$(engine_missing "$1")"
  [ -n "$missing" ] || return 0
  echo "ENGINE MISSING: $1 cannot run here; missing: $(echo "$missing" | paste -sd ';' | sed 's/;/; /g')." \
    "bash scripts/setup.sh (as root) installs it."
  if [ "${CI:-}" = true ]; then echo "CI=true: every engine must run, so this check fails"; return 1; fi
  return "$SKIP"
}

# engine_smoke ENGINE: tests/e2e/engines.smoke.mjs in ENGINE through WebDriver (see that file).
engine_smoke() {
  require_engine "$1" || return
  serve_page
  ENGINE="$1" CHROMEDRIVER=/usr/bin/chromedriver CHROMIUM_PATH=/usr/bin/chromium \
    GECKODRIVER="$(command -v geckodriver || true)" FIREFOX_PATH="$FIREFOX_PATH" \
    WEBKIT_DRIVER="$WEBKIT_DRIVER" MINIBROWSER_PATH="$MINIBROWSER_PATH" \
    node --test tests/e2e/engines.smoke.mjs
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
check clippy cargo clippy --workspace --all-targets -- -D warnings
check clippy-wasm cargo clippy --workspace --target wasm32-unknown-unknown --lib -- -D warnings
check test cargo test --workspace
check browser browser_tests_chromium
check browser-firefox browser_tests_firefox
check page page_build
check e2e e2e_tests
check postgres pg_conformance
check engines-chromium engine_smoke chromium
check engines-firefox engine_smoke firefox
check engines-webkit engine_smoke webkit

echo
[ "$failed" -eq 0 ] || echo "failed checks: ${failures[*]}"
echo "checks: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
