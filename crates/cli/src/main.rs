//! The `idemlab` command line: run a scenario, sweep seeds, or benchmark the simulator.

mod bare;
mod cli;
mod parallel;

fn main() -> std::process::ExitCode {
    cli::main()
}
