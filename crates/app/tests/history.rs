//! The browser's history: a scenario change pushes an entry and a view change replaces it, Back
//! and Forward load the address bar's state (restyling the page when the theme differs), and the
//! address bar names the model version as Copy link does.

mod support;

use idemlab_app as app;
use idemlab_app::page::MODEL_VERSION;
use idemlab_app::{Banner, Effects, Msg, Tab, UrlWrite};
use idemlab_app::{PlaybackMsg, ScenarioMsg};
use idemlab_course::quiz::progress::Progress;
use support::{load, ran};

#[test]
fn a_scenario_change_pushes_history_and_a_view_change_replaces_it() {
    let mut state = load("seed=4");
    let push = app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::SetKey {
            name: "retries".into(),
            value: "2".into(),
        }),
    );
    assert_eq!(push.url, Some(UrlWrite::Push));
    ran(&mut state);
    for msg in [
        Msg::Playback(PlaybackMsg::GoTo(3)),
        Msg::Playback(PlaybackMsg::Zoom(Some((0, 900)))),
        Msg::OpenTab(Tab::Tables),
    ] {
        assert_eq!(app::update(&mut state, msg).url, Some(UrlWrite::Replace));
    }
    let refused = app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::SetKey {
            name: "retries".into(),
            value: "99".into(),
        }),
    );
    assert_eq!(refused.url, None, "a refused value changes nothing");
    assert_eq!(
        Banner::of(&state).unwrap().heading,
        "That value was not accepted; the run is unchanged."
    );
}

#[test]
fn after_back_the_state_is_the_urls() {
    let mut state = load("seed=4");
    // What the address bar holds, with `v=` so that a reload knows its model version.
    let before = app::address_query(&state);
    assert_eq!(before, format!("seed=4&v={MODEL_VERSION}"));
    app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(9)));
    let effects = app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::UrlChanged {
            query: format!("?{before}"),
            stored: Progress::new(),
        }),
    );
    assert!(effects.rerun && effects.url.is_none());
    assert_eq!(app::address_query(&state), before);
    let same = app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::UrlChanged {
            query: before.clone(),
            stored: Progress::new(),
        }),
    );
    assert_eq!(
        same,
        Effects::default(),
        "a hash change alone reloads nothing"
    );
}

/// Back or Forward onto a link of another theme (or other embed settings) restyles the page,
/// or it would show the last link's colours; a change that keeps them does not.
#[test]
fn back_to_a_link_of_another_theme_restyles_the_page() {
    let mut state = load("seed=7&embed=1&theme=dark");
    let back = |state: &mut app::State, query: &str| {
        app::update(
            state,
            Msg::Scenario(ScenarioMsg::UrlChanged {
                query: query.into(),
                stored: Progress::new(),
            }),
        )
    };
    assert!(
        back(&mut state, "seed=7&embed=1").restyle,
        "dark → the browser's"
    );
    assert!(back(&mut state, "seed=7&embed=1&theme=light").restyle);
    assert!(back(&mut state, "seed=7&embed=1&theme=light&hide=tabs").restyle);
    assert!(
        !back(&mut state, "seed=8&embed=1&theme=light&hide=tabs").restyle,
        "the seed only"
    );
    assert!(!app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(4))).restyle);
}

/// The address bar carries `v=` as Copy link does; a link of another version keeps its own until
/// the scenario changes, so a reload still says the run may differ.
#[test]
fn the_address_bar_names_the_model_version() {
    let state = load("seed=7&preset=lost-ack");
    let now = MODEL_VERSION;
    assert_eq!(
        app::address_query(&state),
        format!("seed=7&preset=lost-ack&v={now}")
    );
    assert_eq!(app::address_query(&state), app::permalink_query(&state));
    let other = now + 1;
    let mut old = load(&format!("seed=7&v={other}"));
    assert_eq!(app::address_query(&old), format!("seed=7&v={other}"));
    assert!(Banner::of(&old).is_some());
    app::update(&mut old, Msg::Scenario(ScenarioMsg::NewSeed(8)));
    assert_eq!(app::address_query(&old), format!("seed=8&v={now}"));
    // The address bar's own entry is the state: Back onto it reloads nothing.
    let same = app::update(
        &mut old,
        Msg::Scenario(ScenarioMsg::UrlChanged {
            query: format!("?seed=8&v={now}"),
            stored: Progress::new(),
        }),
    );
    assert_eq!(same, app::Effects::default());
}
