//! Instructor-written steps (`steps=`): a sequence of an instructor's own steps in one link,
//! each a scenario, an optional compare, a caption and the counts it states. Pure: the page
//! shows a step (`app::own_step_view`) and `idemlab steps URL` checks every stated count.
//!
//! The value of `steps=` (percent-encoded once, as every page key's) holds one line per step.
//! A line is a query in the codec's syntax, plus `compare=KEYS` and `caption=TEXT` (at most
//! `CAPTION_CHARS_MAX` characters, no control or invisible ones), each percent-decoded once
//! more inside its line, `check=METRIC:N,b.METRIC:N` (a count of run A, or of B with `b.`) and
//! `ask=METRIC` or `ask=b.METRIC`: a question the step asks before its run shows ("How many
//! charges does run A end with?"), whose answer and choices the simulator gives (`choices`),
//! and `q=TEXT`, the question in the instructor's own words (at most `QUESTION_CHARS_MAX`):
//!
//! `seed=7&preset=lost-ack&caption=Count%20the%20charges&check=duplicates:3&ask=effects`

use crate::page::{Opens, PageState};
use idemlab_core::scenario::{codec, encode, Scenario};
use idemlab_lab::Metrics;
use idemlab_lab::{Metric, Side};

/// At most this many steps; `step=` accepts up to this many (`page::steps_max`).
pub const STEPS_MAX: usize = 12;
/// A caption is a sentence or two, never a page: it cannot push the lab's own text away.
pub const CAPTION_CHARS_MAX: usize = 280;
/// Stated counts per step.
pub const CHECKS_MAX: usize = 8;
/// A question in the instructor's words is one sentence: it sits above four choices.
pub const QUESTION_CHARS_MAX: usize = 200;

/// One of the instructor's steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnStep {
    pub scenario: Scenario,
    /// Keys over A that make B, in the codec's syntax (`dedup=atomic`).
    pub compare: Option<String>,
    pub caption: String,
    pub checks: Vec<Check>,
    /// A count the learner predicts before the run shows: `metric` of run `side`.
    pub ask: Option<Question>,
}

/// A question of an instructor's step: how many `metric` run `side` ends with. The instructor
/// names only the count; its answer is the simulator's, so a step can never state a wrong one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub side: Side,
    pub metric: Metric,
    /// The question in the instructor's words (`q=`), shown instead of the lab's sentence.
    pub text: Option<String>,
}

/// Choices per question: the right count and three others.
pub const CHOICES: usize = 4;

/// The choices offered for a count whose answer is `value`, in ascending order: `value` and
/// three others, each side's first from `wrong` (what a wrong model of the runs answers,
/// `OwnStep::wrong_answers`), then counts a step or a few away. Picked by `seed`, so the same
/// step offers the same choices in the page and the CLI.
///
/// Why sorted, and how the answer still moves: numbers read and compare best in order (as
/// item-writing guides ask of numeric options), but sorting choices built around the answer
/// leaves its place to chance: a window then a sort put it first in 30% of draws and second
/// in 20%, and a learner who always took the smallest passed. So the seed decides the
/// answer's rank first, how many of the other three lie below it (0 to 3, each a quarter of
/// seeds), and the others are picked on each side to fit. Only an answer with fewer counts
/// below it than that (0, 1 or 2) ranks lower: 0 is always the smallest choice.
pub fn choices(value: u32, seed: u64, wrong: &[u32]) -> [u32; CHOICES] {
    let v = value;
    // Counts are bounded by `events_max`, far from this: the sums below cannot overflow.
    debug_assert!(v < u32::MAX / 8, "a count of {v}");
    // The remainder in u64: `as usize` first would keep 32 bits on wasm and 64 natively, and
    // the page would offer other choices than `idemlab steps` prints.
    let rank = (splitmix(seed) % CHOICES as u64) as u32;
    // Only `v` counts (0 to v - 1) lie below the answer.
    let below = rank.min(v);
    // A step of 1 for small counts; about a sixteenth of a large one, so that 480 is not
    // offered beside 479, 481 and 482, which only a counter could tell apart.
    let step = 1 + v / 16;
    let near_below = (1..=3).filter_map(|k| v.checked_sub(k * step));
    let near_above = (1..=3).map(|k| v + k * step);
    let mut picked = vec![v];
    let below_pool = wrong.iter().copied().filter(|&w| w < v).chain(near_below);
    let above_pool = wrong.iter().copied().filter(|&w| w > v).chain(near_above);
    let taken = take(below_pool, &picked, below);
    picked.extend(taken);
    let taken = take(above_pool, &picked, 3 - below);
    picked.extend(taken);
    // Three near counts on each side: always enough distinct ones (`below` <= v).
    debug_assert_eq!(
        picked.len(),
        CHOICES,
        "answer {v}, seed {seed}, wrong {wrong:?}"
    );
    let mut out = [v; CHOICES];
    out.copy_from_slice(&picked);
    out.sort_unstable();
    out
}

/// The first `want` counts of `pool` not already in `picked`, none twice.
fn take(pool: impl Iterator<Item = u32>, picked: &[u32], want: u32) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for c in pool {
        if out.len() as u32 == want {
            break;
        }
        if !picked.contains(&c) && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// One SplitMix64 step: a seed's bits spread evenly, so that consecutive seeds (a sequence's
/// steps often differ by one) do not give consecutive ranks.
fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A count the step states: `metric` of run `side` at the run's end is `count`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    pub side: Side,
    pub metric: Metric,
    pub count: u32,
}

/// A stated count against the simulator's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    pub check: Check,
    pub actual: u32,
}

impl Checked {
    pub fn holds(&self) -> bool {
        self.actual == self.check.count
    }
}

/// Reads `steps=`'s value (decoded once). A bad line is an error naming the step and why.
pub fn parse(value: &str) -> Result<Vec<OwnStep>, String> {
    let lines: Vec<&str> = value.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() || lines.len() > STEPS_MAX {
        return Err(idemlab_lab::tf!("1 to {} steps, one per line", STEPS_MAX));
    }
    let steps = lines.iter().enumerate().map(|(i, line)| {
        parse_step(line).map_err(|why| idemlab_lab::tf!("step {}: {}", i + 1, why))
    });
    steps.collect()
}

fn parse_step(line: &str) -> Result<OwnStep, String> {
    let (mut keys, mut caption, mut checks) = (Vec::new(), String::new(), Vec::new());
    let (mut ask, mut text) = (None, None);
    // A second caption=, check=, ask= or q= would silently replace the first, so a line could state
    // one count to `idemlab steps` and show the learner another: each may appear once.
    let mut seen: Vec<&str> = Vec::new();
    for pair in line.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if matches!(key, "caption" | "check" | "ask" | "q") {
            if seen.contains(&key) {
                return Err(idemlab_lab::tf!(
                    "`{}=` appears twice; give it once (several counts go in one check=, comma-separated)",
                    key
                ));
            }
            seen.push(key);
        }
        match key {
            "caption" => caption = parse_caption(&codec::percent_decode(value))?,
            "check" => checks = parse_checks(&codec::percent_decode(value))?,
            "ask" => ask = Some(parse_question(&codec::percent_decode(value))?),
            "q" => text = Some(parse_question_text(&codec::percent_decode(value))?),
            _ => keys.push(pair),
        }
    }
    // The words ask about the count ask= names; without it there is no answer to offer.
    match (&mut ask, text) {
        (Some(q), text) => q.text = text,
        (None, Some(_)) => {
            return Err(idemlab_lab::t!(
                "`q=` needs `ask=`, the count whose answer the simulator gives (ask=effects, ask=b.duplicates)"
            )
            .into())
        }
        (None, None) => {}
    }
    // The page's own reader checks the scenario and the compare keys as a link's.
    let (page, opens, errors) = PageState::from_query(&keys.join("&"));
    if let Some(error) = errors.first() {
        return Err(crate::error_text(error));
    }
    let only_runs = PageState {
        scenario: page.scenario.clone(),
        compare: page.compare.clone(),
        ..PageState::default()
    };
    if page != only_runs || opens != Opens::default() {
        return Err(
            idemlab_lab::t!("only scenario keys, compare, caption, check, ask and q").into(),
        );
    }
    if page.compare.is_none() && checks.iter().any(|c: &Check| c.side == Side::B) {
        return Err(idemlab_lab::t!("a check of B (`b.`) needs compare=").into());
    }
    if page.compare.is_none() && ask.as_ref().is_some_and(|q: &Question| q.side == Side::B) {
        return Err(idemlab_lab::t!("a question about B (`ask=b.`) needs compare=").into());
    }
    Ok(OwnStep {
        scenario: page.scenario,
        compare: page.compare,
        caption,
        checks,
        ask,
    })
}

/// `METRIC` or `b.METRIC`: a count of run A, or of B.
fn side_metric(name: &str) -> Option<(Side, Metric)> {
    let (side, metric) = match name.strip_prefix(Side::B.prefix()) {
        Some(metric) => (Side::B, metric),
        None => (Side::A, name),
    };
    Some((side, Metric::from_name(metric)?))
}

/// `ask=METRIC` or `ask=b.METRIC`: a metric the lessons can name.
pub fn parse_question(name: &str) -> Result<Question, String> {
    let Some((side, metric)) = side_metric(name) else {
        return Err(idemlab_lab::tf!(
            "`ask={}`: expected a count such as effects, duplicates or lost, or b. and one",
            codec::quote(name)
        ));
    };
    Ok(Question {
        side,
        metric,
        text: None,
    })
}

/// A question in the instructor's words as typed (already decoded): a sentence, bounded, with
/// no control or invisible characters.
pub fn parse_question_text(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > QUESTION_CHARS_MAX {
        return Err(idemlab_lab::tf!(
            "`q=`: a question of 1 to {} characters",
            QUESTION_CHARS_MAX
        ));
    }
    if has_hidden_chars(text) {
        return Err(
            idemlab_lab::t!("`q=`: a question with no control or invisible characters").into(),
        );
    }
    Ok(text.to_string())
}

/// A caption as typed (already decoded): bounded, with no control or invisible characters.
pub fn parse_caption(text: &str) -> Result<String, String> {
    if text.chars().count() > CAPTION_CHARS_MAX {
        return Err(idemlab_lab::tf!(
            "a caption of at most {} characters",
            CAPTION_CHARS_MAX
        ));
    }
    if has_hidden_chars(text) {
        return Err(idemlab_lab::t!("a caption with no control or invisible characters").into());
    }
    Ok(text.to_string())
}

/// Whether `text` holds a character a reader cannot see: a control or an invisible one.
fn has_hidden_chars(text: &str) -> bool {
    text.chars()
        .any(|c| c.is_control() || codec::is_invisible(c))
}

fn parse_checks(list: &str) -> Result<Vec<Check>, String> {
    let checks: Result<Vec<Check>, String> = list
        .split(',')
        .filter(|c| !c.is_empty())
        .map(|item| {
            let bad = || {
                idemlab_lab::tf!(
                    "`check={}`: expected METRIC:N or b.METRIC:N",
                    codec::quote(item)
                )
            };
            let (name, count) = item.split_once(':').ok_or_else(bad)?;
            let (side, metric) = side_metric(name).ok_or_else(bad)?;
            // Digits only: u32's parser also takes a sign ("+4"), which no count is written with.
            if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
                return Err(idemlab_lab::tf!(
                    "`check={}`: a count is digits 0 to 9 only, such as duplicates:3",
                    codec::quote(item)
                ));
            }
            let count = count.parse().map_err(|_| bad())?;
            Ok(Check {
                side,
                metric,
                count,
            })
        })
        .collect();
    let checks = checks?;
    for (i, check) in checks.iter().enumerate() {
        let again = |c: &Check| c.side == check.side && c.metric == check.metric;
        if checks[..i].iter().any(again) {
            return Err(idemlab_lab::tf!(
                "`check=` states {}{} twice; state each count once",
                check.side.prefix(),
                check.metric.name()
            ));
        }
    }
    if checks.len() > CHECKS_MAX {
        return Err(idemlab_lab::tf!("at most {} checks", CHECKS_MAX));
    }
    Ok(checks)
}

/// The value of `steps=` for these steps: `parse` reads it back as they are.
pub fn write(steps: &[OwnStep]) -> String {
    let lines: Vec<String> = steps.iter().map(write_step).collect();
    lines.join("\n")
}

fn write_step(step: &OwnStep) -> String {
    let mut line = encode(&step.scenario);
    if let Some(compare) = &step.compare {
        line += &format!("&compare={}", escape_in_line(compare));
    }
    if !step.caption.is_empty() {
        line += &format!("&caption={}", escape_in_line(&step.caption));
    }
    let checks: Vec<String> = step
        .checks
        .iter()
        .map(|c| format!("{}{}:{}", c.side.prefix(), c.metric.name(), c.count))
        .collect();
    if !checks.is_empty() {
        line += &format!("&check={}", checks.join(","));
    }
    if let Some(q) = &step.ask {
        line += &format!("&ask={}{}", q.side.prefix(), q.metric.name());
        if let Some(text) = &q.text {
            line += &format!("&q={}", escape_in_line(text));
        }
    }
    line
}

/// Escapes only what would end a value inside its line (`&`, a line break) or change it when
/// the line is decoded (`%`, `+`), and what `PageState::from_query` would cut a line at (`#`,
/// `?`). The whole value of `steps=` is percent-encoded again around its lines, so encoding
/// every other character here as well would encode it twice: a `(` became `%2528`, five bytes
/// for one, and six captions of them wrote a link longer than the page reads.
fn escape_in_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_control() || "&%+#?".contains(ch) {
            let mut bytes = [0; 4];
            for byte in ch.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("%{byte:02X}"));
            }
        } else {
            out.push(ch);
        }
    }
    out
}

impl OwnStep {
    /// The scenarios the page runs for the step: A, and B when it compares, as
    /// `PageState::runs` shares their events.
    pub fn runs(&self) -> (Scenario, Option<Scenario>) {
        let page = PageState {
            scenario: self.scenario.clone(),
            compare: self.compare.clone(),
            ..PageState::default()
        };
        page.runs()
    }

    /// The answer to the step's question, read off its runs (`None` without a question).
    pub fn answer(&self, a: &Metrics, b: Option<&Metrics>) -> Option<u32> {
        let q = self.ask.as_ref()?;
        let run = if q.side == Side::B { b? } else { a };
        Some(q.metric.of(run))
    }

    /// The step's question's answer and its choices, from its runs (`None` without a
    /// question): seeded by the step's scenario, so a sequence of steps does not put the
    /// answer in one place, and the same in the page and the CLI.
    pub fn question(&self, a: &Metrics, b: Option<&Metrics>) -> Option<(u32, [u32; CHOICES])> {
        let value = self.answer(a, b)?;
        let wrong = self.wrong_answers(a, b);
        Some((value, choices(value, self.scenario.seed, &wrong)))
    }

    /// What a wrong model of the step's runs answers its question, most telling first (at
    /// most four; `choices` drops the right answer and repeats): the other run's count (the
    /// change made no difference); for charges, the orders (each charged once whatever
    /// happens) and the requests (every request charges); for duplicates, none (it is safe
    /// already) and every request past an order's first (every retry charges again); for lost
    /// orders, none, and every order that failed or went unanswered; otherwise none.
    pub fn wrong_answers(&self, a: &Metrics, b: Option<&Metrics>) -> Vec<u32> {
        let Some(q) = &self.ask else {
            return Vec::new();
        };
        let (run, other) = match q.side {
            Side::A => (Some(a), b),
            Side::B => (b, Some(a)),
        };
        let Some(run) = run else {
            return Vec::new();
        };
        let mut wrong: Vec<u32> = other.map(|o| q.metric.of(o)).into_iter().collect();
        match q.metric {
            Metric::Effects => wrong.extend([run.orders, run.attempts]),
            Metric::Duplicates => wrong.extend([0, run.attempts.saturating_sub(run.orders)]),
            Metric::Lost => wrong.extend([0, run.outcomes.failed + run.outcomes.unknown]),
            _ => wrong.push(0),
        }
        wrong
    }

    /// Runs the step (A, and B when it compares) and reads each stated count off the runs.
    pub fn check(&self) -> (Metrics, Option<Metrics>, Vec<Checked>) {
        let (a, b) = self.runs();
        let a = idemlab_lab::run(&a).1;
        let b = b.map(|b| idemlab_lab::run(&b).1);
        let checked = self.checks.iter().map(|check| {
            let run = if check.side == Side::B {
                b.as_ref()
            } else {
                Some(&a)
            };
            let actual = run.map(|m| check.metric.of(m));
            Checked {
                check: check.clone(),
                actual: actual.unwrap_or(0),
            }
        });
        let checked = checked.collect();
        (a, b, checked)
    }
}
