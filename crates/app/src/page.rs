//! The page's whole state as a permalink: the scenario, the compare configuration, the cursor
//! and the view options. Pure, so the round trip is tested natively; the web layer only reads
//! and writes `location`.
//!
//! The scenario keys go through the scenario codec as they are. The page's own keys are:
//! - `compare=KEYS`: configuration B, as keys applied over A (`compare=dedup%3Datomic`);
//! - `cursor=N`: the playback cursor, an event index of the run in focus (absent means "the
//!   end"); `focus=b`: while comparing, run B is in focus (its events are the cursor's, and
//!   the status line, Tables and Sweep follow it); absent means A;
//! - `embed=1`: the compact view for iframes; `controls=a,b,c`: the only editable controls;
//! - `tab=events|tables|sweep|lessons`, `speed=N` (events per second), `zoom=T0..T1` (µs);
//! - `theme=auto|light|dark`: the colour scheme (`app::theme_rules` says how the page applies
//!   it); `sweep=N` (seeds, 1..=100000), checked and kept;
//! - `lesson=ID`, `step=N` (1-based, within the lesson) and `quiz=SEED` (the mastery check's
//!   seed), for the Lessons tab;
//! - `keys=1`: the key-store panel beside the timeline is open.
//! - `gate=0|1`: whether a lesson step waits for its prediction's answer before it shows its
//!   run and lets "Next step" go on (default 1; an instructor's link may turn it off).
//! - `report=parent` or `report=ORIGIN` (`https://course.example`): the embed posts the
//!   learner's results to its parent (`app::report`), to that origin only when named;
//!   `hide=a,b` (of `PARTS`): parts of the page an embed leaves out; `v=N`: the model version
//!   the link was made with (`MODEL_VERSION`), so an older link gets a notice.
//! - `steps=LINES`: an instructor's own steps (`crate::steps`), with `step=N` the one shown;
//! - `height=N`: the frame's fixed height in CSS px (`HEIGHT_PX`): the page fits itself into
//!   it, for a snippet whose sizing script a course platform strips.
//! - `lang=NAME`: the language of the page's words (`idemlab_lab::i18n`), read when the page loads.
//! - `build=client,api,payment,db`: the finale's task is open, with the parts listed added
//!   (`idemlab_course::build`); the client is always there.
//!
//! Every value is parsed into a typed field once, here (or, for `compare`, decoded), and
//! `controls` keeps each name once, so what `to_query` writes is bounded and loads again. No
//! key is kept as text: the codec passes only its `VIEW_KEYS` to the page, and each has a field.

use idemlab_core::scenario::codec::{self, CodecError, Problem};
use idemlab_core::scenario::{decode_lenient, encode, Scenario};
use idemlab_course::build::{Part, Parts};
use idemlab_course::lessons::{Lesson, Side, LESSONS};

/// Playback speeds offered, in events per second.
pub const SPEEDS: [u32; 5] = [2, 5, 10, 25, 100];

/// The page's tabs, in the order of the tab bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Events,
    Tables,
    Sweep,
    Lessons,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::Events, Tab::Tables, Tab::Sweep, Tab::Lessons];

    /// The `tab=` value and the suffix of its element ids (`tab-events`, `panel-events`).
    pub fn name(self) -> &'static str {
        match self {
            Tab::Events => "events",
            Tab::Tables => "tables",
            Tab::Sweep => "sweep",
            Tab::Lessons => "lessons",
        }
    }

    pub fn from_name(name: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|tab| tab.name() == name)
    }
}

/// What a link opens besides its runs: a tab, a lesson and its step, a check. `State` keeps
/// them as its own `tab`, `lesson` and `quiz`, and gives them back to `to_query`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opens {
    pub tab: Tab,
    pub lesson: Option<&'static Lesson>,
    /// `step=`, 1-based; within `lesson` when both are given.
    pub step: Option<u8>,
    /// `quiz=`: the mastery check's seed.
    pub quiz: Option<u64>,
    /// `build=`: the finale's task, with these parts added.
    pub build: Option<Parts>,
}

impl Default for Opens {
    fn default() -> Self {
        Opens {
            tab: Tab::Events,
            lesson: None,
            step: None,
            quiz: None,
            build: None,
        }
    }
}

impl Opens {
    /// Sets the field of one of the view keys it holds, or says it holds none of that name.
    fn set_key(&mut self, key: &str, value: &str) -> Option<Result<(), Problem>> {
        let set = match key {
            // Checked here so that a bad seed in an instructor's link is reported in the banner
            // instead of silently ignored.
            "quiz" => quiz_seed(value).map(|seed| self.quiz = Some(seed)),
            "lesson" => lesson_named(value).map(|lesson| self.lesson = Some(lesson)),
            "step" => step_number(value).map(|step| self.step = Some(step)),
            "tab" => tab_named(value).map(|tab| self.tab = tab),
            "build" => parts_named(value).map(|parts| self.build = Some(parts)),
            _ => return None,
        };
        Some(set)
    }

    /// `step=` past the end of the `lesson=` it names: each key alone was fine, together they
    /// are not. The step is dropped and reported.
    fn step_beyond_lesson(&mut self) -> Option<CodecError> {
        let (lesson, step) = (self.lesson?, self.step?);
        if usize::from(step) <= lesson.steps.len() {
            return None;
        }
        let value = step.to_string();
        self.step = None;
        Some(CodecError {
            key: "step".into(),
            value: codec::quote(&value),
            problem: Problem::Malformed {
                allowed: idemlab_lab::tf!(
                    "a step of lesson {}, 1..={}",
                    lesson.id,
                    lesson.steps.len()
                ),
            },
        })
    }
}

/// `theme=`: the colour scheme; `auto` follows the system's.
pub const THEMES: [&str; 3] = ["auto", "light", "dark"];
/// `hide=`: the parts of the page an embed may leave out: the tab bar, the side column (the
/// controls or the lesson), the Compare box, the counters, the export buttons, Copy link.
pub const PARTS: [&str; 6] = ["tabs", "side", "compare", "counters", "export", "link"];
pub use idemlab_core::MODEL_VERSION;
/// `height=`: the fixed frame heights a compact embed fits itself into, in CSS px.
pub const HEIGHT_PX: std::ops::RangeInclusive<u32> = 320..=4000;
/// The longest query the page writes: what it reads (`QUERY_LEN_MAX`), less the `?` the
/// address bar puts before it and room for the `&v=` that `permalink_query` and
/// `address_query` add, so that every link the page writes loads.
pub const WRITTEN_LEN_MAX: usize = codec::QUERY_LEN_MAX - "?".len() - "&v=4294967295".len();

/// The events a page holds over its two runs together. Each run may ask for up to this many
/// (`bounds::EVENTS_MAX`), but two such runs and their timelines take about twice the 150 MiB
/// of wasm memory a page may use.
pub const PAGE_EVENTS_MAX: u32 = idemlab_core::scenario::bounds::EVENTS_MAX.1;

/// A's and B's event caps as the page runs them: their own while they sum to at most
/// `PAGE_EVENTS_MAX`; otherwise a side that asks for at most half keeps its own and the other
/// gets the rest, and two that ask for more get half each.
pub fn share_events(a: u32, b: u32) -> (u32, u32) {
    if a.saturating_add(b) <= PAGE_EVENTS_MAX {
        return (a, b);
    }
    let half = PAGE_EVENTS_MAX / 2;
    if a <= b {
        let a = a.min(half);
        (a, b.min(PAGE_EVENTS_MAX - a))
    } else {
        let b = b.min(half);
        (a.min(PAGE_EVENTS_MAX - b), b)
    }
}

/// Says that run `side` stops at `events_max`, lowered by `share_events`.
pub fn shared_events_note(side: Side, events_max: u32) -> String {
    idemlab_lab::tf!(
        "Run {} stops at {} events: a compare link's two runs share {} (events_max).",
        side.letter(),
        crate::computing::grouped(events_max),
        crate::computing::grouped(PAGE_EVENTS_MAX)
    )
}

/// What `PageState::fit` left out of a link too long for `WRITTEN_LEN_MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dropped {
    /// Own steps after the first `kept` of `of` (all of them when `kept` is 0).
    Steps { kept: usize, of: usize },
    /// The compare keys: run B.
    Compare,
}

impl Dropped {
    /// The banner's sentence for it.
    pub fn text(self) -> String {
        let max = WRITTEN_LEN_MAX;
        match self {
            Dropped::Steps { kept: 0, of } => idemlab_lab::tf!(
                "The page's link would be longer than the {} bytes a link may have, so it leaves out all {} own steps (steps=).",
                max,
                of
            ),
            Dropped::Steps { kept, of } => idemlab_lab::tf!(
                "The page's link would be longer than the {} bytes a link may have, so it leaves out own steps {} to {} (steps=) and keeps steps 1 to {}.",
                max,
                kept + 1,
                of,
                kept
            ),
            Dropped::Compare => idemlab_lab::tf!(
                "The page's link would be longer than the {} bytes a link may have, so it leaves out the compare keys (compare=): run B.",
                max
            ),
        }
    }
}

/// `sweep=`: how many seeds the Sweep tab runs, at most what its panel allows.
pub const SWEEP_SEEDS_MAX: u64 = 100_000;

/// `theme=`: the colour scheme the link asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Theme {
    Auto,
    Light,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Auto, Theme::Light, Theme::Dark];

    pub fn name(self) -> &'static str {
        THEMES[self as usize]
    }

    pub fn from_name(name: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|theme| theme.name() == name)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageState {
    pub scenario: Scenario,
    /// Keys over A that make configuration B, in the codec's syntax; empty when not comparing.
    pub compare: Option<String>,
    pub cursor: Option<u32>,
    pub embed: bool,
    /// The controls left editable in an embed; `None` means all of them.
    pub controls: Option<Vec<String>>,
    pub speed: u32,
    /// The visible time window in microseconds, when zoomed.
    pub zoom: Option<(u64, u64)>,
    /// `theme=`, kept as given (`theme=auto` too), so a link keeps what it said.
    pub theme: Option<Theme>,
    /// `sweep=`: seeds for the Sweep tab, 1..=`SWEEP_SEEDS_MAX`.
    pub sweep: Option<u64>,
    /// `focus=a|b`: the run the cursor, the status line, Tables and Sweep follow.
    pub focus: Side,
    /// `keys=1`: the key-store panel is open.
    pub keys: bool,
    /// `gate=`: a lesson step waits for its prediction (`true`, the default, written only off).
    pub gate: bool,
    /// `report=parent` (or an origin): results are posted to the parent frame.
    pub report: bool,
    /// `report=ORIGIN`: the course page's origin, the only target the page posts to.
    pub report_origin: Option<String>,
    /// `hide=`: the parts left out, bit `i` for `PARTS[i]` (a bit set: each once, in order,
    /// with no sort linked into the page).
    pub hide: u8,
    /// `height=`: the frame's fixed height (`HEIGHT_PX`), which the page fits itself into.
    pub height: Option<u32>,
    /// `steps=`: an instructor's own sequence of steps (`crate::steps`).
    pub steps: Option<Vec<crate::steps::OwnStep>>,
    /// `v=`: the model version the link was made with.
    pub version: Option<u32>,
    /// `lang=`: the language of the page's words, kept as given so a link keeps what it said.
    pub lang: Option<idemlab_lab::i18n::Lang>,
}

impl Default for PageState {
    fn default() -> Self {
        PageState {
            scenario: Scenario::default(),
            compare: None,
            cursor: None,
            embed: false,
            controls: None,
            speed: 10,
            zoom: None,
            theme: None,
            sweep: None,
            focus: Side::A,
            keys: false,
            gate: true,
            report: false,
            report_origin: None,
            hide: 0,
            height: None,
            steps: None,
            version: None,
            lang: None,
        }
    }
}

impl PageState {
    /// Reads a page query. Bad keys are reported and skipped; everything else still loads.
    pub fn from_query(query: &str) -> (PageState, Opens, Vec<CodecError>) {
        let (decoded, mut errors) = decode_lenient(query);
        let mut page = PageState {
            scenario: decoded.scenario,
            ..PageState::default()
        };
        let mut opens = Opens::default();
        for (key, value) in decoded.view {
            let set =
                (opens.set_key(&key, &value)).unwrap_or_else(|| page.set_view_key(&key, &value));
            if let Err(problem) = set {
                errors.push(CodecError {
                    key,
                    value: codec::quote(&value),
                    problem,
                });
            }
        }
        if let Some(error) = opens.step_beyond_lesson() {
            errors.push(error);
        }
        if let Some(compare) = &page.compare {
            if let Err(mut compare_errors) = page.compare_errors(compare) {
                errors.append(&mut compare_errors);
                page.compare = None;
            }
        }
        (page, opens, errors)
    }

    /// Sets the field of one view key (one of the codec's `VIEW_KEYS`) from its value.
    fn set_view_key(&mut self, key: &str, value: &str) -> Result<(), Problem> {
        match key {
            "compare" => self.compare = Some(value.to_string()),
            "cursor" => self.cursor = Some(cursor_index(value)?),
            "embed" => self.embed = flag(value)?,
            "lang" => self.lang = Some(lang_named(value)?),
            // Checked, so that a misspelt theme is reported rather than ignored.
            "theme" => self.theme = Some(theme_named(value)?),
            "sweep" => self.sweep = Some(sweep_seeds(value)?),
            "controls" => self.controls = Some(control_names(value)?),
            "focus" => self.focus = focus_side(value)?,
            "keys" => self.keys = flag(value)?,
            "gate" => self.gate = gate_flag(value)?,
            "report" => {
                self.report_origin = report_to(value)?;
                self.report = true;
            }
            "hide" => self.hide = hidden_parts(value)?,
            "height" => self.height = Some(frame_height(value)?),
            "steps" => self.steps = Some(own_steps(value)?),
            "v" => self.version = Some(model_version(value)?),
            "speed" => {
                self.speed = parse_speed(value).ok_or_else(|| malformed(&speeds_allowed()))?
            }
            "zoom" => self.zoom = Some(zoom_window(value)?),
            // The codec passes only its `VIEW_KEYS`, each handled above or by `Opens`.
            _ => unreachable!("view key `{key}` has no field in PageState"),
        }
        Ok(())
    }

    /// The scenario of configuration B: A's scenario with the compare keys applied on top.
    pub fn compare_scenario(&self) -> Option<Scenario> {
        let compare = self.compare.as_ref()?;
        Some(self.apply_compare(compare).0)
    }

    /// The scenarios the page runs: A, and B when comparing, their `events_max` shared so
    /// that the two together hold at most `PAGE_EVENTS_MAX` events (`share_events`).
    pub fn runs(&self) -> (Scenario, Option<Scenario>) {
        let mut a = self.scenario.clone();
        let Some(mut b) = self.compare_scenario() else {
            return (a, None);
        };
        (a.events_max, b.events_max) = share_events(a.events_max, b.events_max);
        (a, Some(b))
    }

    /// The cap `share_events` lowered run `side`'s `events_max` to, when it did: what the page
    /// says above the run's counters and the CLI on stderr.
    pub fn shared_cut(&self, side: Side) -> Option<u32> {
        let asked = (
            self.scenario.events_max,
            self.compare_scenario()?.events_max,
        );
        let kept = share_events(asked.0, asked.1);
        let (asked, kept) = match side {
            Side::A => (asked.0, kept.0),
            Side::B => (asked.1, kept.1),
        };
        (kept < asked).then_some(kept)
    }

    /// A's scenario with each compare pair set on top of it, key by key, so that B may change
    /// a key A sets too (A `dedup=naive`, B `dedup=atomic`). A `preset=NAME` pair, then a
    /// `contract=NAME` pair, come first wherever they stand, as in a link: A's query under that
    /// preset or contract, the keys A set by hand winning.
    fn apply_compare(&self, compare: &str) -> (Scenario, Vec<CodecError>) {
        let mut scenario = self.scenario.clone();
        let mut errors = Vec::new();
        let pairs = compare.split('&').filter(|pair| !pair.is_empty());
        let pairs = pairs.map(|pair| pair.split_once('=').unwrap_or((pair, "")));
        let (presets, pairs): (Vec<_>, Vec<_>) = pairs.partition(|(key, _)| *key == "preset");
        // Once, as in a link: which of two presets to believe is not ours to guess.
        if let [_, (_, value), ..] = presets.as_slice() {
            errors.push(compare_error("preset", value, Problem::Repeated));
            return (scenario, errors);
        }
        for (_, value) in presets {
            match idemlab_core::scenario::Preset::from_name(value) {
                Some(preset) => match under_preset(&scenario, preset) {
                    Ok(under) => scenario = under,
                    Err(found) => errors.extend(found.into_iter().map(in_compare)),
                },
                None => errors.push(compare_error(
                    "preset",
                    value,
                    Problem::Malformed {
                        allowed: codec::preset_allowed(),
                    },
                )),
            }
        }
        let (contracts, keys): (Vec<_>, Vec<_>) =
            pairs.into_iter().partition(|(key, _)| *key == "contract");
        for (_, value) in contracts {
            let contract = idemlab_core::scenario::Contract::from_name(value);
            match contract.map(|c| codec::decode_under(&encode(&scenario), Some(c))) {
                Some(Ok(under)) => scenario = under.scenario,
                _ => errors.push(compare_error(
                    "contract",
                    value,
                    Problem::Malformed {
                        allowed: codec::contract_allowed(),
                    },
                )),
            }
        }
        for (key, value) in keys {
            if let Err(error) = codec::set_key(&mut scenario, key, value) {
                errors.push(in_compare(error));
            }
        }
        (scenario, errors)
    }

    fn compare_errors(&self, compare: &str) -> Result<(), Vec<CodecError>> {
        let (_, errors) = self.apply_compare(compare);
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// The permalink query: the canonical scenario, then the page keys that differ from the
    /// defaults, in a fixed order. Never longer than `WRITTEN_LEN_MAX`: a state too long for
    /// it is written as `fit` leaves it (`State` fits itself first, so that the page says so).
    pub fn to_query(&self, opens: &Opens) -> String {
        let query = self.query_unfitted(opens);
        if query.len() <= WRITTEN_LEN_MAX {
            return query;
        }
        let (mut page, mut opens) = (self.clone(), *opens);
        page.fit(&mut opens);
        page.query_unfitted(&opens)
    }

    /// Leaves out of the state what its link cannot hold within `WRITTEN_LEN_MAX`, and says
    /// what: own steps from the last (keeping the one `opens` shows while that is enough),
    /// then all of them, then the compare. The rest of a link is bounded well below the limit.
    pub fn fit(&mut self, opens: &mut Opens) -> Vec<Dropped> {
        let mut dropped: Vec<Dropped> = Vec::new();
        let of = self.steps.as_ref().map_or(0, Vec::len);
        while self.query_unfitted(opens).len() > WRITTEN_LEN_MAX {
            let shown = opens.step.filter(|_| opens.lesson.is_none());
            let keep = usize::from(shown.unwrap_or(1));
            if let Some(steps) = self.steps.as_mut().filter(|s| s.len() > keep) {
                steps.pop();
                let kept = steps.len();
                dropped.retain(|d| !matches!(d, Dropped::Steps { .. }));
                dropped.push(Dropped::Steps { kept, of });
            } else if self.steps.is_some() {
                self.steps = None;
                if opens.lesson.is_none() {
                    opens.step = None;
                }
                dropped.retain(|d| !matches!(d, Dropped::Steps { .. }));
                dropped.push(Dropped::Steps { kept: 0, of });
            } else if self.compare.is_some() {
                (self.compare, self.focus) = (None, Side::A);
                dropped.push(Dropped::Compare);
            } else {
                break;
            }
        }
        dropped
    }

    fn query_unfitted(&self, opens: &Opens) -> String {
        let mut out = encode(&self.scenario);
        let mut push = |key: &str, value: &str| {
            out.push('&');
            out.push_str(key);
            out.push('=');
            out.push_str(&codec::percent_encode(value));
        };
        self.push_view_keys(opens.tab, &mut push);
        self.push_lesson_and_embed_keys(opens, &mut push);
        out
    }

    /// `to_query`'s keys of the runs and how they are shown: compare, focus, cursor, embed,
    /// controls, tab, speed, zoom, theme, lang and sweep, in that order.
    fn push_view_keys(&self, tab: Tab, push: &mut impl FnMut(&str, &str)) {
        if let Some(compare) = &self.compare {
            push("compare", compare);
        }
        // B can be in focus only while comparing; without B the key would mean nothing.
        if self.compare.is_some() && self.focus == Side::B {
            push("focus", "b");
        }
        if let Some(cursor) = self.cursor {
            push("cursor", &cursor.to_string());
        }
        if self.embed {
            push("embed", "1");
        }
        if let Some(controls) = &self.controls {
            push("controls", &controls.join(","));
        }
        if tab != Tab::Events {
            push("tab", tab.name());
        }
        if self.speed != PageState::default().speed {
            push("speed", &self.speed.to_string());
        }
        if let Some((t0, t1)) = self.zoom {
            push("zoom", &format!("{t0}..{t1}"));
        }
        if let Some(theme) = self.theme {
            push("theme", theme.name());
        }
        if let Some(lang) = self.lang {
            push("lang", lang.name());
        }
        if let Some(seeds) = self.sweep {
            push("sweep", &seeds.to_string());
        }
    }

    /// `to_query`'s keys of the Lessons tab, the key panel and the embed: lesson, step, quiz,
    /// keys, gate, report, hide, height, steps and v, in that order.
    fn push_lesson_and_embed_keys(&self, opens: &Opens, push: &mut impl FnMut(&str, &str)) {
        if let Some(lesson) = opens.lesson {
            push("lesson", lesson.id);
        }
        if let Some(step) = opens.step {
            push("step", &step.to_string());
        }
        if let Some(seed) = opens.quiz {
            push("quiz", &seed.to_string());
        }
        if let Some(parts) = opens.build {
            push("build", &parts.value());
        }
        if self.keys {
            push("keys", "1");
        }
        if !self.gate {
            push("gate", "0");
        }
        if self.report {
            push("report", self.report_origin.as_deref().unwrap_or("parent"));
        }
        if self.hide != 0 {
            let names: Vec<&str> = PARTS.into_iter().filter(|p| self.hides(p)).collect();
            push("hide", &names.join(","));
        }
        if let Some(height) = self.height {
            push("height", &height.to_string());
        }
        if let Some(steps) = &self.steps {
            push("steps", &crate::steps::write(steps));
        }
        // Last: `app::permalink_query` swaps it for this version's.
        if let Some(version) = self.version {
            push("v", &version.to_string());
        }
    }

    /// Whether `hide=` leaves out this part (one of `PARTS`).
    pub fn hides(&self, part: &str) -> bool {
        (PARTS.iter().position(|p| *p == part)).is_some_and(|i| self.hide & 1 << i != 0)
    }

    /// Whether a control may be edited: all of them, unless an embed lists the open ones.
    pub fn control_open(&self, key: &str) -> bool {
        self.controls
            .as_ref()
            .is_none_or(|open| open.iter().any(|k| k == key))
    }
}

/// A codec error met inside `compare=`, named as such (`compare: dedup`).
fn in_compare(error: CodecError) -> CodecError {
    CodecError {
        key: format!("compare: {}", error.key),
        ..error
    }
}

/// An error of the compare value's own `key` (`preset`, `contract`), its value quoted.
fn compare_error(key: &str, value: &str, problem: Problem) -> CodecError {
    in_compare(CodecError {
        key: key.into(),
        value: codec::quote(value),
        problem,
    })
}

/// `scenario` as its link would load under `preset` instead of its own: the preset's values,
/// then its contract's, then the keys its link sets by hand.
fn under_preset(
    scenario: &Scenario,
    preset: idemlab_core::scenario::Preset,
) -> Result<Scenario, Vec<CodecError>> {
    let query = encode(scenario);
    let kept = query.split('&').filter(|pair| !pair.starts_with("preset="));
    let query = format!(
        "{}&preset={}",
        kept.collect::<Vec<_>>().join("&"),
        preset.name()
    );
    idemlab_core::scenario::decode(&query).map(|decoded| decoded.scenario)
}

// The view keys' values, one function a key, in the order `set_view_key` lists them (which is
// the order of their words in `lang/en.txt`).

/// A value not among those allowed, `allowed` saying which are.
fn malformed(allowed: &str) -> Problem {
    Problem::Malformed {
        allowed: allowed.into(),
    }
}

/// `cursor=`: an event index.
fn cursor_index(value: &str) -> Result<u32, Problem> {
    (value.parse()).map_err(|_| malformed(idemlab_lab::t!("an event index, a whole number")))
}

/// `embed=`, `keys=`: 1 or 0, also true or false.
fn flag(value: &str) -> Result<bool, Problem> {
    match value {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        _ => Err(malformed(idemlab_lab::t!("1 or 0 (also true/false)"))),
    }
}

fn lang_named(value: &str) -> Result<idemlab_lab::i18n::Lang, Problem> {
    let lang = idemlab_lab::i18n::Lang::from_name(value);
    let names = idemlab_lab::i18n::Lang::names().join("|");
    let allowed = || idemlab_lab::tf!("one of {}", names);
    lang.ok_or_else(|| malformed(&allowed()))
}

fn theme_named(value: &str) -> Result<Theme, Problem> {
    let theme = Theme::from_name(value);
    theme.ok_or_else(|| malformed(&idemlab_lab::tf!("one of {}", THEMES.join("|"))))
}

/// `sweep=`: a seed count, 1..=`SWEEP_SEEDS_MAX`.
fn sweep_seeds(value: &str) -> Result<u64, Problem> {
    let seeds = value.parse::<u64>().ok();
    let seeds = seeds.filter(|seeds| (1..=SWEEP_SEEDS_MAX).contains(seeds));
    let allowed = idemlab_lab::tf!("a seed count, a whole number 1..={}", SWEEP_SEEDS_MAX);
    seeds.ok_or_else(|| malformed(&allowed))
}

/// `controls=`: scenario key names, each once.
fn control_names(value: &str) -> Result<Vec<String>, Problem> {
    let names: Vec<String> = value
        .split(',')
        .filter(|n| !n.is_empty())
        .map(String::from)
        .collect();
    let known = |name: &String| codec::key_names().any(|k| k == name);
    if let Some(bad) = names.iter().find(|name| !known(name)) {
        let allowed = idemlab_lab::tf!(
            "a comma-separated list of scenario keys; `{}` is not one",
            codec::quote(bad)
        );
        return Err(Problem::Malformed { allowed });
    }
    // Each name once, so that the link the page writes back stays short.
    let mut unique: Vec<String> = Vec::new();
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    Ok(unique)
}

fn quiz_seed(value: &str) -> Result<u64, Problem> {
    value.parse::<u64>().map_err(|_| {
        malformed(idemlab_lab::t!(
            "a quiz seed, a whole number 0..=18446744073709551615"
        ))
    })
}

/// `build=`: the client, then any of the parts, each once (`Parts::parse`).
fn parts_named(value: &str) -> Result<Parts, Problem> {
    Parts::parse(value).ok_or_else(|| {
        let names: Vec<&str> = Part::ALL.iter().map(|part| part.name()).collect();
        malformed(&idemlab_lab::tf!(
            "client, then any of {}, comma-separated",
            names.join(",")
        ))
    })
}

fn lesson_named(value: &str) -> Result<&'static Lesson, Problem> {
    let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
    let allowed = || malformed(&idemlab_lab::tf!("a lesson, one of {}", ids.join("|")));
    Lesson::by_id(value).ok_or_else(allowed)
}

/// `step=`: a step number, within the longest lesson.
fn step_number(value: &str) -> Result<u8, Problem> {
    parse_step(value)
        .ok_or_else(|| malformed(&idemlab_lab::tf!("a step number 1..={}", steps_max())))
}

fn focus_side(value: &str) -> Result<Side, Problem> {
    match value {
        "a" => Ok(Side::A),
        "b" => Ok(Side::B),
        _ => Err(malformed(idemlab_lab::t!("a or b"))),
    }
}

/// `gate=`: 1 or 0 only.
fn gate_flag(value: &str) -> Result<bool, Problem> {
    match value {
        "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(malformed(idemlab_lab::t!(
            "1 (a step waits for its prediction) or 0"
        ))),
    }
}

/// `report=`: `parent`, or the course page's origin (`https://course.example`), kept as
/// given.
fn report_to(value: &str) -> Result<Option<String>, Problem> {
    if value == "parent" {
        return Ok(None);
    }
    match crate::report::origin_of(value) {
        Some(origin) if origin == value => Ok(Some(origin.to_string())),
        _ => Err(malformed(idemlab_lab::t!(
            "parent, or the course page's origin: http(s)://host or http(s)://host:port, with no path"
        ))),
    }
}

/// `hide=`: a list of `PARTS`, as bits.
fn hidden_parts(value: &str) -> Result<u8, Problem> {
    let mut hide = 0;
    for name in value.split(',').filter(|n| !n.is_empty()) {
        let allowed = || malformed(&idemlab_lab::tf!("a list of {}", PARTS.join("|")));
        hide |= 1 << PARTS.iter().position(|p| *p == name).ok_or_else(allowed)?;
    }
    Ok(hide)
}

/// `height=`: a height in `HEIGHT_PX`.
fn frame_height(value: &str) -> Result<u32, Problem> {
    let height = value.parse::<u32>().ok();
    let height = height.filter(|h| HEIGHT_PX.contains(h));
    let (min, max) = HEIGHT_PX.into_inner();
    let allowed = idemlab_lab::tf!("a frame height in CSS px, {}..={}", min, max);
    height.ok_or_else(|| malformed(&allowed))
}

fn own_steps(value: &str) -> Result<Vec<crate::steps::OwnStep>, Problem> {
    let steps = crate::steps::parse(value);
    let own = |why: String| malformed(&idemlab_lab::tf!("own steps: {}", why));
    steps.map_err(own)
}

/// `v=`: a model version, 1 or more.
fn model_version(value: &str) -> Result<u32, Problem> {
    let version = value.parse::<u32>().ok().filter(|v| *v >= 1);
    version.ok_or_else(|| malformed(idemlab_lab::t!("a model version, 1 or more")))
}

/// `tab=`: one of `Tab::ALL`'s names.
fn tab_named(value: &str) -> Result<Tab, Problem> {
    Tab::from_name(value).ok_or_else(|| {
        let names: Vec<&str> = Tab::ALL.iter().map(|tab| tab.name()).collect();
        malformed(&idemlab_lab::tf!("one of {}", names.join("|")))
    })
}

/// `zoom=`: a time window.
fn zoom_window(value: &str) -> Result<(u64, u64), Problem> {
    parse_zoom(value)
        .ok_or_else(|| malformed(idemlab_lab::t!("T0..T1 in whole microseconds, T0 < T1")))
}

/// The most steps any lesson or own sequence has: the bound a `step=` is checked against on
/// its own. Own steps count too: the longest lesson has fewer, and a link to an own step past
/// it was refused.
fn steps_max() -> usize {
    let lessons = LESSONS.iter().map(|l| l.steps.len()).max().unwrap_or(1);
    lessons.max(crate::steps::STEPS_MAX)
}

fn parse_step(value: &str) -> Option<u8> {
    let step: u8 = value.parse().ok()?;
    (1..=steps_max())
        .contains(&usize::from(step))
        .then_some(step)
}

fn parse_speed(value: &str) -> Option<u32> {
    value.parse().ok().filter(|speed| SPEEDS.contains(speed))
}

fn speeds_allowed() -> String {
    let speeds: Vec<String> = SPEEDS.iter().map(|s| s.to_string()).collect();
    idemlab_lab::tf!("one of {} (events per second)", speeds.join("|"))
}

fn parse_zoom(value: &str) -> Option<(u64, u64)> {
    let (a, b) = value.split_once("..")?;
    let (t0, t1) = (a.parse().ok()?, b.parse().ok()?);
    (t0 < t1).then_some((t0, t1))
}
