//! The controls column and the toolbar as the page paints them: `shell` is what the page
//! builds once (a labelled field per scenario key, grouped as the codec says, and the preset
//! menu), `view` what each paint sets (values, locks, what an embed hides, what the banner
//! names). The values are the codec's text, so an edit goes back through the codec.

use idemlab_core::scenario::codec::{self, Group, Input, KeySpec};
use idemlab_core::scenario::presets::PRESETS;
use idemlab_lab::i18n::tr;

use crate::{compare_box, compare_locked, control_view, group_hidden, State, TOOLBAR_KEYS};

/// What the page builds once: the preset menu and a fieldset of fields per group.
#[derive(Clone, Debug, PartialEq)]
pub struct ControlsShell {
    pub presets: Vec<PresetOption>,
    /// Only the groups with a field (the toolbar's keys have theirs elsewhere).
    pub groups: Vec<GroupShell>,
}

/// An option of the preset menu: `value=""` for none.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetOption {
    pub value: &'static str,
    pub text: &'static str,
    /// The preset's summary, as the option's tooltip; none for "(none)".
    pub title: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GroupShell {
    /// The fieldset's `data-group`: the codec's own name, in English whatever the language.
    pub name: &'static str,
    pub legend: &'static str,
    pub fields: Vec<FieldShell>,
}

/// One labelled field and its help line.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldShell {
    pub key: &'static str,
    pub id: String,
    pub help_id: String,
    /// "What it does. Allowed: …": under the field, and as its tooltip.
    pub help: String,
    pub kind: FieldKind,
}

/// Which element edits a key, with its attributes.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    /// A `<select>` of the codec's names.
    Choice(Vec<&'static str>),
    /// An `<input type="number">`.
    Number {
        min: String,
        max: String,
        step: &'static str,
    },
    /// An `<input type="text">` with a `<datalist>` of examples.
    Text {
        list_id: String,
        examples: &'static [&'static str],
    },
    /// An `<input type="checkbox">`: checked is `1`.
    Toggle,
}

/// The controls as built at mount.
pub fn shell() -> ControlsShell {
    let none = PresetOption {
        value: "",
        text: idemlab_lab::t!("(none)"),
        title: None,
    };
    let presets = PRESETS.iter().map(|spec| PresetOption {
        value: spec.name,
        text: spec.name,
        title: Some(tr(spec.summary)),
    });
    let groups = Group::ALL.into_iter().filter_map(|group| {
        let fields: Vec<FieldShell> = (field_specs())
            .filter(|spec| spec.group == group)
            .map(field_shell)
            .collect();
        (!fields.is_empty()).then(|| GroupShell {
            name: group.title(),
            legend: tr(group.title()),
            fields,
        })
    });
    ControlsShell {
        presets: std::iter::once(none).chain(presets).collect(),
        groups: groups.collect(),
    }
}

/// The keys with a field in the column: all but the toolbar's.
fn field_specs() -> impl Iterator<Item = &'static KeySpec> {
    (codec::keys().iter()).filter(|spec| !TOOLBAR_KEYS.contains(&spec.name))
}

fn field_shell(spec: &'static KeySpec) -> FieldShell {
    let id = format!("key-{}", spec.name);
    let kind = match spec.input {
        Input::Choice(names) => FieldKind::Choice(names()),
        Input::Number { lo, hi } => FieldKind::Number {
            min: lo.to_string(),
            max: hi.to_string(),
            step: "1",
        },
        Input::Probability => FieldKind::Number {
            min: "0".into(),
            max: "1".into(),
            step: "0.05",
        },
        Input::Text { examples } => FieldKind::Text {
            list_id: format!("{id}-examples"),
            examples,
        },
        Input::Toggle => FieldKind::Toggle,
    };
    FieldShell {
        key: spec.name,
        help_id: format!("help-{}", spec.name),
        help: idemlab_lab::tf!("{} Allowed: {}.", tr(spec.help), (spec.allowed)()),
        id,
        kind,
    }
}

/// What a paint sets on the controls and the toolbar.
#[derive(Clone, Debug, PartialEq)]
pub struct ControlsFrame {
    /// The preset menu's value, `""` for none.
    pub preset: &'static str,
    pub preset_locked: bool,
    /// The seed box (written unless it has the focus), and its buttons' lock.
    pub seed: String,
    pub seed_locked: bool,
    pub compare_on: bool,
    /// The Compare tick and box, locked together (`compare_locked`).
    pub compare_locked: bool,
    /// The keys B runs: written into the box unless it has the focus, and even then when
    /// `compare_over_focus` (a refused edit must not stay on show).
    pub compare_keys: String,
    pub compare_over_focus: bool,
    /// The box shows only while comparing.
    pub compare_hidden: bool,
    /// A fieldset's `data-group` and whether it is hidden.
    pub groups: Vec<(&'static str, bool)>,
    pub fields: Vec<FieldFrame>,
}

/// One field as a paint sets it (`control_view`).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldFrame {
    pub id: String,
    /// The codec's text, written unless the field has the focus (a checkbox: `1` is checked).
    pub value: String,
    pub locked: bool,
    /// Hidden with its label and help.
    pub hidden: bool,
    /// `aria-invalid`: the banner names this key.
    pub invalid: bool,
}

pub fn view(state: &State) -> ControlsFrame {
    let page = &state.page;
    let fields = field_specs().map(|spec| {
        let view = control_view(state, spec);
        FieldFrame {
            id: format!("key-{}", spec.name),
            value: view.value,
            locked: view.locked,
            hidden: view.hidden,
            invalid: view.invalid,
        }
    });
    let groups = (Group::ALL.into_iter())
        .filter(|group| field_specs().any(|spec| spec.group == *group))
        .map(|group| (group.title(), group_hidden(state, group)));
    ControlsFrame {
        preset: page.scenario.preset.map_or("", |p| p.name()),
        preset_locked: !page.control_open("preset"),
        seed: page.scenario.seed.to_string(),
        seed_locked: !page.control_open("seed"),
        compare_on: page.compare.is_some(),
        compare_locked: compare_locked(state, None),
        compare_keys: compare_box(state, false).unwrap_or_default(),
        compare_over_focus: compare_box(state, true).is_some(),
        compare_hidden: page.compare.is_none(),
        groups: groups.collect(),
        fields: fields.collect(),
    }
}
