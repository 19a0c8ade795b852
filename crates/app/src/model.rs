//! The view model: what the page shows, computed from `State` and the runs' traces. Sentences,
//! counts at the cursor, the tables, the banner, the sweep's seed range and the ordering
//! verdict's run are all worked out here, so the browser only paints them.

use super::{ErrorsFrom, State};
use crate::page::Theme;
use idemlab_core::scenario::codec::CodecError;
use idemlab_core::scenario::{codec, decode, Consumer, Scenario, Step};
use idemlab_core::trace::{EventKind, Trace};
use idemlab_course::ordering::{self, Verdict};
use idemlab_lab::decimal::Fixed;
use idemlab_lab::metrics::{walk_ledger, walk_receipts};
use idemlab_lab::view::Timeline;
use idemlab_lab::Side;
use idemlab_lab::{Metric, Metrics};

/// A count read off a run's metrics.
type Count = fn(&Metrics) -> u32;
/// A count in words, as a template fills it ("2 failed").
type Said = fn(u32) -> String;

/// "dedup=naive: 2 duplicates → dedup=atomic: 0 duplicates": the whole runs side by side,
/// while comparing, with lost orders and other counts where the runs have them.
pub fn compare_sentence(state: &State, a: &Metrics, b: &Metrics) -> Option<String> {
    use idemlab_lab::i18n::tr;
    let compare = state.page.compare.as_ref()?;
    let a_label = compare_keys_in(&state.page.scenario, compare);
    // Other counts too where the runs differ in them: else the line reads "0 duplicates, 0
    // lost" on both sides of a step about two failed orders, an order left unknown or an event
    // lost.
    let extra: [(Count, Said); 4] = [
        (|m| m.outcomes.failed, |n| idemlab_lab::tf!("{} failed", n)),
        (
            |m| m.outcomes.unknown,
            |n| idemlab_lab::tf!("{} unknown", n),
        ),
        (
            |m| m.replayed_failures,
            |n| idemlab_lab::tf!("{} failures replayed", n),
        ),
        (|m| m.lost_events, |n| idemlab_lab::tf!("{} lost events", n)),
    ];
    let differ: Vec<_> = (extra.iter())
        .filter(|(count, _)| count(a) != count(b))
        .collect();
    let side = |m: &Metrics| {
        let dups = match m.duplicates {
            1 => idemlab_lab::tf!("{} duplicate", m.duplicates),
            n => idemlab_lab::tf!("{} duplicates", n),
        };
        let mut text = dups;
        // Lost orders where either run loses one: "0 lost orders" on both sides is a phrase
        // read on every step for nothing. "lost orders", not "lost": a bare "0 lost" leaves a
        // learner asking what was lost.
        if a.lost + b.lost > 0 {
            text.push_str(&match m.lost {
                1 => idemlab_lab::tf!(", {} lost order", m.lost),
                n => idemlab_lab::tf!(", {} lost orders", n),
            });
        }
        for (count, words) in &differ {
            text.push_str(&format!(", {}", words(count(m))));
        }
        text
    };
    let (a_label, b_label) = match (state.run_names(), quiz_run_names(state)) {
        (Some((a, Some(b))), _) => (tr(a).to_string(), tr(b).to_string()),
        (_, Some((a, Some(b)))) => (a, b),
        _ => (in_words(&a_label), in_words(compare)),
    };
    Some(format!("{a_label}: {} → {b_label}: {}", side(a), side(b)))
}

/// Plain names for a locked check question's runs: A is the question's run, B the right choice
/// (the form marks its words, so the titles and the compare line need not repeat them) or, for
/// a question asking a number, the fix in words. None while no question is locked.
fn quiz_run_names(state: &State) -> Option<(String, Option<String>)> {
    use idemlab_course::quiz::Form;
    let session = state.quiz.as_ref()?;
    let questions = &session.quiz.questions;
    // On the score, the runs are the question whose run the page shows (the last one, or the
    // one its review put on the timeline).
    let index = match session.shown? {
        shown if shown < questions.len() => shown,
        _ => (questions.iter())
            .position(|q| codec::decode_lenient(&q.query).0.scenario == state.page.scenario)?,
    };
    let question = questions.get(index)?;
    session.answers.get(index)?.as_ref()?;
    let a = idemlab_lab::t!("the question's run").to_string();
    let b = state.page.compare.as_deref().map(|keys| {
        let choice = match &question.form {
            Form::Choices(choices) => choices.iter().position(|c| c.keys == keys),
            _ => None,
        };
        match (choice, &question.form) {
            (Some(at), _) if at == question.answer as usize => {
                idemlab_lab::t!("the right choice").to_string()
            }
            // A wrong choice the learner asked to see as B ("Show my choice as B").
            (Some(at), Form::Choices(choices)) => choices[at].label.clone(),
            _ => idemlab_lab::tf!("with {}", in_words(keys)),
        }
    });
    Some((a, b))
}

/// A compare label with its retention said as a span ("keys kept 24 h"), not as
/// `retention_ms=86400000`, which a learner cannot read at a glance.
fn in_words(label: &str) -> String {
    let said: Vec<String> = (label.split('&'))
        .map(|pair| match pair.strip_prefix("retention_ms=") {
            Some(ms) => ms.parse::<u64>().map_or_else(
                |_| pair.to_string(),
                |ms| idemlab_lab::tf!("keys kept {}", super::keys::span_text(ms * 1_000)),
            ),
            None => pair.to_string(),
        })
        .collect();
    said.join(" & ")
}

/// The values A has for the keys that B changes, in the same form: `dedup=naive`.
fn compare_keys_in(scenario: &Scenario, compare: &str) -> String {
    let names: Vec<&str> = compare
        .split('&')
        .filter_map(|pair| pair.split('=').next())
        .collect();
    // B's `preset=NAME` faces A's preset, or none, as its `contract=NAME` (a contracts row
    // loaded as B) faces A's contract.
    let preset = names.contains(&"preset").then(|| {
        scenario
            .preset
            .map_or(idemlab_lab::t!("no preset").into(), |p| {
                format!("preset={}", p.name())
            })
    });
    let contract = names.contains(&"contract").then(|| {
        scenario
            .contract
            .map_or(idemlab_lab::t!("no contract").into(), |c| {
                format!("contract={}", c.name())
            })
    });
    let keys = codec::keys()
        .iter()
        .filter(|spec| names.contains(&spec.name));
    let keys = keys.map(|spec| format!("{}={}", spec.name, spec.value(scenario)));
    let parts: Vec<String> = (preset.into_iter().chain(contract).chain(keys)).collect();
    if parts.is_empty() {
        "A".into()
    } else {
        parts.join("&")
    }
}

/// How many of a run's events the counters fold: all of them with no cursor (`None`); for the
/// run in focus (`lead`, A unless comparing with B in focus) up to the cursor's event; for the
/// other, every event up to the cursor's time, since its events are not the lead's.
pub fn events_counted(state: &State, lead: &Trace, side: Side, run: &Trace) -> Option<usize> {
    state.page.cursor?;
    let cursor = state.cursor() as usize;
    Some(if side == state.focus() {
        cursor + 1
    } else {
        let time_us = lead.events.get(cursor).map_or(0, |e| e.time_us);
        run.events.partition_point(|e| e.time_us <= time_us)
    })
}

/// Which moment the counters describe: the end of the run, or the cursor (in the run in
/// focus, `lead`). The cursor's time is on the player's status line beside it; left out here,
/// the label reads the same at every stop, so a reader reads it once.
pub fn counts_at_label(state: &State, lead: &Trace) -> String {
    let last = lead.events.len().saturating_sub(1);
    let cursor = state.cursor() as usize;
    match state.page.cursor {
        Some(_) if cursor < last => idemlab_lab::t!("Counts at the cursor (▶| shows the end):"),
        _ => idemlab_lab::t!("Counts at the end of the run:"),
    }
    .into()
}

/// Run A's title while a quiz question hides its run.
pub const HIDDEN_TITLE: &str = "The question's run (hidden)";

/// "A: seed=7&preset=race" and "B: A with dedup=atomic"; the scenario alone when not comparing.
pub fn title(state: &State, side: Side) -> String {
    // A quiz question's scenario would give its answer away (pasted into another tab).
    if let Some(title) = super::build::waiting_title(state) {
        return title;
    }
    if super::run_hidden(state) {
        return idemlab_lab::i18n::tr(HIDDEN_TITLE).into();
    }
    if let Some((a, b)) = quiz_run_names(state) {
        return match (side, b) {
            (Side::B, Some(b)) => idemlab_lab::tf!("B: {}", b),
            (Side::A, Some(_)) => idemlab_lab::tf!("A: {}", a),
            _ => a,
        };
    }
    if let Some((a, b)) = state.run_names() {
        let tr = idemlab_lab::i18n::tr;
        return match (side, b) {
            (Side::B, Some(b)) => idemlab_lab::tf!("B: {}", tr(b)),
            (Side::A, Some(_)) => idemlab_lab::tf!("A: {}", tr(a)),
            _ => tr(a).to_string(),
        };
    }
    let scenario = codec::encode(&state.page.scenario);
    match (side, &state.page.compare) {
        (Side::B, Some(compare)) => idemlab_lab::tf!("B: A with {}", in_words(compare)),
        (Side::A, Some(_)) => format!("A: {scenario}"),
        _ => scenario,
    }
}

/// A row of the attempts table: a request the API received, duplicates kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttemptRow {
    pub row: u32,
    pub pod_uid: Option<u32>,
    pub order: Option<u32>,
    pub attempt: Option<u16>,
    pub key: Option<idemlab_core::trace::Key>,
}

/// A charge the payment service made, and whether the ledger committed a row for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChargeRow {
    pub charge: u32,
    pub order: Option<u32>,
    pub attempt: Option<u16>,
    pub pod_uid: Option<u32>,
    pub committed: bool,
}

/// A receipt the consumer mailed: its queue event, the charge, and which receipt for the event
/// it is (a repeat is a duplicate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceiptRow {
    pub event: u32,
    pub charge: u32,
    pub order: Option<u32>,
    pub nth: u32,
    /// `None` without an inbox; with one, every receipt has its row.
    pub inbox: bool,
}

/// The attempts, charges and receipts tables as they stand after the first `upto` events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    pub attempts: Vec<AttemptRow>,
    pub charges: Vec<ChargeRow>,
    /// `None` when the run has no queue.
    pub receipts: Option<Vec<ReceiptRow>>,
}

/// Folds the tables from the events so far, on typed values.
pub fn tables_at(trace: &Trace, upto: usize) -> Tables {
    let events = &trace.events[..upto.min(trace.events.len())];
    let committed = walk_ledger(events, |_, _, _| {});
    let mut tables = Tables::default();
    for event in events {
        let pod_uid = event.pod().map(|p| trace.pod_uid(p));
        match event.kind {
            EventKind::AttemptRow { row } => tables.attempts.push(AttemptRow {
                row,
                pod_uid,
                order: event.order(),
                attempt: event.attempt(),
                key: event.key,
            }),
            EventKind::Charge {
                number,
                replay: false,
            } => tables.charges.push(ChargeRow {
                charge: number,
                order: event.order(),
                attempt: event.attempt(),
                pod_uid,
                committed: committed.contains(number as usize),
            }),
            _ => {}
        }
    }
    if trace.scenario.consumer != Consumer::Off {
        tables.receipts = Some(receipts(trace, events));
    }
    tables
}

fn receipts(trace: &Trace, events: &[idemlab_core::trace::Event]) -> Vec<ReceiptRow> {
    let inbox = trace.scenario.consumer == Consumer::Inbox;
    let mut rows = Vec::new();
    walk_receipts(events, |ix, id, nth| {
        if let EventKind::Receipt { number, .. } = events[ix].kind {
            rows.push(ReceiptRow {
                event: id,
                charge: number,
                order: events[ix].order(),
                nth,
                inbox,
            });
        }
    });
    rows
}

/// The banner: a heading and one line per problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Banner {
    pub heading: &'static str,
    pub lines: Vec<String>,
}

impl Banner {
    pub fn of(state: &State) -> Option<Banner> {
        let mut lines: Vec<String> = state.errors.iter().map(error_text).collect();
        if let Some((lesson, index)) = state.step_overridden {
            lines.push(idemlab_lab::tf!(
                "This link names lesson {} step {} and sets scenario keys of its own, so its own scenario loaded, not the step's: the step's counts may differ. Press the step's number in the lesson's row of step buttons to load the step's scenario.",
                lesson.id.to_ascii_uppercase(),
                index + 1
            ));
        }
        lines.extend(state.cancelled.clone());
        lines.extend(state.lock_note.clone());
        lines.extend(state.link_dropped.iter().map(|dropped| dropped.text()));
        let version = state.link_version.map(version_note);
        let only_version = lines.is_empty() && version.is_some();
        lines.extend(version);
        if lines.is_empty() {
            return None;
        }
        let heading = match (state.errors.is_empty(), state.errors_from) {
            (true, _) if only_version => {
                idemlab_lab::t!("This link comes from another version of the lab.")
            }
            (true, _) if state.lock_note.is_some() => idemlab_lab::t!("That change is locked."),
            (true, _) if state.step_overridden.is_none() && state.cancelled.is_some() => {
                idemlab_lab::t!("The run was cancelled.")
            }
            (true, _) if state.step_overridden.is_none() && !state.link_dropped.is_empty() => {
                idemlab_lab::t!("The page's link cannot hold all of this page.")
            }
            (true, _) => idemlab_lab::t!("The link's own scenario loaded."),
            (false, ErrorsFrom::LinkRefused) => {
                idemlab_lab::t!("None of the link could be used, so the lab's defaults are shown.")
            }
            (false, ErrorsFrom::Link) => {
                idemlab_lab::t!("Some of the link was not understood; the rest loaded.")
            }
            (false, ErrorsFrom::Control) => {
                idemlab_lab::t!("That value was not accepted; the run is unchanged.")
            }
        };
        Some(Banner { heading, lines })
    }
}

/// What the banner says of a link made with model version `v` (`v=`), not this one.
fn version_note(v: u32) -> String {
    let now = crate::page::MODEL_VERSION;
    if v < now {
        idemlab_lab::tf!("It was made with an older model (version {}; this lab runs version {}), so this run may differ from the one its author saw.", v, now)
    } else {
        idemlab_lab::tf!("It was made with a newer model (version {}; this lab runs version {}), so this run may differ from the one its author saw.", v, now)
    }
}

/// A codec error as the banner says it: the same English as `CodecError`'s `Display` (which
/// the CLI keeps), one template per problem. The key, the value, the key lists and what is
/// allowed are the codec's vocabulary, so they fill the holes untranslated.
pub fn error_text(error: &CodecError) -> String {
    let holes = error.holes();
    let holes: Vec<&dyn std::fmt::Display> = holes.iter().map(|h| h as _).collect();
    idemlab_lab::i18n::fill(idemlab_lab::i18n::tr(error.template()), &holes)
}

/// The seeds a sweep runs: `count` seeds from `first`, never past the largest seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedRange {
    pub first: u64,
    pub count: u64,
    /// The count asked for, within the form's bounds: what the form shows afterwards.
    pub asked: u64,
    /// Why fewer seeds run than were asked for, or than the form said.
    pub note: Option<String>,
}

/// The page's sweep asks for at most this many seeds.
pub const SWEEP_SEEDS_MAX: u64 = 100_000;

/// The sweep's seeds from the scenario's seed and the count typed (1..=100,000, 1,000 when it
/// is not a number). Seeds are 0..=18446744073709551615: from near the top fewer exist, and
/// the note says so rather than running none.
pub fn sweep_range(seed: u64, requested: &str) -> SeedRange {
    let asked = requested.trim().parse::<u64>().unwrap_or(1_000);
    let count = asked.clamp(1, SWEEP_SEEDS_MAX);
    let available = (u64::MAX - seed).saturating_add(1);
    let mut note = (count != asked)
        .then(|| idemlab_lab::tf!("{} seeds (the sweep runs 1..={}).", count, SWEEP_SEEDS_MAX));
    if available < count {
        note = Some(idemlab_lab::tf!(
            "Only {} of the {} seeds asked for exist from seed {}: seeds end at {}.",
            available,
            count,
            seed,
            u64::MAX
        ));
    }
    SeedRange {
        first: seed,
        count: count.min(available),
        asked: count,
        note,
    }
}

/// What "Run this order" says and which run it loads: the first failing run, or the current
/// scenario with the order applied when the order is safe.
pub fn order_outcome(
    order: [Step; 6],
    current: &Scenario,
    verdict: &Verdict,
) -> (String, bool, Scenario) {
    match verdict {
        Verdict::Safe { runs } => {
            let text = idemlab_lab::tf!(
                "{} The timeline shows the same run with your order.",
                ordering::safe_text(order, *runs)
            );
            let mut scenario = current.clone();
            scenario.order = order;
            (text, true, scenario)
        }
        Verdict::Fails(failure) => {
            let scenario = decode(&failure.query)
                .unwrap_or_else(|_| panic!("the judge builds its queries with the codec"))
                .scenario;
            let text = idemlab_lab::tf!(
                "Fails. {}. The timeline now shows that run ({}, seed {}).",
                capitalise(&failure.why),
                idemlab_lab::i18n::tr(failure.probe.name),
                scenario.seed
            );
            (text, false, scenario)
        }
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

/// "3 duplicate charges outlined on timeline B.": what the outline shows, or `None` when off.
pub fn pointer_status(state: &State, a: &Timeline, b: Option<&Timeline>) -> Option<String> {
    let (side, find) = state.highlight?;
    let timeline = match side {
        Side::A => Some(a),
        Side::B => b,
    };
    let count = timeline.map_or(0, |t| t.marks().iter().filter(|m| find.matches(m)).count());
    let what = find.count_text(count);
    Some(match b {
        Some(_) => idemlab_lab::tf!("{} outlined on timeline {}.", what, side.letter()),
        None => idemlab_lab::tf!("{} outlined.", what),
    })
}

/// Keys with their own place in the toolbar rather than in the side panel of controls.
pub const TOOLBAR_KEYS: [&str; 1] = ["seed"];

/// How one scenario control shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlView {
    /// The value in the codec's form.
    pub value: String,
    /// An embed that lists its open controls locks the others.
    pub locked: bool,
    /// ... and hides them, so the embed shows only what the author opened.
    pub hidden: bool,
    /// The banner names this key.
    pub invalid: bool,
}

pub fn control_view(state: &State, spec: &codec::KeySpec) -> ControlView {
    let open = state.page.control_open(spec.name);
    ControlView {
        value: spec.value(&state.page.scenario),
        locked: !open,
        hidden: limits_controls(state) && !open,
        invalid: state.errors.iter().any(|e| e.key == spec.name),
    }
}

fn limits_controls(state: &State) -> bool {
    state.page.embed && state.page.controls.is_some()
}

/// In an embed that opens only some controls, a group with none of them disappears.
pub fn group_hidden(state: &State, group: codec::Group) -> bool {
    let mut keys = (codec::keys().iter())
        .filter(|spec| spec.group == group && !TOOLBAR_KEYS.contains(&spec.name));
    limits_controls(state) && !keys.any(|spec| state.page.control_open(spec.name))
}

/// The counts a lesson step promises, as the learner checks them: "B: Duplicates = 0", or
/// "the run: …" when the step has no B, each called by its card's label (`screen`).
pub fn claim_lines(step: &idemlab_course::lessons::Step) -> Vec<super::ClaimLine> {
    super::screen::claim_lines(step)
}

/// Where a lesson step's navigation leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepNav {
    /// "← Previous step": none on the first step.
    pub previous: Option<usize>,
    /// "Next step →", or on the last step "Take the mastery check →" (`None`).
    pub next: Option<usize>,
    /// The last step also shows the lesson's mastery status.
    pub last: bool,
}

/// The navigation under step `index` of a lesson with `steps` steps.
pub fn step_nav(steps: usize, index: usize) -> StepNav {
    let last = index + 1 >= steps;
    StepNav {
        previous: index.checked_sub(1),
        next: (!last).then_some(index + 1),
        last,
    }
}

/// The Tables tab lists at most this many rows of each table; the caption says how many more.
pub const TABLE_ROWS_MAX: usize = 300;

/// What a table's caption adds when it lists only its first rows: " — first 300 of 412".
pub fn rows_cut_note(rows: usize) -> String {
    if rows > TABLE_ROWS_MAX {
        format!(
            " {}",
            idemlab_lab::tf!("— first {} of {}", TABLE_ROWS_MAX, rows)
        )
    } else {
        String::new()
    }
}

fn or_blank<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// A pod's uid as the tables write it: eight hex digits.
fn pod_text(uid: Option<u32>) -> String {
    uid.map(|u| format!("{u:08x}")).unwrap_or_default()
}

impl AttemptRow {
    /// row, pod, order, attempt, key.
    pub fn cells(&self) -> [String; 5] {
        [
            self.row.to_string(),
            pod_text(self.pod_uid),
            or_blank(self.order),
            or_blank(self.attempt),
            or_blank(self.key),
        ]
    }
}

impl ChargeRow {
    /// charge, order, attempt, pod, committed in the ledger.
    pub fn cells(&self) -> [String; 5] {
        [
            self.charge.to_string(),
            or_blank(self.order),
            or_blank(self.attempt),
            pod_text(self.pod_uid),
            if self.committed {
                idemlab_lab::t!("yes")
            } else {
                idemlab_lab::t!("no")
            }
            .into(),
        ]
    }
}

impl ReceiptRow {
    /// event, charge, order, which receipt for the event, inbox row.
    pub fn cells(&self) -> [String; 5] {
        let nth = match self.nth {
            1 => idemlab_lab::t!("first").into(),
            nth => idemlab_lab::tf!("repeat {} (duplicate)", nth),
        };
        [
            format!("e{}", self.event),
            format!("#{}", self.charge),
            or_blank(self.order),
            nth,
            if self.inbox {
                idemlab_lab::t!("yes")
            } else {
                idemlab_lab::t!("no inbox")
            }
            .into(),
        ]
    }
}

/// One counter of a run's block, named as in `idemlab run`'s JSON (`data-metric`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter {
    pub metric: Metric,
    /// The card's label (`counter_label`); empty from `counters`, filled by `counters_view`.
    pub label: &'static str,
    /// The lesson step names this counter: it is emphasised, and never folded.
    pub named: bool,
    pub value: u32,
    /// The queue's counters show only when the run has a queue (`consumer=plain|inbox`).
    pub shown: bool,
    /// Duplicates and lost work above zero are harm, and marked so.
    pub bad: bool,
}

/// One card of `m`'s count, unlabelled and unnamed; above zero, a harm is marked bad.
fn counter(metric: Metric, m: &Metrics, shown: bool) -> Counter {
    let value = metric.of(m);
    Counter {
        metric,
        label: "",
        named: false,
        value,
        shown,
        bad: metric.harm() && value > 0,
    }
}

/// The counters in the order of the markup (`index.html`, where their labels and help are).
pub fn counters(m: &Metrics, consumer: Consumer) -> [Counter; 16] {
    let queued = consumer != Consumer::Off;
    [
        counter(Metric::Orders, m, true),
        counter(Metric::Attempts, m, true),
        counter(Metric::Received, m, true),
        counter(Metric::Effects, m, true),
        counter(Metric::Duplicates, m, true),
        counter(Metric::Lost, m, true),
        counter(Metric::Races, m, true),
        counter(Metric::Unrecorded, m, true),
        counter(Metric::Ok, m, true),
        counter(Metric::Failed, m, true),
        counter(Metric::Unknown, m, true),
        counter(Metric::InFlight, m, true),
        counter(Metric::Receipts, m, queued),
        counter(Metric::DuplicateReceipts, m, queued),
        counter(Metric::Redeliveries, m, queued),
        counter(Metric::DeadLetters, m, queued),
    ]
}

// BEGIN production counters: after the markup's others, in its order.

/// The production keys' counters, each shown only while a key that can make it count is set, so
/// a run without them shows the cards it always did. A lost event is harm.
pub fn production_counters(m: &Metrics, s: &Scenario) -> [Counter; 8] {
    use idemlab_core::scenario::{Concurrent, Expired, Handler, Lookup, Relay};
    let conflicting = s.concurrent == Concurrent::Conflict || s.handler == Handler::Phased;
    let failing = s.provider_fail > 0 || s.decline > 0;
    let reconciling = s.reconcile_ms.is_some();
    let relaying = s.relay == Relay::Direct && s.consumer != Consumer::Off;
    [
        counter(Metric::Conflicts, m, conflicting),
        counter(Metric::Takeovers, m, s.lease_ms.is_some()),
        counter(Metric::ReplayedFailures, m, failing),
        counter(Metric::RejectedExpired, m, s.expired == Expired::Reject),
        counter(Metric::Lookups, m, s.lookup == Lookup::On),
        counter(Metric::Reconciled, m, reconciling),
        counter(Metric::Refunds, m, reconciling),
        counter(Metric::LostEvents, m, relaying),
    ]
}

// END production counters

/// The preset's one-sentence summary, while the scenario is the preset as it stands (seed
/// aside): a changed key can make the sentence untrue (with `op=set`, lost-ack's "every retry
/// charges again" is false).
pub fn preset_summary(scenario: &Scenario) -> Option<&'static str> {
    let unchanged = codec::encode(scenario).split('&').count() <= 2;
    (scenario.preset)
        .filter(|_| unchanged)
        .map(|p| idemlab_lab::i18n::tr(p.spec().summary))
}

/// The sweep's line: seeds run, totals, the mean effects per order with its standard error,
/// the closed form when the sweep fits it (or why it does not), and the range's note first.
pub fn sweep_summary(job: &super::SweepJob, elapsed_s: f64) -> String {
    let t = &job.totals;
    let of = match job.stopped && !job.finished() {
        true => idemlab_lab::tf!("{} of {} seeds (stopped)", t.runs, job.range.count),
        false => idemlab_lab::tf!("{} of {} seeds", t.runs, job.range.count),
    };
    let mut text = idemlab_lab::tf!(
        "{} in {} s: {} duplicates, in {} runs that had any, {} lost orders, {} races; {} ± {} effects per order",
        of,
        Fixed::<2>(elapsed_s),
        t.duplicates_total,
        t.runs_with_duplicates,
        t.lost_total,
        t.races_total,
        Fixed::<4>(t.effects_mean_per_order()),
        Fixed::<4>(t.effects_stderr()),
    );
    // The formula where its conditions hold, and otherwise the first one that fails: a mean far
    // from a formula shown beside it would read as a fault of the model.
    let formula = match idemlab_lab::sweep::closed_form_of(&job.scenario, &job.totals) {
        Ok(_) => sweep_formula(&job.scenario),
        Err(unfit) => Some(idemlab_lab::tf!(
            "the formula does not apply: {}",
            unfit.why()
        )),
    };
    if let Some(formula) = formula {
        text.push_str(&format!(", {formula}"));
    }
    if let Some(run) = super::sweep_note(job) {
        text = format!("{text}. {run}");
    }
    match &job.range.note {
        Some(note) => format!("{note} {text}"),
        None => text,
    }
}

/// The closed form as the step teaches it, with its value, for the line beside the measured
/// mean: `1 + r + r² + r³ = 1.2480` for three retries (each attempt's answer lost with
/// `r = loss_resp`, so the client sends attempt k+1 with chance r^k, and with no request lost
/// every attempt charges), and the limit `1/(1−r)` with no cap on retries. With requests lost
/// too (`q = loss_req`), an attempt charges with 1−q and goes unanswered with
/// t = 1−(1−q)(1−r), which still tends to 1/(1−r). `None` where `sweep::closed_form` is.
pub fn sweep_formula(scenario: &Scenario) -> Option<String> {
    let expected = idemlab_lab::sweep::closed_form(scenario)?;
    let plain = scenario.loss_req == 0;
    let mut text = String::from(idemlab_lab::t!("formula"));
    text.push_str(if plain { " 1" } else { " (1−q)(1" });
    let last = scenario.retries;
    for k in 1..=last {
        // Three terms, then "…" and the last: retries go up to 20.
        if (4..last).contains(&k) {
            text.push_str(if k == 4 { " + …" } else { "" });
            continue;
        }
        text.push_str(if plain { " + r" } else { " + t" });
        if k >= 10 {
            text.push_str(SUPERSCRIPTS[(k / 10) as usize]);
        }
        if k > 1 {
            text.push_str(SUPERSCRIPTS[(k % 10) as usize]);
        }
    }
    text.push_str(if plain { " = " } else { ") = " });
    text.push_str(&Fixed::<4>(expected).to_string());
    text.push_str(" (r = ");
    text.push_str(&codec::format_ppm(scenario.loss_resp));
    if plain {
        text.push_str(idemlab_lab::t!(", the share of answers lost"));
    } else {
        text.push(' ');
        text.push_str(&idemlab_lab::tf!(
            "of answers and q = {} of requests lost, t = 1−(1−q)(1−r)",
            codec::format_ppm(scenario.loss_req)
        ));
    }
    let r = f64::from(scenario.loss_resp) / f64::from(idemlab_core::scenario::PPM_ONE);
    if r < 1.0 {
        text.push_str(&idemlab_lab::tf!(
            "; with no cap on retries, 1/(1−r) = {}",
            Fixed::<4>(1.0 / (1.0 - r))
        ));
    }
    text.push(')');
    Some(text)
}

const SUPERSCRIPTS: [&str; 10] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"];

/// One bar of the sweep's histogram: how many runs had this many duplicates.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub duplicates: u32,
    pub runs: u64,
    /// Height as a percentage of the tallest bar, at least 1 so that a bar shows.
    pub height_percent: f64,
}

/// The histogram's bars and its text alternative ("Duplicates per run: 0: 90 runs; …").
pub fn histogram(totals: &idemlab_lab::sweep::Sweep) -> (Vec<Bar>, String) {
    let bars = totals.duplicates_histogram.bars();
    let peak = bars.iter().map(|&(_, runs)| runs).max().unwrap_or(1).max(1);
    let mut label = String::from(idemlab_lab::t!("Duplicates per run:"));
    label.push(' ');
    for (duplicates, runs) in bars {
        label.push_str(&idemlab_lab::tf!("{}: {} runs;", duplicates, runs));
        label.push(' ');
    }
    let bars = (bars.iter())
        .map(|&(duplicates, runs)| Bar {
            duplicates,
            runs,
            height_percent: (runs as f64 / peak as f64 * 100.0).max(1.0),
        })
        .collect();
    (bars, label)
}

/// The message type the page posts to its embedder: `{type: "idemlab:height", height}`.
pub const HEIGHT_MESSAGE: &str = "idemlab:height";

/// The embed's permalink query: this state, compact, with only `controls` editable.
pub fn embed_query(
    state: &State,
    controls: Vec<String>,
    height: Option<u32>,
    report: bool,
) -> String {
    let mut state = state.clone();
    // A composed sequence: the link opens its first step, whose scenario it names.
    if let Some(first) = state.compose.first().cloned() {
        state.page.scenario = first.scenario;
        state.page.compare = first.compare;
        state.page.steps = Some(std::mem::take(&mut state.compose));
        state.own_step = Some(0);
        state.lesson = None;
        state.quiz = None;
        if state.tab == super::Tab::Lessons {
            state.tab = super::Tab::Events;
        }
        state.page.cursor = None;
        state.page.zoom = None;
    }
    state.page.embed = true;
    state.page.controls = Some(controls);
    state.page.height = height;
    // As the dialog's box says, which opens ticked on a page whose link reports already.
    state.page.report = report;
    permalink_query(&state)
}

/// The Embed dialog's fixed height, as typed: a whole number of CSS px in `page::HEIGHT_PX`,
/// else none (the snippet sizes itself with its script).
pub fn embed_height(typed: &str) -> Option<u32> {
    let height = typed.trim().parse().ok();
    height.filter(|h| crate::page::HEIGHT_PX.contains(h))
}

/// What the dialog says under a fixed height it cannot use, naming what is allowed; none for
/// an empty field (a frame that sizes itself) or a height it takes.
pub fn embed_height_error(typed: &str) -> Option<String> {
    let typed = typed.trim();
    if typed.is_empty() || embed_height(typed).is_some() {
        return None;
    }
    let range = &crate::page::HEIGHT_PX;
    Some(idemlab_lab::tf!(
        "A fixed height of {} px cannot be used: give a whole number from {} to {}, or leave it empty for a frame that sizes itself. This snippet sizes itself.",
        idemlab_core::scenario::codec::quote(typed),
        range.start(),
        range.end()
    ))
}

/// The link Copy link and the Embed dialog give: the page's own, with this model's `v=`, so
/// that a later version of the lab can tell its reader that the run may have changed.
pub fn permalink_query(state: &State) -> String {
    let query = state.to_query();
    // `v=` is the last key `to_query` writes (a link's older one included): replaced.
    let own = query.split("&v=").next().unwrap_or_default();
    format!("{own}&v={}", crate::page::MODEL_VERSION)
}

/// The address bar's query: the page's own with `v=`, as Copy link gives it, so a link copied
/// from the address bar names its version too. An older link keeps its own `v=` until the
/// scenario changes (a reload keeps its notice); after that, and for a link without one, it is
/// this version's.
pub fn address_query(state: &State) -> String {
    let query = state.to_query();
    match state.page.version {
        Some(_) => query,
        None => format!("{query}&v={}", crate::page::MODEL_VERSION),
    }
}

/// The snippet's `title` until the author edits it: what the frame shows, so that two embeds
/// of different views on one course page are told apart by a screen reader.
pub fn embed_title(state: &State, controls: &[String]) -> String {
    let page = &state.page;
    let open = match controls {
        [] => String::new(),
        keys => format!(" {}", idemlab_lab::tf!("({} editable)", keys.join(", "))),
    };
    // A composed sequence is what the snippet opens, not the view on screen.
    if let Some(first) = state.compose.first() {
        let n = state.compose.len();
        let caption: String = first.caption.chars().take(TITLE_CAPTION_CHARS).collect();
        let count = match n {
            1 => idemlab_lab::t!("1 step").to_string(),
            n => idemlab_lab::tf!("{} steps", n),
        };
        let what = match (caption.as_str(), first.caption.chars().count()) {
            ("", _) => idemlab_lab::tf!("a sequence of {}", count),
            (c, chars) if chars > TITLE_CAPTION_CHARS => idemlab_lab::tf!("{}… ({})", c, count),
            (c, _) => idemlab_lab::tf!("{} ({})", c, count),
        };
        return format!("idemlab: {what}{open}");
    }
    let what = match (&state.quiz, state.lesson) {
        (Some(q), _) => idemlab_lab::tf!(
            "Lesson {} mastery check",
            q.quiz.lesson.to_ascii_uppercase()
        ),
        (None, Some(at)) => idemlab_lab::tf!(
            "Lesson {} step {}",
            at.lesson.id.to_ascii_uppercase(),
            at.index() + 1
        ),
        (None, None) => {
            let preset = page
                .scenario
                .preset
                .map_or(idemlab_lab::t!("a scenario"), |p| p.name());
            idemlab_lab::tf!("{}, seed {}", preset, page.scenario.seed)
        }
    };
    // A step's own B is the step's: its keys would read as code to the learner the title is for.
    let own_runs = state.lesson.is_some() && crate::step_runs_shown(state);
    let compare = match page.compare.as_deref() {
        Some(c) if !own_runs => format!(" {}", idemlab_lab::tf!("vs {}", c)),
        _ => String::new(),
    };
    format!("idemlab: {what}{compare}{open}")
}

/// A composed sequence's title gives this much of step 1's caption.
const TITLE_CAPTION_CHARS: usize = 40;

/// How a snippet sizes its frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizing {
    /// `height=`: this many CSS px, and no script.
    Fixed(u32),
    /// The view's height measured at each of `WIDTH_CLASSES`' widths: the frame starts at its
    /// class's, so the course page does not move when the lab's first height arrives.
    Measured([u32; WIDTH_CLASSES.len()]),
    /// Not measured (yet, or the measuring failed): the frame starts at `EMBED_HEIGHT_PX`.
    Unmeasured,
}

/// The frame widths a snippet tells apart, narrowest first: a frame up to `up_to_px` wide starts
/// at the height measured at `measure_px`. The bounds are the stylesheet's (480 and 900 px).
pub const WIDTH_CLASSES: [WidthClass; 3] = [
    WidthClass {
        up_to_px: 480,
        measure_px: 375,
    },
    WidthClass {
        up_to_px: 900,
        measure_px: 700,
    },
    WidthClass {
        up_to_px: u32::MAX,
        measure_px: 1000,
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WidthClass {
    pub up_to_px: u32,
    pub measure_px: u32,
}

/// A measured height the snippet can use: the same bounds as its script's messages.
pub fn measured_height_px(height_px: f64) -> Option<u32> {
    let valid =
        height_px.is_finite() && height_px > 0.0 && height_px < f64::from(FRAME_HEIGHT_MAX_PX);
    valid.then(|| height_px.ceil() as u32)
}

/// The tallest height a snippet's script gives its frame, from a measure or a message.
pub const FRAME_HEIGHT_MAX_PX: u32 = 20_000;

/// The iframe and the script that sizes it. Every snippet carries the same script, guarded so
/// that a page with many embeds registers one listener; it sizes the `data-idemlab` frame whose
/// window sent the message, and trusts no other sender. Measured heights start each frame at
/// its width class's (`data-heights`, narrowest first), before the lab has loaded. On paper each
/// frame is a page at most (`100vh` is the page's height then), so none is cut at a page's foot;
/// the lab fits its handout into it. With a fixed
/// height (whose `height=` the URL carries, so the lab fits itself into it) there is no script:
/// a platform that strips scripts loses nothing.
pub fn embed_snippet(url: &str, title: &str, sizing: Sizing) -> String {
    let attr =
        |text: &str| (text.replace('&', "&amp;").replace('"', "&quot;")).replace('<', "&lt;");
    let (src, title) = (attr(url), attr(title));
    let (height, heights) = match sizing {
        Sizing::Fixed(px) => (px, None),
        // Where the script is stripped, the widest class's: the lab scrolls inside a short one.
        Sizing::Measured(px) => (px[WIDTH_CLASSES.len() - 1], Some(px)),
        Sizing::Unmeasured => (EMBED_HEIGHT_PX, None),
    };
    let data = heights.map_or(String::new(), |px| {
        let px: Vec<String> = px.iter().map(u32::to_string).collect();
        format!(r#" data-heights="{}""#, px.join(" "))
    });
    let frame = format!(
        r#"<iframe data-idemlab{data} src="{src}" title="{title}" style="width:100%;border:0;height:{height}px" allow="clipboard-write" loading="lazy"></iframe>"#,
    );
    if let Sizing::Fixed(_) = sizing {
        return frame;
    }
    let [narrow, middle, _] = WIDTH_CLASSES.map(|class| class.up_to_px);
    format!(
        r#"{frame}
<script>
  document.querySelectorAll("iframe[data-heights]").forEach(function (frame) {{
    if (frame.idemlabStarted) return;
    var width = frame.getBoundingClientRect().width, heights = frame.dataset.heights.split(" ");
    frame.idemlabStarted = frame.style.height = heights[width <= {narrow} ? 0 : width <= {middle} ? 1 : 2] + "px";
  }});
  window.idemlabPrint || ["beforeprint", "afterprint"].forEach(function (type) {{
    addEventListener(type, window.idemlabPrint = function (event) {{
      document.querySelectorAll("iframe[data-idemlab]").forEach(function (frame) {{
        frame.style.maxHeight = event.type === "beforeprint" ? "100vh" : "";
      }});
    }});
  }});
  window.idemlabSize || addEventListener("message", window.idemlabSize = function (event) {{
    var height = event.data && event.data.type === "{HEIGHT_MESSAGE}" && Number(event.data.height);
    if (!(height > 0 && height < {FRAME_HEIGHT_MAX_PX})) return;
    document.querySelectorAll("iframe[data-idemlab]").forEach(function (frame) {{
      if (frame.contentWindow === event.source) frame.style.height = Math.ceil(height) + "px";
    }});
  }});
</script>"#
    )
}

/// The snippet's first height before it is measured, and where its script is stripped (the lab
/// then scrolls inside).
pub const EMBED_HEIGHT_PX: u32 = 600;

/// How the page applies `theme=`: the media text the stylesheet's `prefers-color-scheme: dark`
/// rules get (their own for auto or no key, `all` for dark, `not all` for light) and the root's
/// `color-scheme`, so that a dark embed in a light browser is dark. Back or Forward to a link
/// of another theme applies its rules over the last ones (`is_theme_media` finds them).
pub fn theme_rules(theme: Option<Theme>) -> (&'static str, &'static str) {
    match theme {
        None | Some(Theme::Auto) => (THEME_MEDIA[0], "light dark"),
        Some(Theme::Light) => (THEME_MEDIA[1], "light"),
        Some(Theme::Dark) => (THEME_MEDIA[2], "dark"),
    }
}

/// Every media text a dark rule of the stylesheet may have: auto's (the stylesheet's own),
/// light's and dark's.
pub const THEME_MEDIA: [&str; 3] = ["(prefers-color-scheme: dark)", "not all", "all"];

/// Whether a stylesheet rule with this media text is one of the theme's dark rules.
pub fn is_theme_media(text: &str) -> bool {
    THEME_MEDIA.contains(&text)
}

/// What Copy shows once the clipboard has answered: "Copied" only when the write's promise
/// resolved; else (blocked, as in a frame without `allow="clipboard-write"`, or no clipboard
/// at all) the button says so and the text waits, selected, in a field to copy by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyView {
    pub label: &'static str,
    pub show_field: bool,
}

pub fn copy_view(written: bool) -> CopyView {
    match written {
        true => CopyView {
            label: idemlab_lab::t!("Copied"),
            show_field: false,
        },
        false => CopyView {
            label: idemlab_lab::t!("Not copied"),
            show_field: true,
        },
    }
}

/// What a timeline draws over its marks: the cursor line at the time of the cursor's event in
/// the run in focus (`lead`); marks after that time faded, except on the other run while the
/// cursor is at the end (its later events have happened too); the selected event outlined on
/// the run in focus only (the event table's row: the other run's events are not the lead's);
/// and a lesson phrase's outline on its own side only. While a step waits for its prediction
/// (`State::awaiting`) both runs are cut at the held cursor: nothing later is drawn at all.
pub fn overlay(state: &State, lead: &Trace, side: Side) -> idemlab_lab::view::Overlay {
    let cursor_us = lead
        .events
        .get(state.cursor() as usize)
        .map_or(0, |e| e.time_us);
    let in_focus = side == state.focus();
    let fade_after_us = match (in_focus, state.page.cursor) {
        (false, None) => u64::MAX,
        _ => cursor_us,
    };
    idemlab_lab::view::Overlay {
        cursor_us: Some(cursor_us),
        fade_after_us: Some(fade_after_us),
        selected_event: state.page.cursor.filter(|_| in_focus),
        highlight: (state.highlight).and_then(|(on, find)| (on == side).then_some(find)),
        cut_after_us: state.awaiting().then_some(cursor_us),
        lane_px: None,
        labelled: labelled(state, side),
    }
}

/// A lesson step's run of more orders than this labels only what the step points at.
pub const LABELLED_ORDERS_MAX: u32 = 10;

/// What a step about many orders points at on run `side`: its answer's proof, else its first
/// phrase that names marks there; `None` (every label) on other steps and outside lessons.
fn labelled(state: &State, side: Side) -> Option<idemlab_lab::view::Find> {
    let step = crate::view::predict::step_on_screen(state)?;
    // A's count decides for both runs: no step's fix changes the workload, and reading B's
    // would decode its keys on every paint.
    if state.page.scenario.orders <= LABELLED_ORDERS_MAX {
        return None;
    }
    let proof = std::iter::once(&step.predict.proof);
    let pointer = proof.chain(step.pointers).find(|p| p.side == side)?;
    Some(pointer.find)
}
