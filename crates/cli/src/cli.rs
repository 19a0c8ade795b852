//! The command line: `run`, `svg`, `sweep`, `bench`, `keys`, `presets`. It only parses arguments,
//! calls the library and prints; every rule about scenarios lives in the codec.

use std::io::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};
use idemlab_core::scenario::{codec, presets::PRESETS, Scenario};
use idemlab_core::trace::Trace;
use idemlab_lab::heaviest;
use idemlab_lab::sweep::SeedRange;
use idemlab_lab::{Metrics, Side};
use serde::Serialize;

use crate::{bare, parallel};

/// `println!` that hands a closed stdout back as `Exit::ReaderGone` instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*).map_err(Exit::from)?
    };
}

/// `print!`, likewise.
macro_rules! say_raw {
    ($($arg:tt)*) => {
        write!(std::io::stdout(), $($arg)*).map_err(Exit::from)?
    };
}

/// A run of about 100,000 events: the size the page's timeline budget is set for.
pub const LARGE_QUERY: &str =
    "seed=1&preset=lost-ack&orders=5000&partition=none&events_max=1000000";

/// The heaviest run the search found (`bench --heaviest`); README states it with its time.
pub const WORST_QUERY: &str = heaviest::WORST_QUERY;

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
        #[arg(long, conflicts_with = "sql")]
        text: bool,
        /// Print the SQL each database step stands for, in the order the database received
        /// it, with what each returns in the run (tab-separated; the tables first).
        #[arg(long, conflicts_with = "trace")]
        sql: bool,
    },
    /// Draw run A of a page URL as the page's SVG export does (same file), on stdout.
    Svg {
        /// A query or a whole page URL; `zoom=T0..T1` (µs) is honoured as on the page.
        #[arg(default_value = "")]
        query: String,
    },
    /// Write the page's first views (what each entry link shows before the wasm arrives) into
    /// DIR: NAME.json per entry and NAME.svg for its picture. Trunk's post-build hook runs it.
    First { dir: std::path::PathBuf },
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
        /// Threads to run seeds on (default: one per core). The totals do not depend on it.
        #[arg(long)]
        threads: Option<u32>,
    },
    /// Measure simulated events per second over the presets, or search for the heaviest run.
    Bench {
        /// Seeds per preset.
        #[arg(long, default_value_t = 2_000)]
        seeds: u64,
        /// Instead, search the bounds for the run that takes longest (a seeded hill-climb that
        /// times every candidate) and print it with its time, events and actions.
        #[arg(long)]
        heaviest: bool,
        /// Instead, time the heaviest known run and a sweep of `--seeds` lost-ack seeds on one
        /// thread and on every core.
        #[arg(long, conflicts_with = "heaviest")]
        scaling: bool,
        /// With --heaviest: climbs from random starting points (after the known corners).
        #[arg(long, default_value_t = 6, requires = "heaviest")]
        restarts: u32,
        /// With --heaviest: moves tried per climb.
        #[arg(long, default_value_t = 40, requires = "heaviest")]
        moves: u32,
        /// With --heaviest: the seed of the search's own random choices.
        #[arg(long, default_value_t = 10, requires = "heaviest")]
        search_seed: u64,
    },
    /// Print a mastery check's questions as JSON, as `lesson=L&quiz=SEED` draws them: each
    /// one's kind, scenario, order and choices, never its answer (`run` works that out).
    Quiz {
        /// The lesson's id: `a`, `b` or `c`.
        lesson: String,
        /// The quiz seed.
        seed: u64,
    },
    /// Check an instructor's own steps (`steps=` in a page link): print each step's counts and
    /// whether each count it states is true. Exit status 1 when one is not.
    Steps {
        /// The page link (or its query) holding `steps=`.
        url: String,
    },
    /// List the scenario keys with what they allow.
    Keys {
        /// Print the Markdown table that README embeds.
        #[arg(long)]
        markdown: bool,
    },
    /// Run one fault scenario under no contract and under every contract (`contract=`) over
    /// the seeds and print the counts that tell them apart, per contract, as JSON.
    Contracts {
        /// The fault scenario; its own `contract=` is replaced, its explicit keys still win.
        #[arg(default_value = "")]
        query: String,
        /// Seeds to run: `A..B` (B excluded) or `A..=B`.
        #[arg(long, default_value = "0..100")]
        seeds: String,
        /// Print a Markdown table instead of JSON.
        #[arg(long)]
        markdown: bool,
        /// Instead, print the contracts with their sources, rules and keys (README's table).
        #[arg(long, conflicts_with = "markdown")]
        list: bool,
    },
    /// List the presets with what they set.
    Presets {
        /// Print the Markdown table that README embeds.
        #[arg(long)]
        markdown: bool,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse_from(std::env::args_os().map(html_unescaped));
    let result = match cli.command {
        Command::Run {
            query,
            trace,
            text,
            sql,
        } => run(&query, trace, text, sql),
        Command::Svg { query } => svg(&query),
        Command::First { dir } => first(&dir),
        Command::Sweep {
            query,
            seeds,
            quiet,
            threads,
        } => sweep(&query, &seeds, quiet, threads),
        Command::Bench {
            heaviest: true,
            restarts,
            moves,
            search_seed,
            ..
        } => heaviest(heaviest::Config {
            seed: search_seed,
            restarts,
            moves,
        }),
        Command::Bench {
            seeds,
            scaling: true,
            ..
        } => scaling(seeds),
        Command::Bench { seeds, .. } => bench(seeds),
        Command::Quiz { lesson, seed } => quiz(&lesson, seed),
        Command::Steps { url } => steps(&url),
        Command::Keys { markdown: true } => print_text(&codec::markdown_table()),
        Command::Keys { markdown: false } => keys(),
        Command::Presets { markdown: true } => {
            print_text(&idemlab_core::scenario::presets::markdown_table())
        }
        Command::Presets { markdown: false } => presets(),
        Command::Contracts { list: true, .. } => {
            print_text(&idemlab_core::scenario::contracts::markdown_table())
        }
        Command::Contracts {
            query,
            seeds,
            markdown,
            ..
        } => contracts(&query, &seeds, markdown),
    };
    match result {
        // A reader that went away (`idemlab keys | head`) wanted no more: end quietly.
        Ok(()) | Err(Exit::ReaderGone) => ExitCode::SUCCESS,
        Err(Exit::Interrupted) => ExitCode::from(130),
        Err(Exit::False) => ExitCode::from(1),
        Err(Exit::Error(message)) => {
            let _ = writeln!(std::io::stderr(), "idemlab: {message}");
            ExitCode::from(2)
        }
    }
}

/// Why a command ended early.
enum Exit {
    /// Bad input or a failed write: printed, exit status 2.
    Error(String),
    /// Stdout was closed by its reader: nothing to print, exit status 0.
    ReaderGone,
    /// Ctrl-C stopped a sweep after it printed the totals so far: exit status 130.
    Interrupted,
    /// `steps` found a stated count that is not true (it printed which): exit status 1.
    False,
}

impl From<String> for Exit {
    fn from(message: String) -> Exit {
        Exit::Error(message)
    }
}

impl From<std::io::Error> for Exit {
    fn from(e: std::io::Error) -> Exit {
        match e.kind() {
            std::io::ErrorKind::BrokenPipe => Exit::ReaderGone,
            _ => Exit::Error(format!("cannot write the output: {e}")),
        }
    }
}

fn decode(query: &str) -> Result<Scenario, Exit> {
    codec::decode(query)
        .map(|decoded| decoded.scenario)
        .map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            Exit::Error(lines.join("\nidemlab: "))
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

/// Runs A and B as the page opens `query`: a lesson step's own scenario (and its B) where the
/// link names a step and gives no scenario key, else the link's own. A key the codec or the
/// page refuses (`retries=99`, `lesson=z`) is an error here, as it is in the page's banner.
fn page_runs(query: &str) -> Result<PageRuns, Exit> {
    let given = decode(query)?;
    let state = idemlab_app::State::load(query, &Default::default());
    if !state.errors.is_empty() {
        let lines: Vec<String> = state.errors.iter().map(|e| e.to_string()).collect();
        return Err(Exit::Error(lines.join("\nidemlab: ")));
    }
    let step = state.page.scenario != given;
    if step {
        let _ = writeln!(
            std::io::stderr(),
            "idemlab: the link opens a lesson step's own run, `{}`",
            codec::encode(&state.page.scenario)
        );
    }
    let (a, b) = state.page.runs();
    // Each run the shared budget cut, as the page says above its counters.
    for side in Side::ALL {
        if let Some(kept) = state.page.shared_cut(side) {
            let note = idemlab_app::page::shared_events_note(side, kept);
            let _ = writeln!(std::io::stderr(), "idemlab: {note}");
        }
    }
    Ok(PageRuns { a, b, step })
}

/// What `page_runs` found: run A, run B if the view compares, and whether both are a lesson
/// step's own rather than the link's keys.
struct PageRuns {
    a: Scenario,
    b: Option<Scenario>,
    step: bool,
}

fn run(query: &str, with_trace: bool, text: bool, sql: bool) -> Result<(), Exit> {
    let PageRuns {
        a: scenario,
        b,
        step,
    } = page_runs(query)?;
    // A view that compares shows two runs; say which one this is, and how to get B, on stderr
    // so that stdout stays the one run's output.
    if let Some(b) = b {
        let whose = if step {
            "the step's fix makes run B"
        } else {
            "the link's compare= makes run B"
        };
        let _ = writeln!(
            std::io::stderr(),
            "idemlab: this is run A; {whose}, which `idemlab run '{}'` runs",
            codec::encode(&b)
        );
    }
    let (trace, metrics) = idemlab_lab::run(&scenario);
    if text {
        say_raw!("{}", trace.text());
        return Ok(());
    }
    if sql {
        say_raw!("{}", idemlab_lab::sql::listing(&trace));
        return Ok(());
    }
    say!("{}", report_json(&trace, &metrics, with_trace)?);
    Ok(())
}

/// The JSON `run` prints for a trace and its counts; `bench --scaling` times it with the run.
fn report_json(trace: &Trace, metrics: &Metrics, with_trace: bool) -> Result<String, String> {
    let report = RunReport {
        scenario: &trace.query(),
        seed: trace.seed,
        metrics,
        digest: trace.digest(),
        trace: with_trace.then_some(trace),
    };
    serde_json::to_string_pretty(&report).map_err(|e| e.to_string())
}

/// The page's export for the same URL: its scenario's run, over its `zoom=` window if any.
fn svg(query: &str) -> Result<(), Exit> {
    let scenario = page_runs(query)?.a;
    let (page, _, errors) = idemlab_app::page::PageState::from_query(query);
    if let Some(error) = errors.iter().find(|error| error.key == "zoom") {
        return Err(error.to_string().into());
    }
    let trace = idemlab_core::sim::run(&scenario);
    let timeline = idemlab_lab::view::layout(&trace);
    print_text(&idemlab_lab::view::export(
        &timeline,
        &trace.query(),
        page.zoom,
    ))
}

/// Every entry's first view and picture, written into `dir` (made if missing).
fn first(dir: &std::path::Path) -> Result<(), Exit> {
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(io)?;
    for (name, query) in idemlab_app::first::entries() {
        let first = idemlab_app::first::first(&name, &query);
        let json = serde_json::to_string(&first).map_err(|e| e.to_string())?;
        std::fs::write(dir.join(format!("{name}.json")), json).map_err(io)?;
        if first.picture {
            let svg = idemlab_app::first::picture(&query);
            std::fs::write(dir.join(format!("{name}.svg")), svg).map_err(io)?;
        }
    }
    Ok(())
}

/// One question as `quiz` prints it: what the page's form shows, and the scenario it hides
/// until the answer is locked.
#[derive(Serialize)]
struct QuizQuestion<'a> {
    kind: &'static str,
    query: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    order: Option<u32>,
    choices: Vec<&'a str>,
}

fn quiz(lesson: &str, seed: u64) -> Result<(), Exit> {
    let lesson = idemlab_course::lessons::Lesson::by_id(lesson)
        .ok_or_else(|| format!("no lesson `{lesson}`: expected a or b"))?;
    let quiz = idemlab_course::quiz::generate(lesson, seed);
    let questions: Vec<QuizQuestion> = (quiz.questions.iter())
        .map(|q| QuizQuestion {
            kind: q.kind.name(),
            query: &q.query,
            order: q.order,
            choices: match &q.form {
                idemlab_course::quiz::Form::Choices(choices) => {
                    choices.iter().map(|c| c.keys.as_str()).collect()
                }
                idemlab_course::quiz::Form::Number => Vec::new(),
            },
        })
        .collect();
    print_json(&questions)
}

/// An argument with `&amp;` read as `&`: a URL copied from the Embed snippet's `src` is
/// HTML-escaped, and no page key is named `amp;`, so the escape can never be meant literally.
fn html_unescaped(arg: std::ffi::OsString) -> std::ffi::OsString {
    match arg.to_str() {
        Some(text) if text.contains("&amp;") => text.replace("&amp;", "&").into(),
        _ => arg,
    }
}

/// `idemlab steps URL`: each step's keys, caption, counts, and each stated count with its truth.
fn steps(url: &str) -> Result<(), Exit> {
    let (page, _, errors) = idemlab_app::page::PageState::from_query(url);
    if let Some(error) = errors.first() {
        return Err(Exit::Error(error.to_string()));
    }
    let steps = page
        .steps
        .ok_or_else(|| "the link has no steps=".to_string())?;
    let mut false_counts = 0;
    for (i, step) in steps.iter().enumerate() {
        let (a, b, checked) = step.check();
        say!(
            "step {} of {}: {}",
            i + 1,
            steps.len(),
            codec::encode(&step.scenario)
        );
        if let Some(compare) = &step.compare {
            say!("  compare: {compare}");
        }
        say!("  caption: {}", step.caption);
        say!("  A: {}", counts_line(&a));
        if let Some(b) = &b {
            say!("  B: {}", counts_line(b));
        }
        if let (Some(q), Some((value, choices))) = (&step.ask, step.question(&a, b.as_ref())) {
            let side = q.side.letter();
            let choices: Vec<String> = choices.iter().map(u32::to_string).collect();
            say!(
                "  asks {side} {}: answer {value} (choices {})",
                q.metric.name(),
                choices.join(", ")
            );
        }
        for c in &checked {
            let side = c.check.side.letter();
            let verdict = if c.holds() { "true" } else { "FALSE" };
            say!(
                "  {side} {} = {}: {verdict} (the run has {})",
                c.check.metric.name(),
                c.check.count,
                c.actual
            );
            false_counts += usize::from(!c.holds());
        }
    }
    match false_counts {
        0 => Ok(()),
        _ => Err(Exit::False),
    }
}

fn counts_line(m: &Metrics) -> String {
    use idemlab_lab::Metric as M;
    let shown = [
        M::Orders,
        M::Effects,
        M::Duplicates,
        M::Lost,
        M::Races,
        M::Unrecorded,
        M::Ok,
        M::Failed,
        M::Unknown,
        M::Receipts,
        M::DuplicateReceipts,
    ];
    let counts = shown.map(|metric| format!("{} {}", metric.name(), metric.of(m)));
    counts.join(", ")
}

fn print_text(text: &str) -> Result<(), Exit> {
    say_raw!("{text}");
    Ok(())
}

fn print_json(value: &impl Serialize) -> Result<(), Exit> {
    let json = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    say!("{json}");
    Ok(())
}

fn sweep(query: &str, seeds: &str, quiet: bool, threads: Option<u32>) -> Result<(), Exit> {
    let mut scenario = decode(query)?;
    let range = SeedRange::parse(seeds).map_err(|e| format!("--seeds {seeds:?}: {e}"))?;
    let threads = match threads {
        Some(n) if (1..=parallel::THREADS_MAX).contains(&n) => n,
        Some(n) => {
            let max = parallel::THREADS_MAX;
            return Err(Exit::from(format!("--threads {n}: allowed 1..={max}")));
        }
        None => std::thread::available_parallelism()
            .map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
            .min(parallel::THREADS_MAX),
    };
    let job = parallel::Job {
        scenario: &scenario,
        first: range.first,
        count: range.count,
        threads: u32::try_from(range.count.min(u64::from(threads))).expect("at most threads"),
        progress: !quiet,
    };
    let folded = parallel::sweep(&job, stop_on_ctrl_c()?);
    scenario.seed = range.first;
    if folded.done == range.count {
        return print_json(&folded.totals.summary(&scenario, seeds));
    }
    let (done, count, past) = (folded.done, range.count, folded.finished - folded.done);
    let _ = writeln!(
        std::io::stderr(),
        "sweep: stopped by Ctrl-C; the totals are for the first {done} of {count} seeds, which \
         finished without a gap ({past} more finished past it and are left out)"
    );
    if done > 0 {
        let ran = SeedRange {
            first: range.first,
            count: done,
        };
        print_json(&folded.totals.summary(&scenario, &ran.to_string()))?;
    }
    Err(Exit::Interrupted)
}

/// What `contracts` prints as JSON.
#[derive(Serialize)]
struct ContractsReport<'a> {
    seeds: &'a str,
    contracts: Vec<idemlab_lab::contracts::Row>,
}

fn contracts(query: &str, seeds: &str, markdown: bool) -> Result<(), Exit> {
    let range = SeedRange::parse(seeds).map_err(|e| format!("--seeds {seeds:?}: {e}"))?;
    let rows = idemlab_lab::contracts::table(query, range).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        Exit::Error(lines.join("\nidemlab: "))
    })?;
    if markdown {
        return print_text(&idemlab_lab::contracts::markdown(&rows));
    }
    print_json(&ContractsReport {
        seeds,
        contracts: rows,
    })
}

/// The flag Ctrl-C sets: the sweep's threads stop after the seed in hand and the totals so far
/// are printed. A second Ctrl-C ends the program at once.
fn stop_on_ctrl_c() -> Result<&'static AtomicBool, String> {
    static STOP: AtomicBool = AtomicBool::new(false);
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        let _ = writeln!(
            std::io::stderr(),
            "sweep: stopping after the seeds in hand (Ctrl-C again to quit now)"
        );
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"))?;
    Ok(&STOP)
}

/// Each preset's seeds and the bare loop are timed this many times, interleaved, and the
/// fastest of each kept: on a shared machine other programs only ever add time (to the CPU
/// time too, through the caches they share), and interleaving lets both sides of the ratio
/// meet the same load.
const BENCH_ROUNDS: usize = 3;

fn bench(seeds: u64) -> Result<(), Exit> {
    if seeds == 0 || seeds > 1_000_000 {
        return Err(format!("--seeds {seeds}: allowed 1..=1000000").into());
    }
    let scenarios: Vec<Scenario> = (PRESETS.iter())
        .map(|spec| {
            (codec::decode(&format!("preset={}", spec.name)))
                .expect("presets decode")
                .scenario
        })
        .collect();
    let mut best = vec![f64::INFINITY; scenarios.len()];
    let (mut bare_best, mut events_per_run) = (f64::INFINITY, Vec::new());
    for round in 0..BENCH_ROUNDS {
        for (scenario, best) in scenarios.iter().zip(&mut best) {
            let (secs, events) = time_seeds(scenario, seeds);
            *best = best.min(secs);
            if round == 0 {
                events_per_run.extend(events);
            }
        }
        bare_best = bare_best.min(secs_of(|| bare::run(&events_per_run)));
    }
    let row = |label: &str, runs: u64, events: u64, secs: f64| {
        let rate = events as f64 / secs;
        format!("{label:<18} {runs:>8} {events:>12} {secs:>10.3} {rate:>14.0}")
    };
    say!(
        "{:<18} {:>8} {:>12} {:>10} {:>14}",
        "preset",
        "seeds",
        "events",
        "seconds",
        "events/s"
    );
    let per_preset = events_per_run.chunks(seeds as usize);
    for ((spec, secs), events) in PRESETS.iter().zip(&best).zip(per_preset) {
        let events = events.iter().map(|&e| u64::from(e)).sum();
        say!("{}", row(spec.name, seeds, events, *secs));
    }
    let events_all = events_per_run.iter().map(|&e| u64::from(e)).sum();
    let (runs, secs_all) = (events_per_run.len() as u64, best.iter().sum::<f64>());
    say!("{}", row("all presets", runs, events_all, secs_all));
    say!("{}", row("bare event loop", runs, events_all, bare_best));
    say!(
        "simulator / bare event loop: {:.2} (events/s; {}, fastest of {BENCH_ROUNDS} \
         interleaved rounds)",
        bare_best / secs_all,
        clock_name()
    );
    // One long run, the size the page must stay responsive at; and the heaviest corner of
    // the bounds, which must finish in well under a second.
    time_one_run("large (1 run)", LARGE_QUERY)?;
    time_one_run("worst in bounds", WORST_QUERY)?;
    std::io::stdout().flush().map_err(Exit::from)
}

/// Seconds (`secs_of`) of `seeds` runs of `scenario` (seeds 0, 1, …), and each run's events.
fn time_seeds(scenario: &Scenario, seeds: u64) -> (f64, Vec<u32>) {
    let mut scenario = scenario.clone();
    let mut events = Vec::with_capacity(seeds as usize);
    let secs = secs_of(|| {
        for seed in 0..seeds {
            scenario.seed = seed;
            events.push(idemlab_core::sim::run(&scenario).events.len() as u32);
        }
    });
    (secs, events)
}

/// Seconds `work` takes, including dropping its result (which is kept from the optimiser):
/// this thread's CPU time where the platform reports it, else wall time.
#[allow(clippy::disallowed_types)] // the benchmark is the one place that reads a clock
fn secs_of<R>(work: impl FnOnce() -> R) -> f64 {
    let (cpu, wall) = (thread_cpu_ns(), std::time::Instant::now());
    drop(std::hint::black_box(work()));
    match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e9,
        _ => wall.elapsed().as_secs_f64(),
    }
}

/// The median of some timings.
fn median(mut secs: Vec<f64>) -> f64 {
    secs.sort_by(f64::total_cmp);
    secs[secs.len() / 2]
}

fn time_one_run(label: &str, query: &str) -> Result<(), Exit> {
    let scenario = codec::decode(query)
        .expect("benchmark queries decode")
        .scenario;
    let secs = run_secs(&scenario, 3);
    let events = idemlab_core::sim::run(&scenario).events.len() as u64;
    let rate = events as f64 / secs;
    say!(
        "{label:<18} {:>8} {events:>12} {secs:>10.3} {rate:>14.0}",
        1
    );
    Ok(())
}

/// The heaviest known run's time, and sweep throughput on one thread and on every core: the
/// native figures `scripts/bench.sh` prints.
#[allow(clippy::disallowed_types)] // the benchmark is the one place that reads a clock
fn scaling(seeds: u64) -> Result<(), Exit> {
    let worst = codec::decode(WORST_QUERY).expect("decodes").scenario;
    // The run's counts and `idemlab run`'s whole path, interleaved so both meet the same load.
    let (mut counted, mut whole) = (Vec::new(), Vec::new());
    for _ in 0..RUN_ROUNDS {
        counted.push(secs_of(|| idemlab_lab::run(&worst)));
        whole.push(secs_of(|| run_path(&worst)));
    }
    let (secs, whole, wall) = (median(counted), median(whole), wall_secs(&worst));
    let events = idemlab_core::sim::run(&worst).events.len();
    let clock = clock_name();
    say!("heaviest known run: {secs:.3} s {clock} ({wall:.3} s wall), {events} events: {WORST_QUERY}");
    say!(
        "idemlab run on it (simulate, count, digest, JSON): {whole:.3} s {clock}, {:.2}x the \
         simulation and counts (median of {RUN_ROUNDS}, interleaved; target <= 1.3)",
        whole / secs
    );
    let scenario = codec::decode("preset=lost-ack").expect("decodes").scenario;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    let stop = AtomicBool::new(false);
    let mut rates = Vec::new();
    for threads in [1, cores] {
        let job = parallel::Job {
            scenario: &scenario,
            first: 0,
            count: seeds,
            threads,
            progress: false,
        };
        let started = std::time::Instant::now();
        std::hint::black_box(parallel::sweep(&job, &stop));
        let rate = seeds as f64 / started.elapsed().as_secs_f64();
        rates.push(rate);
        say!("sweep of {seeds} lost-ack seeds on {threads} thread(s): {rate:.0} seeds/s (wall)");
    }
    say!(
        "sweep scaling, {cores} threads / 1: {:.2}x",
        rates[1] / rates[0]
    );
    Ok(())
}

/// Timings of the heaviest run by `bench --scaling`, each side.
const RUN_ROUNDS: usize = 5;

/// `idemlab run`'s whole path but the printing: simulate, count, digest and write the JSON.
fn run_path(scenario: &Scenario) -> String {
    let (trace, metrics) = idemlab_lab::run(scenario);
    report_json(&trace, &metrics, false).expect("a report always serializes")
}

/// Wall seconds of one run, the median of three.
#[allow(clippy::disallowed_types)] // the benchmark is the one place that reads a clock
fn wall_secs(scenario: &Scenario) -> f64 {
    let once = || {
        let started = std::time::Instant::now();
        std::hint::black_box(idemlab_lab::run(scenario));
        started.elapsed().as_secs_f64()
    };
    median((0..3).map(|_| once()).collect())
}

/// Nanoseconds this thread has spent on a CPU, or `None` where the platform has no such
/// clock. On a shared machine a wall clock also counts the time other programs held the CPU,
/// which swamps what the benchmark wants to see; Linux's scheduler statistics, read before,
/// lag the running thread by up to a tick (4 ms), as long as a preset's seeds take.
#[cfg(unix)]
fn thread_cpu_ns() -> Option<u64> {
    let now = nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID).ok()?;
    let (secs, nanos) = (
        u64::try_from(now.tv_sec()).ok()?,
        u64::try_from(now.tv_nsec()).ok()?,
    );
    Some(secs * 1_000_000_000 + nanos)
}

#[cfg(not(unix))]
fn thread_cpu_ns() -> Option<u64> {
    None
}

/// Seconds one run (trace and metrics) takes (`secs_of`), the median of `times` timings.
fn run_secs(scenario: &Scenario, times: usize) -> f64 {
    median(
        (0..times)
            .map(|_| secs_of(|| idemlab_lab::run(scenario)))
            .collect(),
    )
}

/// What `secs_of` measures, for the printed figures.
fn clock_name() -> &'static str {
    if thread_cpu_ns().is_some() {
        "CPU time"
    } else {
        "wall time"
    }
}

fn heaviest(config: heaviest::Config) -> Result<(), Exit> {
    if config.restarts > 1_000 || config.moves > 10_000 {
        return Err(Exit::from(
            "--restarts allows 0..=1000 and --moves 0..=10000".to_string(),
        ));
    }
    let mut best_secs = 0f64;
    let found = heaviest::search(config, |scenario| {
        let secs = run_secs(scenario, 1);
        if secs > best_secs {
            best_secs = secs;
            let query = codec::encode(scenario);
            let _ = writeln!(std::io::stderr(), "heaviest: {secs:.3} s {query}");
        }
        (secs * 1e9) as u64
    });
    let scenario = codec::decode(&found.query)
        .expect("the search only builds in-bounds queries")
        .scenario;
    let secs = run_secs(&scenario, 5);
    let (trace, _) = idemlab_lab::run(&scenario);
    let work = heaviest::work(&scenario);
    let events = trace.events.len() as u64;
    say!("heaviest run of {} searched", found.evaluations);
    say!("query   {}", codec::encode(&scenario));
    say!("time    {secs:.3} s ({}, median of 5)", clock_name());
    say!("events  {events}");
    say!("actions {}", work - events);
    say!("work    {work} (actions + events)");
    Ok(())
}

fn keys() -> Result<(), Exit> {
    let defaults = Scenario::default();
    say!("{:<14} {:<18} allowed / meaning", "key", "default");
    say!(
        "{:<14} {:<18} {}",
        "preset",
        "(none)",
        codec::preset_allowed()
    );
    say!(
        "{:<14} {:<18} {}",
        "contract",
        "(none)",
        codec::contract_allowed()
    );
    for spec in codec::keys() {
        say!(
            "{:<14} {:<18} {}",
            spec.name,
            spec.value(&defaults),
            (spec.allowed)()
        );
        say!("{:<14} {:<18} {}", "", "", spec.help);
    }
    Ok(())
}

fn presets() -> Result<(), Exit> {
    for spec in PRESETS.iter() {
        say!(
            "{}\n  sets: {}\n  fix:  {}\n  {}\n",
            spec.name,
            spec.keys,
            spec.fix,
            spec.summary
        );
    }
    Ok(())
}
