#!/usr/bin/env bash
# Installs everything idemlab needs to build, serve and test on a fresh Debian 12 machine.
# Idempotent: each tool is checked for the exact version first and skipped when it matches,
# so running it twice costs a few seconds. Source it (`. scripts/setup.sh`) to get PATH too.
set -euo pipefail

WASM_BINDGEN_VERSION=0.2.130 # must equal the `=0.2.130` pin in Cargo.toml and Cargo.lock
TRUNK_VERSION=0.21.14        # 0.22 needs a newer rustc than this machine has
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

log() { printf '[setup] %s\n' "$*" >&2; }

path_setup() {
  # npm's binaryen must win over any Debian wasm-opt (108), which silently corrupts the output.
  export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
}

apt_missing() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  echo "${missing[@]:-}"
}

install_apt() {
  local missing
  missing="$(apt_missing chromium chromium-driver nodejs npm curl ca-certificates gzip python3)"
  if [ -z "$missing" ]; then log "apt packages present"; return; fi
  # nodejs/npm may come from elsewhere (for example a preinstalled Node); only ask apt for what has no binary.
  local wanted=()
  for pkg in $missing; do
    case "$pkg" in
      nodejs) command -v node >/dev/null || wanted+=(nodejs) ;;
      npm) command -v npm >/dev/null || wanted+=(npm) ;;
      python3) command -v python3 >/dev/null || wanted+=(python3) ;;
      *) wanted+=("$pkg") ;;
    esac
  done
  [ ${#wanted[@]} -eq 0 ] && { log "apt packages present"; return; }
  log "apt-get install ${wanted[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null
}

install_rust_parts() {
  if ! command -v rustup >/dev/null; then
    log "rustup is missing: this script expects the machine's rustup-managed toolchain"; exit 1
  fi
  rustup target list --installed | grep -qx wasm32-unknown-unknown \
    || { log "adding wasm32-unknown-unknown"; rustup target add wasm32-unknown-unknown; }
  local comps
  comps="$(rustup component list --installed)"
  for c in rustfmt clippy; do
    echo "$comps" | grep -q "^$c" || { log "adding $c"; rustup component add "$c"; }
  done
}

have_version() { # have_version CMD EXPECTED: true when `CMD --version` mentions EXPECTED
  command -v "$1" >/dev/null && "$1" --version 2>/dev/null | grep -qF "$2"
}

install_wasm_bindgen() {
  if have_version wasm-bindgen "$WASM_BINDGEN_VERSION" && have_version wasm-bindgen-test-runner "$WASM_BINDGEN_VERSION"; then
    log "wasm-bindgen $WASM_BINDGEN_VERSION present"; return
  fi
  log "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 min on 2 cores)"
  # --locked fails for this version (a yanked transitive dependency); fall back to a fresh resolve.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked --force \
    || cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
}

install_trunk() {
  if have_version trunk "$TRUNK_VERSION"; then log "trunk $TRUNK_VERSION present"; return; fi
  log "cargo install trunk $TRUNK_VERSION (5-11 min on 2 cores)"
  # LTO off and many codegen units roughly halve the build; trunk's own speed is irrelevant here.
  CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install trunk --version "$TRUNK_VERSION" --locked --force
}

install_npm_tools() {
  if have_version "$ROOT/node_modules/.bin/wasm-opt" "version 132" \
    && [ -f "$ROOT/node_modules/playwright-core/package.json" ] \
    && [ -f "$ROOT/node_modules/@axe-core/playwright/package.json" ]; then
    log "npm tools present"; return
  fi
  log "npm ci (binaryen 132, playwright-core, axe-core)"
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error)
}

main() {
  path_setup
  install_apt
  install_rust_parts
  install_npm_tools
  install_wasm_bindgen
  install_trunk
  log "ready: $(wasm-bindgen --version), $(trunk --version), $(wasm-opt --version | head -1)"
}

main "$@"
