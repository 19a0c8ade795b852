# shellcheck shell=bash
# Sourced (never run) by setup.sh, test.sh and serve.sh, or by hand (`. scripts/env.sh`): the one
# place that decides which tools win on PATH. It only sets variables, so an interactive shell
# can source it safely.

IDEMLAB_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# Where `cargo install` puts binaries, by cargo's own rule: CARGO_INSTALL_ROOT, else CARGO_HOME,
# else ~/.cargo. Setting CARGO_INSTALL_ROOT gives an empty tools dir (used to prove a fresh setup).
IDEMLAB_TOOLS_BIN="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin"

# npm's binaryen (wasm-opt 132) must come first: Trunk takes the first wasm-opt on PATH, and
# Debian's (108) silently corrupts wasm-bindgen 0.2.130 output. The pinned trunk and wasm-bindgen
# come next, ahead of any other copies.
export PATH="$IDEMLAB_ROOT/node_modules/.bin:$IDEMLAB_TOOLS_BIN:$PATH"

# cargo itself (rustup's proxies) lives in ~/.cargo/bin. When the tools go elsewhere and PATH
# lacks cargo, add that dir last, so that its own trunk or wasm-bindgen never shadow the tools dir.
command -v cargo >/dev/null || export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
