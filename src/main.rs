//! The `idemlab` command line: run a scenario, sweep seeds, or benchmark the simulator.

#[cfg(not(target_arch = "wasm32"))]
mod cli;
#[cfg(not(target_arch = "wasm32"))]
mod parallel;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main()
}

// The page is the library's cdylib; this binary has nothing to do in a browser.
#[cfg(target_arch = "wasm32")]
fn main() {}
