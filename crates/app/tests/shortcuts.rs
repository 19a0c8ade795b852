//! The keyboard (`app::input`, `app::access`): which key acts on what given the focused element's
//! kind, the setting that turns the character keys off (kept with the progress), the tab list's
//! and the event list's arrows, and the skip link to the lesson.

mod support;

use idemlab_app as app;
use idemlab_app::{KeyTarget, Msg, Shortcut, State, Tab};
use idemlab_app::{PlaybackMsg, ScenarioMsg};
use idemlab_course::quiz::progress::Progress;
use support::load;

fn key(key: &str, target: KeyTarget) -> Option<Shortcut> {
    app::shortcut(key, false, target)
}

#[test]
fn shortcut_map_on_the_page() {
    let msg = |m| Some(Shortcut::Msg(m));
    assert_eq!(
        key(" ", KeyTarget::Page),
        msg(Msg::Playback(PlaybackMsg::Play))
    );
    assert_eq!(
        key("ArrowLeft", KeyTarget::Page),
        msg(Msg::Playback(PlaybackMsg::Step(-1)))
    );
    assert_eq!(
        key("ArrowRight", KeyTarget::Page),
        msg(Msg::Playback(PlaybackMsg::Step(1)))
    );
    assert_eq!(
        key("Home", KeyTarget::Page),
        msg(Msg::Playback(PlaybackMsg::GoTo(0)))
    );
    assert_eq!(
        key("End", KeyTarget::Page),
        msg(Msg::Playback(PlaybackMsg::GoTo(u32::MAX)))
    );
    assert_eq!(
        key("0", KeyTarget::Page),
        msg(Msg::Playback(PlaybackMsg::Zoom(None)))
    );
    for (k, want) in [
        ("n", Shortcut::NewSeed),
        ("N", Shortcut::NewSeed),
        ("l", Shortcut::CopyLink),
        ("L", Shortcut::CopyLink),
        ("?", Shortcut::Help),
        ("+", Shortcut::ZoomBy(2.0)),
        ("=", Shortcut::ZoomBy(2.0)),
        ("-", Shortcut::ZoomBy(0.5)),
        ("_", Shortcut::ZoomBy(0.5)),
    ] {
        assert_eq!(key(k, KeyTarget::Page), Some(want), "key {k:?}");
    }
    assert_eq!(key("x", KeyTarget::Page), None);
    assert_eq!(key("Enter", KeyTarget::Page), None);
}

#[test]
fn shortcut_new_seed_is_refused_with_a_word_while_the_seed_is_locked() {
    assert_eq!(
        app::shortcut("n", false, KeyTarget::Page),
        Some(Shortcut::NewSeed)
    );
    // Not silently dropped: the state machine refuses it and says why.
    let mut state = load("seed=7&embed=1&controls=dedup");
    app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(8)));
    assert_eq!(state.page.scenario.seed, 7);
    assert!(state.lock_note.unwrap().contains("the seed stays as it is"));
}

#[test]
fn shortcut_not_with_a_modifier() {
    for k in [" ", "ArrowLeft", "l", "+", "0"] {
        assert_eq!(app::shortcut(k, true, KeyTarget::Page), None, "{k:?}");
    }
}

#[test]
fn shortcut_not_while_typing_or_in_a_dialog() {
    for k in [" ", "ArrowLeft", "Home", "l", "?", "+", "0"] {
        assert_eq!(key(k, KeyTarget::Field), None, "field {k:?}");
        assert_eq!(key(k, KeyTarget::Dialog), None, "dialog {k:?}");
    }
}

#[test]
fn shortcut_space_and_arrows_belong_to_a_focused_control() {
    // Space on a button or phrase, an arrow on a tab or row, belong to that control, never to
    // the cursor.
    for k in [" ", "Enter", "ArrowRight", "ArrowLeft", "Home", "End"] {
        assert_eq!(key(k, KeyTarget::Pressable), None, "{k:?}");
    }
    assert_eq!(key("l", KeyTarget::Pressable), Some(Shortcut::CopyLink));
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
    assert_eq!(
        step,
        Some(Shortcut::Msg(Msg::Playback(PlaybackMsg::Step(1))))
    );
    app::update(&mut state, Msg::ShortcutsOff(false));
    let play = app::shortcut_for(&state, " ", false, KeyTarget::Page);
    assert_eq!(play, Some(Shortcut::Msg(Msg::Playback(PlaybackMsg::Play))));
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
    // A record without the line (one written before the setting existed) reads as "on".
    let (old, note) = Progress::parse(Some("idemlab-progress 7\n"));
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
    assert_eq!(
        key("ArrowDown", Some(5)),
        Some(Msg::Playback(PlaybackMsg::Select(6)))
    );
    assert_eq!(
        key("ArrowUp", Some(5)),
        Some(Msg::Playback(PlaybackMsg::Select(4)))
    );
    assert_eq!(
        key("ArrowUp", Some(0)),
        Some(Msg::Playback(PlaybackMsg::Select(0)))
    );
    assert_eq!(
        key("ArrowDown", Some(99)),
        Some(Msg::Playback(PlaybackMsg::Select(99)))
    );
    assert_eq!(
        key("PageDown", Some(95)),
        Some(Msg::Playback(PlaybackMsg::Select(99)))
    );
    assert_eq!(
        key("PageUp", Some(20)),
        Some(Msg::Playback(PlaybackMsg::Select(8)))
    );
    assert_eq!(
        key("Home", Some(50)),
        Some(Msg::Playback(PlaybackMsg::Select(0)))
    );
    assert_eq!(
        key("End", Some(50)),
        Some(Msg::Playback(PlaybackMsg::Select(99)))
    );
    assert_eq!(
        key("Enter", Some(7)),
        Some(Msg::Playback(PlaybackMsg::Select(7)))
    );
    // No cursor is the run's end: ↓ starts at the top, ↑ at the bottom.
    assert_eq!(
        key("ArrowDown", None),
        Some(Msg::Playback(PlaybackMsg::Select(0)))
    );
    assert_eq!(
        key("ArrowUp", None),
        Some(Msg::Playback(PlaybackMsg::Select(99)))
    );
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
    let state = load("seed=3");
    assert_eq!(app::skip_to(&state, "skip-timeline"), (None, "#canvas-a"));
    assert_eq!(app::skip_to(&state, "skip-back"), (None, "#canvas-a"));
    assert_eq!(
        app::skip_to(&state, "skip-lesson"),
        app::lesson_skip(&state)
    );
}
