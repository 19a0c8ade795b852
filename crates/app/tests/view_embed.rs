//! The embedding frames (`app::view::embed`): the link's embed settings as classes and theme,
//! and the Embed dialog: its ticks, its title (the default until the author edits it), the
//! fixed height and why it cannot be used, the snippet, and the composer.

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::view::embed::{looks, shell, view};
use idemlab_app::{EmbedForm, Msg, Page};
use idemlab_app::{OwnMsg, ScenarioMsg};

fn form() -> EmbedForm {
    EmbedForm {
        page_url: "https://lab.example/index.html".into(),
        ..EmbedForm::default()
    }
}

#[test]
fn an_embed_link_sets_its_classes_and_its_theme() {
    let page = Page::built("seed=4&embed=1&hide=tabs,link&height=600&theme=dark");
    expect![[r#"
        LooksFrame {
            classes: [
                (
                    "embed",
                    true,
                ),
                (
                    "fit",
                    true,
                ),
                (
                    "hide-tabs",
                    true,
                ),
                (
                    "hide-side",
                    false,
                ),
                (
                    "hide-compare",
                    false,
                ),
                (
                    "hide-counters",
                    false,
                ),
                (
                    "hide-export",
                    false,
                ),
                (
                    "hide-link",
                    true,
                ),
            ],
            theme_media: "all",
            dark_media: [
                "(prefers-color-scheme: dark)",
                "not all",
                "all",
            ],
            color_scheme: "dark",
            posts_height: true,
        }
    "#]]
    .assert_debug_eq(&looks(&page.state));
    let plain = looks(&Page::built("seed=4").state);
    assert!(plain.classes.iter().all(|(_, on)| !on) && !plain.posts_height);
    assert_eq!(
        plain.theme_media, plain.dark_media[0],
        "the stylesheet's own"
    );
}

#[test]
fn the_dialog_opens_with_nothing_editable_and_its_own_title() {
    assert_eq!(shell().keys[0].id, "embed-open-seed");
    assert_eq!(shell().keys[0].label, " seed");
    let page = Page::built("seed=4&preset=race");
    let frame = view(&page.state, &form());
    assert!(frame.ticks.iter().all(|(_, ticked)| !ticked));
    assert_eq!(frame.title, "idemlab: race, seed 4");
    assert_eq!(frame.title, frame.default_title);
    assert!(!frame.report && frame.height_error.is_none());
    assert!(frame.snippet.contains("title=\"idemlab: race, seed 4\""));
    assert!(frame
        .snippet
        .contains("src=\"https://lab.example/index.html?seed=4&amp;"));
    let reports = Page::built("seed=4&preset=race&report=parent");
    assert!(view(&reports.state, &form()).report, "as the link says");
    let unticked = EmbedForm {
        report: Some(false),
        ..form()
    };
    assert!(!view(&reports.state, &unticked).report);
}

#[test]
fn ticks_open_keys_and_a_typed_title_and_height_go_into_the_snippet() {
    let page = Page::built("seed=4&preset=race");
    let ticked = EmbedForm {
        open: vec!["dedup".into(), "retries".into()],
        title: Some("Retries".into()),
        height: "480".into(),
        ..form()
    };
    let frame = view(&page.state, &ticked);
    let on: Vec<&str> = (frame.ticks.iter())
        .filter(|(_, ticked)| *ticked)
        .map(|(id, _)| id.as_str())
        .collect();
    assert_eq!(on, ["embed-open-dedup", "embed-open-retries"]);
    assert_eq!(frame.title, "Retries");
    assert_eq!(
        frame.default_title,
        "idemlab: race, seed 4 (dedup, retries editable)"
    );
    assert!(
        frame.snippet.contains("controls=dedup,retries"),
        "{}",
        frame.snippet
    );
    assert!(frame.snippet.contains("height:480px") && !frame.snippet.contains("<script>"));
    let wrong = view(
        &page.state,
        &EmbedForm {
            height: "5".into(),
            ..ticked
        },
    );
    expect!["A fixed height of 5 px cannot be used: give a whole number from 320 to 4000, or leave it empty for a frame that sizes itself. This snippet sizes itself."]
        .assert_eq(wrong.height_error.as_deref().unwrap());
    assert!(wrong.snippet.contains("<script>"));
}

#[test]
fn a_composed_step_retitles_an_unedited_title_and_keeps_an_edited_one() {
    let mut page = Page::built("seed=7&preset=lost-ack");
    let before = view(&page.state, &form());
    page.dispatch(Msg::Own(OwnMsg::Add {
        caption: "Count the charges".into(),
        ask: "effects".into(),
        words: String::new(),
    }));
    let unedited = EmbedForm {
        title: Some(before.title.clone()),
        default_before: Some(before.default_title.clone()),
        ..form()
    };
    let frame = view(&page.state, &unedited);
    assert_eq!(frame.title, "idemlab: Count the charges (1 step)");
    let edited = EmbedForm {
        title: Some("Mine".into()),
        ..unedited
    };
    assert_eq!(view(&page.state, &edited).title, "Mine");
    expect![[r#"
        [
            ComposedStep {
                text: "seed=7&preset=lost-ack · Count the charges · asks: How many charges in run A?",
                remove: "Remove",
                remove_label: "Remove step 1",
            },
        ]
    "#]]
    .assert_debug_eq(&frame.steps);
    assert_eq!(frame.compose_error, None);
}

#[test]
fn the_question_menu_keeps_its_pick_while_it_offers_it_and_a_refusal_says_why() {
    let mut page = Page::built("seed=7&preset=lost-ack");
    let asking_b = EmbedForm {
        ask: "b.effects".into(),
        ..form()
    };
    let frame = view(&page.state, &asking_b);
    assert_eq!(frame.ask, "", "no B to ask of");
    assert_eq!(frame.asks[0].1, "No question");
    page.dispatch(Msg::Scenario(ScenarioMsg::CompareOn(true)));
    assert_eq!(view(&page.state, &asking_b).ask, "b.effects");
    page.dispatch(Msg::Own(OwnMsg::Add {
        caption: String::new(),
        ask: "b.nothing".into(),
        words: String::new(),
    }));
    let frame = view(&page.state, &form());
    assert!(frame.compose_error.is_some() && frame.steps.is_empty());
}

#[test]
fn a_self_sizing_snippet_asks_for_its_view_to_be_measured_and_then_starts_at_each_class() {
    let page = Page::built("seed=4&preset=race");
    let unmeasured = view(&page.state, &form());
    let link = unmeasured.measure.clone().expect("a link to measure");
    assert!(
        link.starts_with("https://lab.example/index.html?seed=4&"),
        "{link}"
    );
    assert!(!unmeasured.snippet.contains("data-heights="));
    assert!(unmeasured.snippet.contains("height:600px"));
    let measured = EmbedForm {
        measured: Some((link.clone(), [1779, 1400, 1318])),
        ..form()
    };
    let frame = view(&page.state, &measured);
    assert_eq!(frame.measure, None, "measured already");
    // The widest class's height where the script is stripped; the script picks by width.
    assert!(
        frame
            .snippet
            .contains(r#"<iframe data-idemlab data-heights="1779 1400 1318" src="#)
            && frame.snippet.contains("height:1318px"),
        "{}",
        frame.snippet
    );
    assert!(frame
        .snippet
        .contains("width <= 480 ? 0 : width <= 900 ? 1 : 2"));
    // Another view (a key ticked open) has another height: measured again.
    let other = EmbedForm {
        open: vec!["dedup".into()],
        ..measured.clone()
    };
    let other = view(&page.state, &other);
    assert!(other.measure.is_some_and(|url| url != link));
    assert!(
        !other.snippet.contains("data-heights="),
        "not this view's heights"
    );
    // A fixed height is never measured.
    let fixed = EmbedForm {
        height: "600".into(),
        ..form()
    };
    assert_eq!(view(&page.state, &fixed).measure, None);
}

#[test]
fn a_measured_height_is_taken_only_within_the_scripts_bounds() {
    assert_eq!(app::measured_height_px(1317.2), Some(1318));
    for wrong in [0.0, -4.0, f64::NAN, f64::INFINITY, 20_000.0] {
        assert_eq!(app::measured_height_px(wrong), None, "{wrong}");
    }
}
