//! Issue 14, natively: which key acts on what given the focused element's kind, the tab list's
//! and the event list's arrows, the skip link to the lesson, the shortcuts setting kept with the
//! progress, and what the announcer says (once) after each paint.

use idemlab::app::{self, Heard, KeyTarget, Msg, Shortcut, State, Tab};
use idemlab::lessons::{Side, LESSONS};
use idemlab::quiz::progress::Progress;
use idemlab::{Metrics, Scenario, Trace};

fn load(query: &str) -> State {
    let mut state = State::load(query, &Progress::new());
    ran(&mut state);
    state
}

fn ran(state: &mut State) {
    let events_a = idemlab::sim::run(&state.page.scenario).events.len() as u32;
    let events_b = (state.page.compare_scenario().as_ref())
        .map_or(0, |b| idemlab::sim::run(b).events.len() as u32);
    app::update(state, Msg::Ran { events_a, events_b });
}

#[test]
fn the_focused_elements_kind_from_its_tag_type_and_role() {
    use KeyTarget::*;
    let kind = |tag, kind, role| app::key_target(tag, kind, role, false);
    assert_eq!(kind("body", "", ""), Page);
    assert_eq!(kind("canvas", "", "img"), Page);
    assert_eq!(kind("h3", "", ""), Page);
    assert_eq!(kind("input", "text", ""), Field);
    assert_eq!(kind("input", "number", ""), Field);
    assert_eq!(kind("select", "", ""), Field);
    assert_eq!(kind("textarea", "", ""), Field);
    for (tag, kind_, role) in [
        ("button", "button", "tab"),
        ("button", "button", ""),
        ("span", "", "button"),
        ("table", "", "grid"),
        ("li", "", ""),
        ("section", "", ""),
        ("input", "checkbox", ""),
        ("input", "radio", ""),
        ("input", "range", ""),
    ] {
        assert_eq!(kind(tag, kind_, role), Pressable, "{tag} {role}");
    }
    assert_eq!(app::key_target("button", "", "", true), Dialog);
}

#[test]
fn letters_still_fire_from_a_button_but_never_from_a_field() {
    for k in ["n", "l", "0", "+", "-", "?"] {
        assert_ne!(app::shortcut(k, false, KeyTarget::Pressable), None, "{k}");
        assert_eq!(app::shortcut(k, false, KeyTarget::Field), None, "{k}");
    }
}

#[test]
fn escape_closes_the_tooltip_from_anywhere_but_a_dialog() {
    for target in [KeyTarget::Page, KeyTarget::Field, KeyTarget::Pressable] {
        assert_eq!(
            app::shortcut("Escape", false, target),
            Some(Shortcut::HideTooltip)
        );
    }
    assert_eq!(app::shortcut("Escape", false, KeyTarget::Dialog), None);
    // Releasing Escape on the timeline does not open the tooltip it just closed.
    assert!(!app::tooltip_follows("Escape"));
    assert!(app::tooltip_follows("ArrowRight"));
}

#[test]
fn the_setting_turns_off_every_character_key_but_not_the_arrows() {
    let mut state = load("seed=1");
    app::update(&mut state, Msg::ShortcutsOff(true));
    for k in [" ", "n", "N", "l", "0", "+", "-", "?"] {
        assert_eq!(
            app::shortcut_for(&state, k, false, KeyTarget::Page),
            None,
            "{k:?}"
        );
    }
    let step = app::shortcut_for(&state, "ArrowRight", false, KeyTarget::Page);
    assert_eq!(step, Some(Shortcut::Msg(Msg::Step(1))));
    app::update(&mut state, Msg::ShortcutsOff(false));
    let play = app::shortcut_for(&state, " ", false, KeyTarget::Page);
    assert_eq!(play, Some(Shortcut::Msg(Msg::Play)));
}

#[test]
fn the_setting_is_kept_with_the_progress_and_read_back() {
    let mut progress = Progress::new();
    progress.shortcuts_off = true;
    let text = progress.to_text();
    assert!(text.ends_with("shortcuts=off\n"), "{text}");
    let (read, note) = Progress::parse(Some(&text));
    assert_eq!(note, None);
    assert!(read.shortcuts_off);
    // A page loaded with that record starts with the shortcuts off.
    assert!(State::load("seed=1", &read).shortcuts_off);
    // A record without the line (every record before issue 14) reads as "on".
    let (old, note) = Progress::parse(Some("idemlab-progress 4\n"));
    assert_eq!(note, None);
    assert!(!old.shortcuts_off);
}

#[test]
fn arrows_on_the_tab_list_move_between_the_tabs_shown_and_wrap() {
    let all = Tab::ALL;
    assert_eq!(
        app::tab_key("ArrowRight", Tab::Events, &all),
        Some(Tab::Tables)
    );
    assert_eq!(
        app::tab_key("ArrowLeft", Tab::Events, &all),
        Some(Tab::Lessons)
    );
    assert_eq!(
        app::tab_key("ArrowRight", Tab::Lessons, &all),
        Some(Tab::Events)
    );
    assert_eq!(app::tab_key("Home", Tab::Sweep, &all), Some(Tab::Events));
    assert_eq!(app::tab_key("End", Tab::Events, &all), Some(Tab::Lessons));
    assert_eq!(app::tab_key(" ", Tab::Events, &all), None);
    // In a lesson the Lessons tab is the column, not a tab: the arrows skip it.
    let shown = [Tab::Events, Tab::Tables, Tab::Sweep];
    assert_eq!(
        app::tab_key("ArrowRight", Tab::Sweep, &shown),
        Some(Tab::Events)
    );
}

#[test]
fn arrows_on_a_tab_never_move_the_playback_cursor() {
    let target = app::key_target("button", "button", "tab", false);
    for k in ["ArrowLeft", "ArrowRight", "Home", "End", " "] {
        assert_eq!(app::shortcut(k, false, target), None, "{k}");
    }
}

#[test]
fn the_event_list_moves_its_selected_row_and_keeps_it_on_enter() {
    let key = |k, cursor| app::grid_key(k, cursor, 100, 12);
    assert_eq!(key("ArrowDown", Some(5)), Some(Msg::Select(6)));
    assert_eq!(key("ArrowUp", Some(5)), Some(Msg::Select(4)));
    assert_eq!(key("ArrowUp", Some(0)), Some(Msg::Select(0)));
    assert_eq!(key("ArrowDown", Some(99)), Some(Msg::Select(99)));
    assert_eq!(key("PageDown", Some(95)), Some(Msg::Select(99)));
    assert_eq!(key("PageUp", Some(20)), Some(Msg::Select(8)));
    assert_eq!(key("Home", Some(50)), Some(Msg::Select(0)));
    assert_eq!(key("End", Some(50)), Some(Msg::Select(99)));
    assert_eq!(key("Enter", Some(7)), Some(Msg::Select(7)));
    // No cursor is the run's end: ↓ starts at the top, ↑ at the bottom.
    assert_eq!(key("ArrowDown", None), Some(Msg::Select(0)));
    assert_eq!(key("ArrowUp", None), Some(Msg::Select(99)));
    assert_eq!(key("ArrowLeft", Some(5)), None);
    assert_eq!(key("n", Some(5)), None);
    assert_eq!(app::grid_key("ArrowDown", None, 0, 12), None);
}

#[test]
fn the_skip_link_to_the_lesson_lands_on_the_step_or_opens_the_lessons_tab() {
    assert_eq!(
        app::lesson_skip(&load("lesson=a&step=2")),
        (None, "#lesson-heading")
    );
    assert_eq!(
        app::lesson_skip(&load("seed=3")),
        (Some(Msg::OpenTab(Tab::Lessons)), "#lesson-picker button")
    );
}

// ---- The announcer ----

struct Runs {
    a: (Scenario, Trace, Metrics),
    b: Option<(Scenario, Trace, Metrics)>,
}

fn runs(state: &State) -> Runs {
    let run = |s: Scenario| {
        let (trace, metrics) = idemlab::run(&s);
        (s, trace, metrics)
    };
    Runs {
        a: run(state.page.scenario.clone()),
        b: state.page.compare_scenario().map(run),
    }
}

/// One paint: what the announcer says.
fn paint(heard: &mut Heard, state: &State, runs: &Runs) -> Option<String> {
    let mut list = vec![(Side::A, &runs.a.0, &runs.a.2)];
    if let Some(b) = &runs.b {
        list.push((Side::B, &b.0, &b.2));
    }
    app::announce(heard, state, &runs.a.1, Some(&list), false)
}

#[test]
fn playback_speaks_once_when_it_pauses_not_on_every_tick() {
    let mut state = load("seed=1");
    let runs = runs(&state);
    let mut heard = Heard::default();
    assert_eq!(
        paint(&mut heard, &state, &runs),
        None,
        "the first paint sets the scene"
    );
    app::update(&mut state, Msg::Play);
    let mut said = Vec::new();
    for _ in 0..30 {
        said.extend(paint(&mut heard, &state, &runs));
        app::update(&mut state, Msg::Tick);
    }
    assert!(said.is_empty(), "{said:?}");
    app::update(&mut state, Msg::Play);
    let pause = paint(&mut heard, &state, &runs).expect("the pause speaks");
    assert_eq!(pause, app::status_line(&state, &runs.a.1));
    assert_eq!(paint(&mut heard, &state, &runs), None, "and only once");
    // A step is a request: it speaks its event; a slider or a row says it itself.
    app::update(&mut state, Msg::Step(1));
    assert!(paint(&mut heard, &state, &runs).is_some());
    app::update(&mut state, Msg::Step(1));
    let list = [(Side::A, &runs.a.0, &runs.a.2)];
    assert_eq!(
        app::announce(&mut heard, &state, &runs.a.1, Some(&list), true),
        None
    );
}

#[test]
fn a_step_speaks_its_title_and_first_sentence_only_once() {
    let mut state = load("lesson=a&step=1&gate=0");
    let mut heard = Heard::default();
    paint(&mut heard, &state, &runs(&state));
    app::update(&mut state, Msg::OpenStep(1));
    ran(&mut state);
    let runs = runs(&state);
    let said = paint(&mut heard, &state, &runs).expect("the step speaks");
    let step = &LESSONS[0].steps[1];
    let total = LESSONS[0].steps.len();
    let first = app::first_sentence(step.text);
    assert_eq!(said, format!("Step 2 of {total}: {}. {first}", step.title));
    assert!(
        first.len() < step.text.len(),
        "the first sentence, not the text"
    );
    // The step's run arriving, or the next paint, says nothing more.
    assert_eq!(paint(&mut heard, &state, &runs), None);
}

#[test]
fn a_named_counter_speaks_its_new_value_when_the_run_changes() {
    // Lesson A's step 2 names counters; a new seed changes the run under the same step.
    let (index, step) = (LESSONS[0].steps.iter().enumerate())
        .find(|(_, s)| !s.claims.is_empty())
        .expect("a step names counters");
    let mut state = load(&format!("lesson=a&step={}&gate=0", index + 1));
    let mut heard = Heard::default();
    paint(&mut heard, &state, &runs(&state));
    // Seeds until one gives other counts for the named counters.
    let named = |runs: &Runs, state: &State| {
        let view = app::counters_view(state, Side::A, &runs.a.0, &runs.a.2);
        (view.cards.into_iter())
            .filter(|c| c.named)
            .map(|c| (c.label, c.value))
            .collect::<Vec<_>>()
    };
    let before = named(&runs(&state), &state);
    for seed in 2..200 {
        app::update(&mut state, Msg::NewSeed(seed));
        ran(&mut state);
        let runs = runs(&state);
        let said = paint(&mut heard, &state, &runs);
        let now = named(&runs, &state);
        if now != before {
            let said = said.expect("new values are spoken");
            let (label, value) = now[0];
            assert!(said.contains(&format!("{label}: {value}.")), "{said}");
            assert_eq!(paint(&mut heard, &state, &runs), None);
            return;
        }
    }
    panic!("no seed changed the counters step {} names", step.title);
}

#[test]
fn first_sentence_stops_at_the_first_full_stop_followed_by_a_space() {
    assert_eq!(
        app::first_sentence("One 3.5 ms wait. Two."),
        "One 3.5 ms wait."
    );
    assert_eq!(app::first_sentence("Why? Because."), "Why?");
    assert_eq!(app::first_sentence("No stop"), "No stop");
}
