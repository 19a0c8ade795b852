//! The controls: one per scenario key, built from `app::view::controls::shell` and grouped as it
//! says, plus the toolbar (preset, seed, compare). Every edit goes back through the codec; a
//! paint sets what `app::view::controls::view` says.

use idemlab_app::ScenarioMsg;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement};

use super::dom::{self, El};
use super::{dispatch, paint_changed, with_ui};
use idemlab_app::{ControlsFrame, FieldKind, FieldShell, Msg};

fn set_key(name: &str, value: &str) {
    forget();
    dispatch(Msg::Scenario(ScenarioMsg::SetKey {
        name: name.into(),
        value: value.into(),
    }));
}

/// Forgets the last paint: a field the learner edited no longer shows what it painted, so the
/// next paint writes every field again (a focused field excepted), as it would on a change.
fn forget() {
    with_ui(|u| &u.controls_painted, |last| last.replace(None));
}

pub fn mount() {
    let shell = idemlab_app::view::controls::shell();
    mount_presets(&shell.presets);
    mount_seed();
    mount_compare();
    let panel: Element = dom::by_id("controls");
    for group in &shell.groups {
        let fieldset = El::new("fieldset")
            .attr("data-group", group.name)
            .child(&El::new("legend").text(group.legend).el());
        let fieldset =
            (group.fields.iter()).fold(fieldset, |set, field| set.child(&control(field)));
        panel.append_child(&fieldset.el()).ok();
    }
    // A field left with the learner's text in it is written again at the next paint.
    dom::listen::<Event>(&panel, "focusout", |_| forget());
}

fn mount_presets(presets: &[idemlab_app::PresetOption]) {
    let select = dom::select("preset");
    for preset in presets {
        let option = El::new("option").attr("value", preset.value);
        let option = match preset.title {
            Some(title) => option.attr("title", title),
            None => option,
        };
        select.append_child(&option.text(preset.text).el()).ok();
    }
    let target = select.clone();
    dom::listen::<Event>(&select, "change", move |_| {
        forget();
        dispatch(Msg::Scenario(ScenarioMsg::PickPreset(target.value())))
    });
}

fn mount_seed() {
    let seed = dom::input("seed");
    let target = seed.clone();
    dom::listen::<Event>(&seed, "change", move |_| {
        set_key("seed", target.value().trim())
    });
    dom::listen::<Event>(&seed, "focusout", |_| forget());
    dom::on_click("seed-new", new_seed);
    // The run is a pure function of the scenario: running it again gives the same trace,
    // which is the point this button makes.
    dom::on_click("seed-same", || {
        dispatch(Msg::Scenario(ScenarioMsg::RunAgain))
    });
}

/// A fresh seed: randomness picks the seed only (a fresh check seed is the other use).
pub fn new_seed() {
    dispatch(Msg::Scenario(ScenarioMsg::NewSeed(
        (js_sys::Math::random() * 1e9).floor() as u64,
    )));
}

fn mount_compare() {
    let toggle = dom::input("compare-on");
    let keys = dom::input("compare-keys");
    let (toggle_target, keys_target) = (toggle.clone(), keys.clone());
    dom::listen::<Event>(&toggle, "change", move |_| {
        forget();
        dispatch(Msg::Scenario(ScenarioMsg::CompareOn(
            toggle_target.checked(),
        )))
    });
    dom::listen::<Event>(&keys, "change", move |_| {
        forget();
        dispatch(Msg::Scenario(ScenarioMsg::CompareKeys(keys_target.value())))
    });
    dom::listen::<Event>(&keys, "focusout", |_| forget());
}

/// One labelled control with its help text, wired to `set_key`.
fn control(shell: &FieldShell) -> Element {
    let field = input_for(shell);
    dom::set_attr(&field, "aria-describedby", &shell.help_id);
    dom::set_attr(&field, "data-key", shell.key);
    dom::set_attr(&field, "title", &shell.help);
    let name = shell.key;
    let target = field.clone();
    dom::listen::<Event>(&field, "change", move |_| set_key(name, &value_of(&target)));
    El::new("div")
        .class("control")
        .attr("data-control", shell.key)
        .child(&El::new("label").attr("for", &shell.id).text(shell.key).el())
        .child(&field)
        .child(
            &El::new("small")
                .attr("id", &shell.help_id)
                .text(&shell.help)
                .el(),
        )
        .el()
}

fn input_for(shell: &FieldShell) -> Element {
    let id = shell.id.as_str();
    match &shell.kind {
        FieldKind::Choice(names) => {
            let select = El::new("select").attr("id", id);
            (names.iter())
                .fold(select, |s, name| {
                    s.child(&El::new("option").attr("value", name).text(name).el())
                })
                .el()
        }
        FieldKind::Number { min, max, step } => El::new("input")
            .attr("id", id)
            .attr("type", "number")
            .attr("min", min)
            .attr("max", max)
            .attr("step", step)
            .el(),
        FieldKind::Text { list_id, examples } => text_with_examples(id, list_id, examples),
        FieldKind::Toggle => El::new("input")
            .attr("id", id)
            .attr("type", "checkbox")
            .el(),
    }
}

fn text_with_examples(id: &str, list_id: &str, examples: &[&str]) -> Element {
    let list = El::new("datalist").attr("id", list_id);
    let list = examples.iter().fold(list, |l, ex| {
        l.child(&El::new("option").attr("value", ex).el())
    });
    let input = El::new("input")
        .attr("id", id)
        .attr("type", "text")
        .attr("list", list_id)
        .attr("autocomplete", "off")
        .el();
    dom::document()
        .body()
        .expect("body")
        .append_child(&list.el())
        .ok();
    input
}

/// The codec text a control currently holds.
fn value_of(field: &Element) -> String {
    if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
        return select.value();
    }
    let input = field
        .dyn_ref::<HtmlInputElement>()
        .expect("controls are inputs or selects");
    if input.type_() == "checkbox" {
        return if input.checked() { "1" } else { "0" }.into();
    }
    input.value().trim().to_string()
}

/// Paints the controls as `app::view::controls::view` says, unless they are as last painted.
pub fn render(frame: &ControlsFrame) {
    paint_changed(|u| &u.controls_painted, frame, |frame, _| paint(frame));
}

/// Each field's value (unless it has the focus), lock, `aria-invalid` and whether it shows;
/// each group's fieldset; the toolbar.
fn paint(frame: &ControlsFrame) {
    let active = dom::document().active_element();
    for view in &frame.fields {
        let Some(field) = dom::document().get_element_by_id(&view.id) else {
            continue;
        };
        if active.as_ref() != Some(&field) {
            set_value(&field, &view.value);
        }
        dom::set_flag(&field, "disabled", view.locked);
        let invalid = if view.invalid { "true" } else { "false" };
        dom::set_attr(&field, "aria-invalid", invalid);
        if let Some(wrapper) = field.parent_element() {
            dom::set_hidden(&wrapper, view.hidden);
        }
    }
    for (group, hidden) in &frame.groups {
        let selector = format!("fieldset[data-group=\"{group}\"]");
        if let Ok(Some(fieldset)) = dom::document().query_selector(&selector) {
            dom::set_hidden(&fieldset, *hidden);
        }
    }
    paint_toolbar(frame, active.as_ref());
}

fn set_value(field: &Element, value: &str) {
    if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
        select.set_value(value);
    } else if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
        if input.type_() == "checkbox" {
            input.set_checked(value == "1");
        } else if input.value() != value {
            input.set_value(value);
        }
    }
}

fn paint_toolbar(frame: &ControlsFrame, active: Option<&Element>) {
    dom::select("preset").set_value(frame.preset);
    let seed = dom::input("seed");
    if active != Some(seed.unchecked_ref::<Element>()) {
        seed.set_value(&frame.seed);
    }
    dom::set_flag(&dom::by_id("preset"), "disabled", frame.preset_locked);
    for id in ["seed", "seed-new", "seed-same"] {
        dom::set_flag(&dom::by_id(id), "disabled", frame.seed_locked);
    }
    dom::input("compare-on").set_checked(frame.compare_on);
    let keys = dom::input("compare-keys");
    dom::set_flag(&dom::by_id("compare-on"), "disabled", frame.compare_locked);
    dom::set_flag(keys.unchecked_ref(), "disabled", frame.compare_locked);
    keys.unchecked_ref::<HtmlElement>()
        .set_hidden(frame.compare_hidden);
    let focused = active == Some(keys.unchecked_ref::<Element>());
    if !focused || frame.compare_over_focus {
        keys.set_value(&frame.compare_keys);
    }
}
