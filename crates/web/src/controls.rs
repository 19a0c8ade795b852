//! The controls: one per scenario key, built from the codec's own key table and grouped as it
//! says, plus the toolbar (preset, seed, compare). Every edit goes back through the codec.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement};

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::Msg;
use idemlab_core::scenario::codec::{self, Group, Input, KeySpec};
use idemlab_core::scenario::presets::PRESETS;
use idemlab_lab::i18n::tr;

fn set_key(name: &str, value: &str) {
    dispatch(Msg::SetKey {
        name: name.into(),
        value: value.into(),
    });
}

use idemlab_app::{self as app, TOOLBAR_KEYS};

pub fn mount() {
    mount_presets();
    mount_seed();
    mount_compare();
    let panel: Element = dom::by_id("controls");
    for group in Group::ALL {
        let keys: Vec<&KeySpec> = codec::keys()
            .iter()
            .filter(|spec| spec.group == group && !TOOLBAR_KEYS.contains(&spec.name))
            .collect();
        if keys.is_empty() {
            continue;
        }
        let fieldset = El::new("fieldset")
            .attr("data-group", group.title())
            .child(&El::new("legend").text(tr(group.title())).el());
        let fieldset = keys
            .iter()
            .fold(fieldset, |set, spec| set.child(&control(spec)));
        panel.append_child(&fieldset.el()).ok();
    }
}

fn mount_presets() {
    let select = dom::select("preset");
    select
        .append_child(
            &El::new("option")
                .attr("value", "")
                .text(idemlab_lab::t!("(none)"))
                .el(),
        )
        .ok();
    for spec in PRESETS.iter() {
        let option = El::new("option")
            .attr("value", spec.name)
            .attr("title", tr(spec.summary))
            .text(spec.name);
        select.append_child(&option.el()).ok();
    }
    let target = select.clone();
    dom::listen::<Event>(&select, "change", move |_| {
        dispatch(Msg::PickPreset(target.value()))
    });
}

fn mount_seed() {
    let seed = dom::input("seed");
    let target = seed.clone();
    dom::listen::<Event>(&seed, "change", move |_| {
        set_key("seed", target.value().trim())
    });
    dom::on_click("seed-new", new_seed);
    // The run is a pure function of the scenario: running it again gives the same trace,
    // which is the point this button makes.
    dom::on_click("seed-same", || dispatch(Msg::RunAgain));
}

/// A fresh seed: the one place the page uses randomness, and it only picks the seed.
pub fn new_seed() {
    dispatch(Msg::NewSeed((js_sys::Math::random() * 1e9).floor() as u64));
}

fn mount_compare() {
    let toggle = dom::input("compare-on");
    let keys = dom::input("compare-keys");
    let (toggle_target, keys_target) = (toggle.clone(), keys.clone());
    dom::listen::<Event>(&toggle, "change", move |_| {
        dispatch(Msg::CompareOn(toggle_target.checked()))
    });
    dom::listen::<Event>(&keys, "change", move |_| {
        dispatch(Msg::CompareKeys(keys_target.value()))
    });
}

/// One labelled control with its help text, wired to `set_key`.
fn control(spec: &KeySpec) -> Element {
    let id = format!("key-{}", spec.name);
    let help_id = format!("help-{}", spec.name);
    let field = input_for(spec, &id);
    field.set_attribute("aria-describedby", &help_id).ok();
    field.set_attribute("data-key", spec.name).ok();
    let help = idemlab_lab::tf!("{} Allowed: {}.", tr(spec.help), (spec.allowed)());
    field.set_attribute("title", &help).ok();
    let name = spec.name;
    let target = field.clone();
    dom::listen::<Event>(&field, "change", move |_| set_key(name, &value_of(&target)));
    El::new("div")
        .class("control")
        .attr("data-control", spec.name)
        .child(&El::new("label").attr("for", &id).text(spec.name).el())
        .child(&field)
        .child(&El::new("small").attr("id", &help_id).text(&help).el())
        .el()
}

fn input_for(spec: &KeySpec, id: &str) -> Element {
    match spec.input {
        Input::Choice(names) => {
            let select = El::new("select").attr("id", id);
            names()
                .into_iter()
                .fold(select, |s, name| {
                    s.child(&El::new("option").attr("value", name).text(name).el())
                })
                .el()
        }
        Input::Number { lo, hi } => El::new("input")
            .attr("id", id)
            .attr("type", "number")
            .attr("min", &lo.to_string())
            .attr("max", &hi.to_string())
            .attr("step", "1")
            .el(),
        Input::Probability => El::new("input")
            .attr("id", id)
            .attr("type", "number")
            .attr("min", "0")
            .attr("max", "1")
            .attr("step", "0.05")
            .el(),
        Input::Text { examples } => text_with_examples(id, examples),
        Input::Toggle => El::new("input")
            .attr("id", id)
            .attr("type", "checkbox")
            .el(),
    }
}

fn text_with_examples(id: &str, examples: &[&str]) -> Element {
    let list_id = format!("{id}-examples");
    let list = El::new("datalist").attr("id", &list_id);
    let list = examples.iter().fold(list, |l, ex| {
        l.child(&El::new("option").attr("value", ex).el())
    });
    let input = El::new("input")
        .attr("id", id)
        .attr("type", "text")
        .attr("list", &list_id)
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

/// Shows each control's current value; locks the ones an embed did not open.
/// Shows each control as `app::control_view` says: its value (unless it has the focus),
/// locked, hidden in a limited embed, invalid when the banner names it.
pub fn render() {
    let active = dom::document().active_element();
    with_app(|app| {
        for spec in codec::keys() {
            let Some(field) = dom::document().get_element_by_id(&format!("key-{}", spec.name))
            else {
                continue;
            };
            let view = app::control_view(&app.state, spec);
            if active.as_ref() != Some(&field) {
                set_value(&field, &view.value);
            }
            lock(&field, view.locked);
            let invalid = if view.invalid { "true" } else { "false" };
            field.set_attribute("aria-invalid", invalid).ok();
            if let Some(wrapper) = field.parent_element() {
                dom::set_hidden(&wrapper, view.hidden);
            }
        }
        for group in Group::ALL {
            let selector = format!("fieldset[data-group=\"{}\"]", group.title());
            if let Ok(Some(fieldset)) = dom::document().query_selector(&selector) {
                dom::set_hidden(&fieldset, app::group_hidden(&app.state, group));
            }
        }
        render_toolbar(&app.state);
    });
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

fn lock(field: &Element, locked: bool) {
    if locked {
        field.set_attribute("disabled", "").ok();
    } else {
        field.remove_attribute("disabled").ok();
    }
}

fn render_toolbar(state: &app::State) {
    let (scenario, page) = (&state.page.scenario, &state.page);
    dom::select("preset").set_value(scenario.preset.map_or("", |p| p.name()));
    let seed = dom::input("seed");
    if dom::document().active_element().as_ref() != Some(seed.unchecked_ref::<Element>()) {
        seed.set_value(&scenario.seed.to_string());
    }
    for (id, key) in [
        ("preset", "preset"),
        ("seed", "seed"),
        ("seed-new", "seed"),
        ("seed-same", "seed"),
    ] {
        lock(&dom::by_id::<Element>(id), !page.control_open(key));
    }
    let comparing = page.compare.is_some();
    dom::input("compare-on").set_checked(comparing);
    let keys = dom::input("compare-keys");
    let locked = app::compare_locked(state, None);
    lock(&dom::by_id::<Element>("compare-on"), locked);
    lock(keys.unchecked_ref::<Element>(), locked);
    keys.unchecked_ref::<HtmlElement>().set_hidden(!comparing);
    let focused = dom::document().active_element().as_ref() == Some(keys.unchecked_ref());
    if let Some(text) = app::compare_box(state, focused) {
        keys.set_value(&text);
    }
}
