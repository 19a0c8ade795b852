//! Fuzzing the decoder and whole runs: inputs grown from the committed corpus
//! (`tests/fuzz/*.txt`) by seeded mutation. No input may panic, hang or break a trace
//! invariant. CI runs 20,000 executions; `TEST_MODE=long` runs 10,000,000 (or `FUZZ_EXECS`).
//! A failure prints the execution number, which reproduces it exactly.

mod common;

use common::{check_trace, long_mode};
use idemlab_core::scenario::codec::{key_names, VIEW_KEYS};
use idemlab_core::scenario::{decode, decode_lenient, encode};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

const CORPUS: [&str; 2] = [
    include_str!("fuzz/valid.txt"),
    include_str!("fuzz/hostile.txt"),
];
/// Runs are capped so that one execution stays around a millisecond; the cap is itself a path.
const FUZZ_EVENTS_MAX: u32 = 20_000;

const VALUES: [&str; 40] = [
    "0",
    "1",
    "-1",
    "2",
    "20",
    "21",
    "100",
    "10000",
    "10001",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "NaN",
    "1e309",
    "0.5",
    "1.0",
    "0..0",
    "5..20",
    "20..5",
    "none",
    "api@after-effect",
    "<b>x</b>",
    "",
    "conflict",
    "phased",
    "success",
    "reject",
    "on",
    // The other values of issue 12's keys and the contracts' names, so that a soup can set
    // each key to each of its values.
    "keyed",
    "global",
    "direct",
    "final",
    "after-mail",
    "300000",
    "stripe-v1",
    "ietf-draft",
    "powertools",
    "oasis",
    "sqs-fifo",
];

fn executions() -> u64 {
    match std::env::var("FUZZ_EXECS")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        Some(n) => n,
        None if long_mode() => 10_000_000,
        None => 20_000,
    }
}

fn corpus() -> Vec<&'static str> {
    CORPUS
        .iter()
        .flat_map(|file| file.lines())
        .filter(|line| !line.is_empty())
        .collect()
}

/// One input: a corpus line with a few mutations, or a soup of known keys and odd values.
fn input(rng: &mut Pcg32, corpus: &[&str]) -> String {
    let mut text = if rng.random_bool(0.7) {
        corpus[rng.random_range(0..corpus.len() as u32) as usize].to_string()
    } else {
        soup(rng)
    };
    for _ in 0..rng.random_range(0..4u32) {
        mutate(rng, &mut text, corpus);
    }
    text
}

fn soup(rng: &mut Pcg32) -> String {
    let keys: Vec<&str> = key_names().chain(VIEW_KEYS).collect();
    let pairs: Vec<String> = (0..rng.random_range(0..8u32))
        .map(|_| {
            let key = keys[rng.random_range(0..keys.len() as u32) as usize];
            let value = VALUES[rng.random_range(0..VALUES.len() as u32) as usize];
            format!("{key}={value}")
        })
        .collect();
    pairs.join("&")
}

fn mutate(rng: &mut Pcg32, text: &mut String, corpus: &[&str]) {
    let mut bytes = std::mem::take(text).into_bytes();
    let at = if bytes.is_empty() {
        0
    } else {
        rng.random_range(0..bytes.len() as u32) as usize
    };
    match rng.random_range(0..5u32) {
        0 => bytes.insert(at, rng.random_range(0..=255u32) as u8),
        1 if !bytes.is_empty() => {
            bytes.remove(at);
        }
        2 => bytes
            .splice(at..at, b"&".iter().copied().chain(soup(rng).into_bytes()))
            .for_each(drop),
        3 => {
            let other = corpus[rng.random_range(0..corpus.len() as u32) as usize].as_bytes();
            bytes.truncate(at);
            bytes.extend_from_slice(&other[other.len() / 2..]);
        }
        _ => bytes.extend_from_slice(format!("%{:02X}", rng.random_range(0..=255u32)).as_bytes()),
    }
    *text = String::from_utf8_lossy(&bytes).into_owned();
}

#[derive(Default, Debug)]
struct Totals {
    executions: u64,
    decoded: u64,
    runs: u64,
    events: u64,
}

fn execute(text: &str, totals: &mut Totals) -> Result<(), String> {
    totals.executions += 1;
    if let Ok(decoded) = decode(text) {
        totals.decoded += 1;
        let again = decode(&encode(&decoded.scenario))
            .map_err(|e| format!("canonical form refused: {e:?}"))?;
        if again.scenario != decoded.scenario {
            return Err("the canonical form decodes to another scenario".into());
        }
    }
    let (decoded, _) = decode_lenient(text);
    let mut scenario = decoded.scenario;
    scenario.events_max = scenario.events_max.min(FUZZ_EVENTS_MAX);
    let trace = idemlab_core::sim::run(&scenario);
    totals.runs += 1;
    totals.events += trace.events.len() as u64;
    check_trace(&trace)
}

#[test]
fn no_input_panics_hangs_or_breaks_a_trace() {
    let corpus = corpus();
    let mut totals = Totals::default();
    for execution in 0..executions() {
        let mut rng = Pcg32::seed_from_u64(execution);
        let text = input(&mut rng, &corpus);
        if let Err(problem) = execute(&text, &mut totals) {
            panic!("fuzz execution {execution} (input {text:?}): {problem}");
        }
    }
    if long_mode() {
        println!("fuzz: {totals:?}");
    }
    assert!(
        totals.decoded > 0 && totals.decoded < totals.executions,
        "{totals:?}"
    );
}

#[test]
fn every_corpus_line_decodes_or_names_its_problem() {
    for line in corpus() {
        if let Err(errors) = decode(line) {
            for error in errors {
                let message = error.to_string();
                assert!(message.contains(&error.key), "{line:?}: {message}");
            }
        }
    }
}
