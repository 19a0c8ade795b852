//! What the screen shows where (`app::page_layout`): a lesson's column beside the runs, the
//! drawer the controls fold into, the docked timeline on a phone, the step navigation and the
//! phrases that outline marks; and the templates the web layer copies from `index.html`.

mod support;

use idemlab_app as app;
use idemlab_app::{Focus, Msg, Tab};
use idemlab_app::{LessonMsg, ScreenMsg};
use idemlab_course::lessons::{Side, LESSONS};
use support::{load, load_measured, ran_and_measured, right_choice};

#[test]
fn a_lesson_takes_the_controls_column_and_the_controls_fold_into_a_drawer() {
    let mut state = load("lesson=b&step=3");
    let layout = app::page_layout(&state);
    assert!(layout.lesson_column && !layout.controls_shown);
    assert_eq!(
        layout.panel, None,
        "the step is the column; no panel under the runs"
    );
    let effects = app::update(&mut state, Msg::Screen(ScreenMsg::ShowControls(true)));
    assert_eq!(effects.focus, Some(Focus::Drawer));
    assert!(app::page_layout(&state).controls_shown);
    let effects = app::update(&mut state, Msg::Screen(ScreenMsg::ShowControls(false)));
    assert_eq!(
        effects.focus,
        Some(Focus::DrawerToggle),
        "Escape gives the focus back"
    );
    app::update(&mut state, Msg::OpenTab(Tab::Tables));
    let layout = app::page_layout(&state);
    assert!(
        layout.lesson_column,
        "Tables opens beside the step, not instead of it"
    );
    assert_eq!(layout.panel, Some(Tab::Tables));
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(3)));
    assert_eq!(
        app::page_layout(&state).panel,
        None,
        "the next step closes it"
    );
    app::update(&mut state, Msg::Lesson(LessonMsg::Close));
    let layout = app::page_layout(&state);
    assert!(!layout.lesson_column && layout.controls_shown);
    assert!(!state.to_query().contains("lesson="));
    // The ordering step's claims describe its own run, not the learner's order.
    let mut ordering = load("lesson=a&step=12");
    assert!(app::page_layout(&ordering).claims);
    app::update(&mut ordering, Msg::Lesson(LessonMsg::RunOrder));
    assert!(!app::page_layout(&ordering).claims, "no stale claim lines");
    embeds_and_drawers_lay_out_as_their_links_say();
    let mut free = load("seed=3&preset=race");
    app::update(&mut free, Msg::Screen(ScreenMsg::ShowControls(true)));
    assert!(!free.drawer_open, "no drawer outside a lesson");
}

/// Whether the step `query` opens docks its timeline once its prediction is answered.
fn docks(query: &str) -> bool {
    let mut state = load_measured(query);
    assert!(
        !app::page_layout(&state).dock,
        "{query}: nothing docks before the answer"
    );
    app::update(&mut state, Msg::Lesson(LessonMsg::Predict(0)));
    app::page_layout(&state).dock
}

/// The layout assertions about embeds and the drawer's button, each from a link of its own.
fn embeds_and_drawers_lay_out_as_their_links_say() {
    let embed = load("lesson=a&step=4&embed=1");
    let layout = app::page_layout(&embed);
    assert!(
        layout.lesson_column && layout.side,
        "a self-sizing embed puts the step beside its runs too"
    );
    // Answered, a step docks its timeline on a phone's page, and in a frame of fixed height,
    // but not in a frame that grows with its content.
    assert!(docks("lesson=a&step=4"));
    assert!(docks("lesson=a&step=4&embed=1&height=600"));
    assert!(
        !docks("lesson=a&step=4&embed=1"),
        "a frame that grows with its content docks nothing to the screen's foot"
    );
    // An embed with nothing open has no empty first column; one with a lesson does.
    assert!(!app::page_layout(&load("seed=4&embed=1&controls=")).side);
    assert!(app::page_layout(&load("seed=4&embed=1&controls=dedup")).side);
    // The seed's control is in the toolbar: `controls=seed` leaves the side panel empty.
    assert!(!app::page_layout(&load("seed=4&embed=1&controls=seed")).side);
    // A lesson's drawer button shows only when its drawer holds an open control.
    let drawer = |query: &str| app::page_layout(&load(query)).drawer_toggle;
    assert!(drawer("lesson=a&step=4"));
    assert!(drawer("lesson=a&step=4&embed=1&controls=dedup"));
    assert!(!drawer("lesson=a&step=4&embed=1&controls="));
    assert!(!drawer("lesson=a&step=4&embed=1&controls=seed"));
    assert!(app::page_layout(&load("lesson=a&step=4&embed=1&height=600&controls=")).side);
    let fixed = load("lesson=a&step=4&embed=1&height=600");
    assert!(
        app::page_layout(&fixed).lesson_column,
        "an embed of fixed height puts the step beside the runs"
    );
}

#[test]
fn a_phones_docked_timeline_can_be_put_back_in_the_page_and_docked_again() {
    // On a phone the docked strip can cover the reveal's text, so the learner can move it.
    let mut state = load_measured("lesson=b&step=1");
    assert_eq!(
        app::page_layout(&state).dock_toggle,
        None,
        "nothing docks before the answer"
    );
    app::update(&mut state, Msg::Lesson(LessonMsg::Predict(0)));
    let layout = app::page_layout(&state);
    assert!(layout.dock && layout.dock_toggle == Some(true));
    app::update(&mut state, Msg::Screen(ScreenMsg::ToggleDock));
    let layout = app::page_layout(&state);
    assert!(!layout.dock && layout.dock_toggle == Some(false));
    // The learner's choice holds on the next step.
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    ran_and_measured(&mut state);
    app::update(&mut state, Msg::Lesson(LessonMsg::Predict(0)));
    assert!(!app::page_layout(&state).dock);
    app::update(&mut state, Msg::Screen(ScreenMsg::ToggleDock));
    assert!(app::page_layout(&state).dock);
}

#[test]
fn closing_a_lesson_focuses_the_picker_as_its_column_goes() {
    let mut state = load("lesson=a&step=2");
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::Close));
    assert_eq!(effects.focus, Some(Focus::LessonPicker));
}

#[test]
fn step_nav_has_no_previous_first_and_offers_the_check_last() {
    let nav = app::step_nav(4, 0);
    assert_eq!((nav.previous, nav.next, nav.last), (None, Some(1), false));
    let nav = app::step_nav(4, 2);
    assert_eq!(
        (nav.previous, nav.next, nav.last),
        (Some(1), Some(3), false)
    );
    let nav = app::step_nav(4, 3);
    assert_eq!((nav.previous, nav.next, nav.last), (Some(2), None, true));
    let nav = app::step_nav(1, 0);
    assert_eq!((nav.previous, nav.next, nav.last), (None, None, true));
}

#[test]
fn changing_step_clears_the_outline_in_update_not_in_render() {
    let mut state = load("lesson=a&step=2");
    let index = (0..LESSONS[0].steps.len())
        .find(|&i| !LESSONS[0].steps[i].pointers.is_empty())
        .unwrap();
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(index)));
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::TogglePointer(0)));
    assert!(state.highlight.is_some());
    assert_eq!(effects.show_timeline, Some(state.highlight.unwrap().0));
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(index)));
    assert_eq!(state.highlight, None);
    assert_eq!(effects.focus, Some(Focus::LessonHeading));
    app::update(&mut state, Msg::Lesson(LessonMsg::TogglePointer(0)));
    app::update(&mut state, Msg::Lesson(LessonMsg::TogglePointer(0)));
    assert_eq!(state.highlight, None, "a second press turns it off");
}

#[test]
fn a_phrase_about_the_other_run_brings_that_run_into_focus() {
    // On a phone the docked timeline is the run in focus; a phrase about A on a step whose
    // reveal put B in focus would outline marks nobody can see.
    let (lesson, index) = (LESSONS.iter())
        .flat_map(|l| l.steps.iter().enumerate().map(move |(i, s)| (l, i, s)))
        .find(|(_, _, s)| {
            s.predict.proof.side == Side::B && s.pointers.iter().any(|p| p.side == Side::A)
        })
        .map(|(l, i, _)| (l, i))
        .expect("a step whose proof is in B and which points at A too");
    let mut state = load_measured(&format!("lesson={}&step={}", lesson.id, index + 1));
    app::update(
        &mut state,
        Msg::Lesson(LessonMsg::Predict(right_choice(lesson, index))),
    );
    assert_eq!(state.focus(), Side::B, "the reveal is about B");
    let a_phrase = lesson.steps[index]
        .pointers
        .iter()
        .position(|p| p.side == Side::A)
        .unwrap();
    app::update(&mut state, Msg::Lesson(LessonMsg::TogglePointer(a_phrase)));
    assert_eq!(state.focus(), Side::A);
    assert_eq!(state.page.cursor, None, "at the end of the run in focus");
}

/// `src/web` copies static markup from `index.html`'s `<template>`s by id; a renamed or lost
/// template would panic in the browser only, so check the names here.
#[test]
fn every_template_the_web_layer_copies_is_in_index_html() {
    let html = include_str!("../../../www/index.html");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let code = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for piece in code.split("\"tpl-").skip(1) {
            names.push(format!("tpl-{}", piece.split('"').next().unwrap()));
        }
    }
    assert!(names.len() >= 15, "{names:?}");
    for name in names {
        let tag = format!("<template id=\"{name}\">");
        assert!(html.contains(&tag), "www/index.html has no {tag}");
    }
}
