#!/usr/bin/env bash
# Installs everything idemlab needs to build, serve and test on a fresh Debian 12 machine.
# Idempotent: each tool is checked for the exact version first and skipped when it matches,
# so running it twice costs a few seconds. Installers' output goes to target/setup/*.log; on a
# failure the log's tail is printed. For the PATH it sets up, source scripts/env.sh.
#   CARGO_INSTALL_ROOT=DIR  install trunk, wasm-bindgen and geckodriver into DIR/bin instead of
#                           ~/.cargo/bin.
# The other engines (Firefox ESR with geckodriver, WebKitGTK's WebKitWebDriver with xvfb) are
# installed last. Where that fails outside CI, setup goes on and their checks in test.sh skip,
# each with a line naming the missing engine; with CI=true a failure stops setup.
set -euo pipefail

WASM_BINDGEN_VERSION=0.2.130 # must equal the `=0.2.130` pin in Cargo.toml and Cargo.lock
TRUNK_VERSION=0.21.14        # 0.22 needs a newer rustc than this machine has
GECKODRIVER_VERSION=0.37.1   # drives Firefox ESR 153 (Debian's firefox-esr) for the browser tests

# shellcheck source=scripts/env.sh
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
ROOT="$IDEMLAB_ROOT"
LOG_DIR="$ROOT/target/setup"

log() { printf '[setup] %s\n' "$*" >&2; }

# run_logged NAME CMD...: runs CMD with all its output in $LOG_DIR/NAME.log and prints one line;
# on failure it prints the log's last lines instead, so CI shows why without the compile noise.
run_logged() {
  local name=$1 start=$SECONDS rc=0
  shift
  mkdir -p "$LOG_DIR"
  "$@" >"$LOG_DIR/$name.log" 2>&1 </dev/null || rc=$?
  if [ "$rc" -eq 0 ]; then
    log "$name: done in $((SECONDS - start)) s (log: target/setup/$name.log)"
  else
    log "$name: FAILED with exit $rc after $((SECONDS - start)) s; last lines of $LOG_DIR/$name.log:"
    tail -n 40 "$LOG_DIR/$name.log" >&2
    return "$rc"
  fi
}

apt_missing() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  echo "${missing[@]:-}"
}

apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  # The package lists may be missing or stale on a new machine: without them nothing is found.
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "$@"
}

install_apt() {
  local missing
  # brotli: scripts/precompress.py writes the .br copies of the built page with its CLI.
  # postgresql-15: tests/pg/conformance.test.mjs replays the model's statements on it.
  missing="$(apt_missing chromium chromium-driver nodejs npm curl ca-certificates gzip brotli python3 postgresql-15)"
  if [ -z "$missing" ]; then log "apt packages present"; return; fi
  # nodejs/npm may come from elsewhere (for example a preinstalled Node whose npm is not a
  # Debian package); only ask apt for what has no binary.
  local wanted=()
  for pkg in $missing; do
    case "$pkg" in
      nodejs) command -v node >/dev/null || wanted+=(nodejs) ;;
      npm) command -v npm >/dev/null || wanted+=(npm) ;;
      python3) command -v python3 >/dev/null || wanted+=(python3) ;;
      *) wanted+=("$pkg") ;;
    esac
  done
  if [ ${#wanted[@]} -eq 0 ]; then log "apt packages present"; return; fi
  if [ "$(id -u)" -ne 0 ]; then
    log "missing apt packages: ${wanted[*]}; run this script as root (or install them) first"
    exit 1
  fi
  log "apt-get install ${wanted[*]}"
  run_logged apt-install apt_install "${wanted[@]}"
  # The browser tests call these paths directly (CHROMEDRIVER=/usr/bin/chromedriver).
  for bin in /usr/bin/chromium /usr/bin/chromedriver; do
    [ -x "$bin" ] || { log "apt-get succeeded but $bin is missing"; exit 1; }
  done
}

install_rust_parts() {
  if ! command -v rustup >/dev/null; then
    log "rustup is missing: this script expects the machine's rustup-managed toolchain"; exit 1
  fi
  rustup target list --installed | grep -qx wasm32-unknown-unknown \
    || { log "adding wasm32-unknown-unknown"; run_logged rustup-target rustup target add wasm32-unknown-unknown; }
  local comps
  comps="$(rustup component list --installed)"
  for c in rustfmt clippy; do
    echo "$comps" | grep -q "^$c" || { log "adding $c"; run_logged "rustup-$c" rustup component add "$c"; }
  done
}

have_version() { # have_version CMD EXPECTED: true when `CMD --version` mentions EXPECTED
  # grep reads every line (no -q): a -q grep stops at its match, the command then dies of
  # SIGPIPE writing the rest, and under pipefail the check failed and reinstalled the tool
  # (geckodriver's several-line version text did, now and then).
  command -v "$1" >/dev/null && "$1" --version 2>/dev/null | grep -F "$2" >/dev/null
}

# After an install, the copy PATH finds must be the new one; otherwise the build would quietly
# use another version (and Trunk, offline, would refuse it).
check_installed() { # check_installed CMD EXPECTED
  have_version "$1" "$2" && return
  log "$1 $2 was installed into $IDEMLAB_TOOLS_BIN, but PATH finds $(command -v "$1" || echo nothing)"
  exit 1
}

cargo_install_wasm_bindgen() {
  # --locked fails for this version (the registry lacks a pinned transitive dependency); fall
  # back to a fresh resolve.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --force \
    || { echo "[setup] --locked failed; retrying without it"; \
         cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force; }
}

install_wasm_bindgen() {
  if have_version wasm-bindgen "$WASM_BINDGEN_VERSION" && have_version wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION"; then
    log "wasm-bindgen $WASM_BINDGEN_VERSION present"; return
  fi
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 min on 2 cores)"
  run_logged cargo-install-wasm-bindgen-cli cargo_install_wasm_bindgen
  check_installed wasm-bindgen "$WASM_BINDGEN_VERSION"
  check_installed wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION"
}

install_trunk() {
  if have_version trunk "$TRUNK_VERSION"; then log "trunk $TRUNK_VERSION present"; return; fi
  log "cargo install trunk $TRUNK_VERSION (5-11 min on 2 cores)"
  # LTO off and many codegen units roughly halve the build; trunk's own speed is irrelevant here.
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    run_logged cargo-install-trunk cargo install trunk --version "$TRUNK_VERSION" --locked --force
  check_installed trunk "$TRUNK_VERSION"
}

install_npm_tools() {
  if have_version "$ROOT/node_modules/.bin/wasm-opt" "version 132" \
    && [ -f "$ROOT/node_modules/playwright-core/package.json" ] \
    && [ -f "$ROOT/node_modules/@axe-core/playwright/package.json" ] \
    && [ -f "$ROOT/node_modules/pg/package.json" ] \
    && [ -f "$ROOT/node_modules/scorm-again/package.json" ] \
    && [ -f "$ROOT/node_modules/pdfjs-dist/package.json" ]; then
    log "npm tools present"; return
  fi
  log "npm ci (binaryen 132, playwright-core, axe-core, pg, scorm-again, pdfjs-dist)"
  # npm ci installs exactly package-lock.json; the browser comes from apt, never from npm.
  (cd "$ROOT" && run_logged npm-ci npm ci --no-audit --no-fund --loglevel=error)
  check_installed wasm-opt "version 132"
}

# The engines beyond Chromium. Their own failure must not block everything else on a machine
# where, say, apt has no WebKit; test.sh then skips their checks with a line saying so. In CI the
# checks must run, so there any failure here is fatal.
engine_failed() { # engine_failed WHAT
  if [ "${CI:-}" = true ]; then log "$1 (CI=true: the other engines are required)"; exit 1; fi
  log "$1; going on without it: test.sh will skip that engine's checks and say so"
}

install_engine_packages() {
  local missing
  missing="$(apt_missing firefox-esr webkit2gtk-driver xvfb)"
  if [ -z "$missing" ]; then log "engine packages present"; return; fi
  if [ "$(id -u)" -ne 0 ]; then
    engine_failed "missing apt packages: $missing; run this script as root (or install them)"
    return
  fi
  log "apt-get install $missing"
  # shellcheck disable=SC2086 # one argument per package
  run_logged apt-install-engines apt_install $missing \
    || { engine_failed "apt-get install $missing failed"; return; }
  # test.sh calls these paths directly.
  for bin in /usr/bin/firefox-esr /usr/bin/WebKitWebDriver /usr/bin/xvfb-run; do
    [ -x "$bin" ] || engine_failed "apt-get succeeded but $bin is missing"
  done
}

cargo_install_geckodriver() {
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --locked --force \
    || { echo "[setup] --locked failed; retrying without it"; \
         cargo install geckodriver --version "$GECKODRIVER_VERSION" --force; }
}

install_geckodriver() {
  if have_version geckodriver "$GECKODRIVER_VERSION"; then
    log "geckodriver $GECKODRIVER_VERSION present"; return
  fi
  # The npm package of that name downloads from GitHub, which this machine cannot reach.
  log "cargo install geckodriver $GECKODRIVER_VERSION (1.5-3 min on 2 cores)"
  run_logged cargo-install-geckodriver cargo_install_geckodriver \
    || { engine_failed "cargo install geckodriver $GECKODRIVER_VERSION failed"; return; }
  check_installed geckodriver "$GECKODRIVER_VERSION"
}

# One line naming each engine's version, or saying it is missing.
engine_versions() {
  local firefox=missing gecko=missing webkit=missing
  command -v firefox-esr >/dev/null && firefox="$(firefox-esr --version 2>/dev/null)"
  command -v geckodriver >/dev/null && gecko="$(geckodriver --version 2>/dev/null | head -1)"
  [ -n "$(apt_missing webkit2gtk-driver)" ] || webkit="$(dpkg-query -W -f='${Version}' webkit2gtk-driver)"
  echo "Firefox: $firefox; geckodriver: $gecko; WebKitGTK: $webkit"
}

main() {
  local start=$SECONDS
  install_apt
  install_rust_parts
  install_npm_tools
  # One cargo install at a time: on 2 cores, two in parallel are slower than one after the other.
  install_wasm_bindgen
  install_trunk
  install_engine_packages
  install_geckodriver
  log "other engines: $(engine_versions)"
  log "ready in $((SECONDS - start)) s: $(wasm-bindgen --version), $(trunk --version)," \
    "$(wasm-opt --version | head -1), $(chromium --version 2>/dev/null | head -1)"
}

main "$@"
