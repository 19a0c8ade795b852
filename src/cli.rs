//! The command line: `run`, `svg`, `sweep`, `bench`, `keys`, `presets`. It only parses arguments,
//! calls the library and prints; every rule about scenarios lives in the codec.

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use idemlab::scenario::{codec, presets::PRESETS, Scenario};
use idemlab::sweep::Sweep;
use idemlab::{Metrics, Trace};
use serde::Serialize;

/// A run of about 100,000 events: the size the page's timeline budget is set for.
pub const LARGE_QUERY: &str =
    "seed=1&preset=lost-ack&orders=5000&partition=none&events_max=1000000";

/// The heaviest corner of the bounds we know: every key at the end that makes the most work,
/// stopped by the largest event cap. It must finish in well under a second.
pub const WORST_QUERY: &str = "seed=1&orders=10000&clients=16&retries=20&timeout_ms=1&backoff_ms=0&loss_req=0.5&loss_resp=0.5&dedup=atomic&rerun_ms=0&provider_ms=0..60000&events_max=1000000";

/// Sweeps stop at this many seeds so that a typo cannot start a week-long run.
const SWEEP_SEEDS_MAX: u64 = 100_000_000;

#[derive(Parser)]
#[command(
    name = "idemlab",
    version,
    about = "Retries, duplicates and idempotency keys, simulated deterministically."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one scenario and print its counts as JSON.
    Run {
        /// A query string (`seed=7&preset=race`), the same with a leading `?`, or a page URL.
        #[arg(default_value = "")]
        query: String,
        /// Add the whole trace to the JSON.
        #[arg(long, conflicts_with = "text")]
        trace: bool,
        /// Print the readable trace instead of JSON.
        #[arg(long)]
        text: bool,
    },
    /// Draw run A of a page URL as the page's SVG export does (same file), on stdout.
    Svg {
        /// A query or a whole page URL; `zoom=T0..T1` (µs) is honoured as on the page.
        #[arg(default_value = "")]
        query: String,
    },
    /// Run many seeds of one scenario and print totals as JSON; progress goes to stderr.
    Sweep {
        #[arg(default_value = "")]
        query: String,
        /// Seeds to run: `A..B` (B excluded) or `A..=B`.
        #[arg(long, default_value = "0..1000")]
        seeds: String,
        /// No progress on stderr.
        #[arg(long)]
        quiet: bool,
    },
    /// Measure simulated events per second over the presets.
    Bench {
        /// Seeds per preset.
        #[arg(long, default_value_t = 2_000)]
        seeds: u64,
    },
    /// List the scenario keys with what they allow.
    Keys {
        /// Print the Markdown table that README embeds.
        #[arg(long)]
        markdown: bool,
    },
    /// List the presets with what they set.
    Presets {
        /// Print the Markdown table that README embeds.
        #[arg(long)]
        markdown: bool,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run { query, trace, text } => run(&query, trace, text),
        Command::Svg { query } => svg(&query),
        Command::Sweep {
            query,
            seeds,
            quiet,
        } => sweep(&query, &seeds, quiet),
        Command::Bench { seeds } => bench(seeds),
        Command::Keys { markdown: true } => {
            print!("{}", codec::markdown_table());
            Ok(())
        }
        Command::Keys { markdown: false } => keys(),
        Command::Presets { markdown: true } => {
            print!("{}", idemlab::scenario::presets::markdown_table());
            Ok(())
        }
        Command::Presets { markdown: false } => presets(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("idemlab: {message}");
            ExitCode::from(2)
        }
    }
}

fn decode(query: &str) -> Result<Scenario, String> {
    codec::decode(query)
        .map(|decoded| decoded.scenario)
        .map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            lines.join("\nidemlab: ")
        })
}

/// What `run` prints: the metrics with the scenario, its seed and the trace digest.
#[derive(Serialize)]
struct RunReport<'a> {
    scenario: &'a str,
    seed: u64,
    #[serde(flatten)]
    metrics: &'a Metrics,
    digest: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<&'a Trace>,
}

fn run(query: &str, with_trace: bool, text: bool) -> Result<(), String> {
    let scenario = decode(query)?;
    let (trace, metrics) = idemlab::run(&scenario);
    if text {
        print!("{}", trace.text());
        return Ok(());
    }
    let report = RunReport {
        scenario: &trace.query(),
        seed: trace.seed,
        metrics: &metrics,
        digest: trace.digest(),
        trace: with_trace.then_some(&trace),
    };
    print_json(&report)
}

/// The page's export for the same URL: its scenario's run, over its `zoom=` window if any.
fn svg(query: &str) -> Result<(), String> {
    let scenario = decode(query)?;
    let (page, errors) = idemlab::page::PageState::from_query(query);
    if let Some(error) = errors.iter().find(|error| error.key == "zoom") {
        return Err(error.to_string());
    }
    let trace = idemlab::sim::run(&scenario);
    let timeline = idemlab::view::layout(&trace);
    print!(
        "{}",
        idemlab::view::export(&timeline, &trace.query(), page.zoom)
    );
    Ok(())
}

fn print_json(value: &impl Serialize) -> Result<(), String> {
    let json = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    println!("{json}");
    Ok(())
}

/// Parses `A..B` or `A..=B` into (first, count).
fn parse_seeds(text: &str) -> Result<(u64, u64), String> {
    let bad = || {
        format!("--seeds {text:?}: expected A..B or A..=B with whole numbers, A <= B, at most {SWEEP_SEEDS_MAX} seeds")
    };
    let (a, b, inclusive) = match text.split_once("..=") {
        Some((a, b)) => (a, b, true),
        None => text
            .split_once("..")
            .map(|(a, b)| (a, b, false))
            .ok_or_else(bad)?,
    };
    let first: u64 = a.parse().map_err(|_| bad())?;
    let last: u64 = b.parse().map_err(|_| bad())?;
    let end = if inclusive {
        last.checked_add(1).ok_or_else(bad)?
    } else {
        last
    };
    let count = end.checked_sub(first).ok_or_else(bad)?;
    if count == 0 || count > SWEEP_SEEDS_MAX {
        return Err(bad());
    }
    Ok((first, count))
}

fn sweep(query: &str, seeds: &str, quiet: bool) -> Result<(), String> {
    let mut scenario = decode(query)?;
    let (first, count) = parse_seeds(seeds)?;
    let mut totals = Sweep::default();
    let step = (count / 20).max(1);
    for (done, seed) in (first..first + count).enumerate() {
        scenario.seed = seed;
        totals.add(&idemlab::run(&scenario).1);
        let done = done as u64 + 1;
        if !quiet && (done.is_multiple_of(step) || done == count) {
            eprintln!("sweep: {done}/{count} seeds");
        }
    }
    scenario.seed = first;
    print_json(&totals.summary(&scenario, seeds))
}

#[allow(clippy::disallowed_types)] // the benchmark is the one place that reads a clock
fn bench(seeds: u64) -> Result<(), String> {
    if seeds == 0 || seeds > 1_000_000 {
        return Err(format!("--seeds {seeds}: allowed 1..=1000000"));
    }
    println!(
        "{:<18} {:>8} {:>12} {:>10} {:>14}",
        "preset", "seeds", "events", "seconds", "events/s"
    );
    let (mut events_all, mut secs_all) = (0u64, 0f64);
    for spec in PRESETS.iter() {
        let mut scenario = codec::decode(&format!("preset={}", spec.name))
            .expect("presets decode")
            .scenario;
        let started = std::time::Instant::now();
        let mut events = 0u64;
        for seed in 0..seeds {
            scenario.seed = seed;
            events += idemlab::sim::run(&scenario).events.len() as u64;
        }
        let secs = started.elapsed().as_secs_f64();
        events_all += events;
        secs_all += secs;
        println!(
            "{:<18} {:>8} {:>12} {:>10.3} {:>14.0}",
            spec.name,
            seeds,
            events,
            secs,
            events as f64 / secs
        );
    }
    println!(
        "{:<18} {:>8} {:>12} {:>10.3} {:>14.0}",
        "all presets",
        seeds * PRESETS.len() as u64,
        events_all,
        secs_all,
        events_all as f64 / secs_all
    );
    // One long run, the size the page must stay responsive at; and the heaviest corner of
    // the bounds, which must finish in well under a second.
    time_one_run("large (1 run)", LARGE_QUERY);
    time_one_run("worst in bounds", WORST_QUERY);
    std::io::stdout().flush().map_err(|e| e.to_string())
}

#[allow(clippy::disallowed_types)] // the benchmark is the one place that reads a clock
fn time_one_run(label: &str, query: &str) {
    let scenario = codec::decode(query)
        .expect("benchmark queries decode")
        .scenario;
    let started = std::time::Instant::now();
    let events = idemlab::sim::run(&scenario).events.len() as u64;
    let secs = started.elapsed().as_secs_f64();
    let rate = events as f64 / secs;
    println!(
        "{label:<18} {:>8} {events:>12} {secs:>10.3} {rate:>14.0}",
        1
    );
}

fn keys() -> Result<(), String> {
    let defaults = Scenario::default();
    println!("{:<14} {:<18} allowed / meaning", "key", "default");
    println!(
        "{:<14} {:<18} {}",
        "preset",
        "(none)",
        codec::preset_allowed()
    );
    for spec in codec::keys() {
        println!(
            "{:<14} {:<18} {}",
            spec.name,
            spec.value(&defaults),
            (spec.allowed)()
        );
        println!("{:<14} {:<18} {}", "", "", spec.help);
    }
    Ok(())
}

fn presets() -> Result<(), String> {
    for spec in PRESETS.iter() {
        println!(
            "{}\n  sets: {}\n  fix:  {}\n  {}\n",
            spec.name, spec.keys, spec.fix, spec.summary
        );
    }
    Ok(())
}
