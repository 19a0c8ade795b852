//! The controls' frames (`app::view::controls`): what the page builds once (a field per key
//! outside the toolbar, grouped as the codec says, with its help) and what each paint sets
//! (values, locks, what an embed hides, what the banner names, the Compare box).

use expect_test::expect;
use idemlab_app::view::controls::{shell, view};
use idemlab_app::ScenarioMsg;
use idemlab_app::{FieldKind, Msg, Page, TOOLBAR_KEYS};
use idemlab_core::scenario::codec;

#[test]
fn every_key_but_the_toolbars_has_one_field_with_its_help_in_its_codec_group() {
    let shell = shell();
    let fields: Vec<&str> = (shell.groups.iter())
        .flat_map(|group| group.fields.iter().map(|field| field.key))
        .collect();
    let wanted: Vec<&str> = (codec::keys().iter())
        .map(|spec| spec.name)
        .filter(|name| !TOOLBAR_KEYS.contains(name))
        .collect();
    let (mut sorted, mut wanted) = (fields.clone(), wanted);
    sorted.sort();
    wanted.sort();
    assert_eq!(sorted, wanted);
    for group in &shell.groups {
        assert!(!group.fields.is_empty(), "{} has no field", group.name);
        for field in &group.fields {
            let spec = codec::keys().iter().find(|s| s.name == field.key).unwrap();
            assert_eq!(spec.group.title(), group.name);
            assert!(field.help.starts_with(spec.help), "{}", field.help);
            assert!(field.help.contains(" Allowed: "), "{}", field.help);
        }
    }
    let first = &shell.groups[0];
    expect![[r#"
        (
            "Run",
            "Run",
            FieldShell {
                key: "events_max",
                id: "key-events_max",
                help_id: "help-events_max",
                help: "The event cap: a run that reaches it stops and says so. Allowed: a whole number 100..=1000000.",
                kind: Number {
                    min: "100",
                    max: "1000000",
                    step: "1",
                },
            },
        )
    "#]]
    .assert_debug_eq(&(first.name, first.legend, &first.fields[0]));
}

#[test]
fn probabilities_step_by_a_twentieth_and_the_preset_menu_starts_with_none() {
    let shell = shell();
    let fields = shell.groups.iter().flat_map(|group| group.fields.iter());
    let steps: Vec<&str> = (fields.filter_map(|field| match &field.kind {
        FieldKind::Number { max, step, .. } if max == "1" => Some(*step),
        _ => None,
    }))
    .collect();
    assert!(!steps.is_empty() && steps.iter().all(|step| *step == "0.05"));
    expect![[r#"
        PresetOption {
            value: "",
            text: "(none)",
            title: None,
        }
    "#]]
    .assert_debug_eq(&shell.presets[0]);
    assert!(shell.presets[1..].iter().all(|p| p.title.is_some()));
}

#[test]
fn an_embed_that_opens_one_control_shows_and_unlocks_only_it() {
    let page = Page::built("seed=4&preset=race&embed=1&controls=dedup");
    let frame = view(&page.state);
    let shown: Vec<_> = (frame.fields.iter()).filter(|f| !f.hidden).collect();
    expect![[r#"
        [
            FieldFrame {
                id: "key-dedup",
                value: "naive",
                locked: false,
                hidden: false,
                invalid: false,
            },
        ]
    "#]]
    .assert_debug_eq(&shown);
    assert!(frame.fields.iter().all(|f| f.hidden == f.locked));
    let open: Vec<_> = (frame.groups.iter())
        .filter(|(_, hidden)| !hidden)
        .collect();
    assert_eq!(open, [&("Server & store", false)]);
    assert!(frame.preset_locked && frame.seed_locked);
    // B may differ from A in dedup, the open key, which is the fix Compare proposes.
    assert!(!frame.compare_locked);
    let closed = view(&Page::built("seed=4&preset=race&embed=1&controls=retries").state);
    assert!(closed.compare_locked);
    assert_eq!((frame.preset, frame.seed.as_str()), ("race", "4"));
}

#[test]
fn a_refused_value_marks_its_field_and_keeps_the_value_running() {
    let mut page = Page::built("seed=4&preset=race");
    page.dispatch(Msg::Scenario(ScenarioMsg::SetKey {
        name: "retries".into(),
        value: "many".into(),
    }));
    let frame = view(&page.state);
    let retries = frame.fields.iter().find(|f| f.id == "key-retries").unwrap();
    assert!(retries.invalid);
    assert_eq!(retries.value, "3");
    assert!(frame.fields.iter().filter(|f| f.invalid).count() == 1);
}

#[test]
fn the_compare_box_shows_the_keys_b_runs_and_a_refused_edit_is_written_over_the_focus() {
    let mut page = Page::built("seed=4&preset=race");
    let frame = view(&page.state);
    assert!(!frame.compare_on && frame.compare_hidden && frame.compare_keys.is_empty());
    page.dispatch(Msg::Scenario(ScenarioMsg::CompareOn(true)));
    let frame = view(&page.state);
    assert!(frame.compare_on && !frame.compare_hidden);
    assert_eq!(frame.compare_keys, "dedup=atomic");
    assert!(!frame.compare_over_focus, "the learner may be typing there");
    page.dispatch(Msg::Scenario(ScenarioMsg::CompareKeys(
        "dedup=sometimes".into(),
    )));
    let frame = view(&page.state);
    assert_eq!(frame.compare_keys, "dedup=atomic");
    assert!(
        frame.compare_over_focus,
        "the box never shows keys B does not run"
    );
}
