//! The scenario and the compare keys: each change is a new history entry and a rerun.

use crate::page::{Opens, PageState};
use crate::{address_query, free, Effects, ErrorsFrom, State};
use idemlab_core::scenario::codec;
use idemlab_core::scenario::decode_lenient;
use idemlab_course::lessons::Side;
use idemlab_course::quiz::progress::Progress;

/// What changes the scenario or the compare keys.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A control changed a scenario key; a refused value shows the banner and changes nothing.
    SetKey {
        name: String,
        value: String,
    },
    /// New seed (the page picks it: its one use of randomness besides the quiz seed).
    NewSeed(u64),
    /// Run the same scenario again: the same trace, which is the point.
    RunAgain,
    /// The preset picker: `""` for none.
    PickPreset(String),
    CompareOn(bool),
    CompareKeys(String),
    /// The URL changed under the page (Back, Forward, a hash change): load its state.
    UrlChanged {
        query: String,
        stored: Progress,
    },
}

/// Messages that change the scenario or the compare keys: a new history entry and a rerun.
pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::SetKey { name, value } => set_key(state, &name, &value),
        Msg::NewSeed(seed) => {
            let mut scenario = state.page.scenario.clone();
            scenario.seed = seed;
            state.set_scenario(scenario);
            Effects::scenario()
        }
        Msg::RunAgain => {
            state.scenario_changed();
            Effects {
                url: None,
                ..Effects::scenario()
            }
        }
        Msg::PickPreset(name) => pick_preset(state, &name),
        Msg::CompareOn(on) => {
            let fix = free::proposed_change(&state.page.scenario);
            state.page.compare = on.then(|| state.page.compare.clone().unwrap_or(fix));
            if !on {
                state.page.focus = Side::A;
            }
            state.scenario_changed();
            Effects::scenario()
        }
        Msg::CompareKeys(text) => compare_keys(state, &free::compare_text(&text)),
        Msg::UrlChanged { query, stored } => {
            if query.strip_prefix('?').unwrap_or(&query) == address_query(state) {
                return Effects::default();
            }
            // The learner's classification answers and predictions are the session's, not the
            // link's.
            // The open step's right choice stays too, so Back onto a waiting step with other
            // keys keeps it waiting, as the same change made without Back does
            // (`asking` checks it belongs to the step shown).
            let answers = state.classify;
            let classify_last = state.classify_last;
            let predictions = std::mem::take(&mut state.predictions);
            let step_answer = state.step_answer.take();
            // Cancel on the page Back reached still goes back to the last run that finished.
            let last_ran = state.last_ran.take();
            let hint = state.start_hint;
            *state = State::load(&query, &stored);
            state.start_hint &= hint;
            state.classify = answers;
            state.classify_last = classify_last;
            state.predictions = predictions;
            state.step_answer = step_answer;
            state.last_ran = last_ran;
            Effects {
                url: None,
                ..Effects::scenario()
            }
        }
    }
}

fn set_key(state: &mut State, name: &str, value: &str) -> Effects {
    state.errors_from = ErrorsFrom::Control;
    match codec::set_key(&mut state.page.scenario, name, value) {
        Ok(()) => {
            state.errors.clear();
            state.scenario_changed();
            Effects::scenario()
        }
        Err(error) => {
            state.errors = vec![error];
            Effects {
                render: true,
                ..Effects::default()
            }
        }
    }
}

/// A preset made for comparing opens with its fix beside it; others keep the compare view as
/// it was. The seed stays.
fn pick_preset(state: &mut State, name: &str) -> Effects {
    let seed = state.page.scenario.seed;
    let query = match name {
        "" => format!("seed={seed}"),
        name => format!("seed={seed}&preset={name}"),
    };
    let (decoded, errors) = decode_lenient(&query);
    if !errors.is_empty() {
        state.errors = errors;
        state.errors_from = ErrorsFrom::Control;
        return Effects {
            render: true,
            ..Effects::default()
        };
    }
    let spec = decoded.scenario.preset.map(|p| p.spec());
    if let Some(spec) = spec.filter(|spec| spec.compare) {
        state.page.compare = Some(spec.fix.to_string());
    }
    state.set_scenario(decoded.scenario);
    Effects::scenario()
}

/// New compare keys, checked as the link's would be; refused keys leave B as it was.
pub(super) fn compare_keys(state: &mut State, text: &str) -> Effects {
    let mut page = state.page.clone();
    page.compare = Some(text.to_string());
    let (checked, _, errors) = PageState::from_query(&page.to_query(&Opens::default()));
    state.errors_from = ErrorsFrom::Control;
    state.errors = errors;
    state.compare_refused = !state.errors.is_empty();
    if !state.compare_refused {
        state.page.compare = checked.compare;
    }
    state.scenario_changed();
    Effects::scenario()
}

/// What to write into the Compare box on a paint, if anything: the keys B runs, unless the
/// learner is typing there (`focused`); after a refusal, even then, so that the box never
/// shows keys that B does not run.
pub fn compare_box(state: &State, focused: bool) -> Option<String> {
    (!focused || state.compare_refused).then(|| state.page.compare.clone().unwrap_or_default())
}
