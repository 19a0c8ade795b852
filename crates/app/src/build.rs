//! The finale's task on the page (`idemlab_course::build` is its checklist): it opens an
//! empty sandbox, adds the parts the learner asks for, keeps the run that showed a duplicate,
//! and says which stage is done and what is missing. The run waits, unrun, until every part is
//! in (`waiting`), because the model has all four parts whatever the page shows.

use idemlab_core::scenario::{decode_lenient, Scenario};
use idemlab_course::build::{self as task, Part, Parts, Ran};
use idemlab_lab::Metrics;

use crate::work::Runs;
use crate::{Effects, Focus, State, Tab};

/// The task while it is open.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Build {
    pub parts: Parts,
    /// The last run with every part and fault in, no fix yet and a duplicate: what the fix is
    /// measured against. A link with `compare=` needs none (its A is that run).
    pub first: Option<Box<(Scenario, u32)>>,
}

/// Open the task afresh: its sandbox as run A, no B, the Lessons tab.
pub(crate) fn open(state: &mut State) -> Effects {
    state.lesson = None;
    state.quiz = None;
    state.build = Some(Build::default());
    state.page.scenario = decode_lenient(task::START).0.scenario;
    state.page.compare = None;
    state.tab = Tab::Lessons;
    state.drawer_open = false;
    state.start_hint = false;
    state.errors.clear();
    state.scenario_changed();
    Effects {
        focus: Some(Focus::LessonHeading),
        ..Effects::scenario()
    }
}

/// Add a part; the last one lets the run go.
pub(crate) fn add(state: &mut State, part: Part) -> Effects {
    let Some(build) = state.build.as_mut() else {
        return Effects::default();
    };
    let was_waiting = build.parts != Parts::ALL;
    build.parts = build.parts.with(part);
    if was_waiting && build.parts == Parts::ALL {
        state.scenario_changed();
        return Effects::scenario();
    }
    Effects::view()
}

/// Whether the open task still lacks a part: its run is not run yet.
pub fn waiting(state: &State) -> bool {
    state.build.as_ref().is_some_and(|b| b.parts != Parts::ALL)
}

/// Run A's title while the task lacks a part: what the sandbox holds so far.
pub fn waiting_title(state: &State) -> Option<String> {
    let parts = state.build.as_ref()?.parts;
    if parts == Parts::ALL {
        return None;
    }
    let added = Part::ALL.into_iter().filter(|&part| parts.has(part));
    let names: Vec<&str> = std::iter::once(idemlab_lab::t!("the client"))
        .chain(added.map(Part::label))
        .collect();
    Some(idemlab_lab::tf!("Your system so far: {}", names.join(", ")))
}

/// The runs just built: a run A that can stand as "before the fix" is kept as that.
pub(crate) fn measured(state: &mut State, a: &Metrics) {
    let compared = state.page.compare.is_some();
    let Some(build) = state.build.as_mut().filter(|_| !compared) else {
        return;
    };
    let run = Ran {
        scenario: &state.page.scenario,
        duplicates: a.duplicates,
    };
    if task::is_first(build.parts, run) {
        build.first = Some(Box::new((state.page.scenario.clone(), a.duplicates)));
    }
}

/// The run before the fix and the run after it, as the checklist reads them: with `compare=`,
/// A and B (a result's link); otherwise the kept run and A.
pub(crate) fn runs<'r>(build: &'r Build, runs: &'r Runs) -> (Option<Ran<'r>>, Ran<'r>) {
    let a = Ran {
        scenario: &runs.a.trace.scenario,
        duplicates: runs.a.metrics.duplicates,
    };
    if let Some(b) = runs.b.as_ref() {
        let b = Ran {
            scenario: &b.trace.scenario,
            duplicates: b.metrics.duplicates,
        };
        return (task::is_first(build.parts, a).then_some(a), b);
    }
    let first = build.first.as_deref().map(|(scenario, duplicates)| Ran {
        scenario,
        duplicates: *duplicates,
    });
    (first, a)
}

/// The result as a link: A the run with the duplicate, B the same with the fix, the task open
/// with every part. `idemlab run` on it gives both runs' counts.
pub(crate) fn result_query(state: &State, first: &Scenario, now: &Scenario) -> String {
    let mut page = state.page.clone();
    page.scenario = first.clone();
    page.compare = Some(task::fix_keys(first, now));
    page.cursor = None;
    page.zoom = None;
    page.focus = idemlab_lab::Side::A;
    let opens = crate::page::Opens {
        tab: Tab::Lessons,
        build: Some(Parts::ALL),
        ..Default::default()
    };
    page.to_query(&opens)
}
