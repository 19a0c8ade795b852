//! Embedding as the page paints it: the link's embed settings as classes and theme (`looks`),
//! and the Embed dialog (`shell`, `view`): a tick per key the embed may leave open, the title,
//! the fixed height and why it cannot be used, the snippet, and the composer of the author's
//! own steps. The dialog's fields are the browser's until read: `EmbedForm` is what they say.

use idemlab_core::scenario::codec;

use crate::page::PARTS;
use crate::{
    compose_ask_choices, compose_lines, embed_height, embed_height_error, embed_query,
    embed_snippet, embed_title, theme_rules, Sizing, State, THEME_MEDIA, WIDTH_CLASSES,
};

/// How the page looks for the link's `embed=`, `height=`, `hide=` and `theme=`.
#[derive(Clone, Debug, PartialEq)]
pub struct LooksFrame {
    /// Classes of `#app`, each set or cleared: `embed`, `fit` (a fixed `height=`) and a
    /// `hide-PART` per part; the stylesheet does the rest.
    pub classes: Vec<(String, bool)>,
    /// The media text the stylesheet's dark rules get (`theme_rules`).
    pub theme_media: &'static str,
    /// Every media text a dark rule may have, the stylesheet's own first: how the page finds
    /// them again after a change.
    pub dark_media: [&'static str; 3],
    /// The root's `color-scheme`.
    pub color_scheme: &'static str,
    /// An embed posts its height to its parent whenever it changes.
    pub posts_height: bool,
}

pub fn looks(state: &State) -> LooksFrame {
    let page = &state.page;
    let (theme_media, color_scheme) = theme_rules(page.theme);
    let mut classes = vec![
        ("embed".to_string(), page.embed),
        ("fit".to_string(), page.height.is_some()),
    ];
    classes.extend(PARTS.map(|part| (format!("hide-{part}"), page.hides(part))));
    LooksFrame {
        classes,
        theme_media,
        dark_media: THEME_MEDIA,
        color_scheme,
        posts_height: page.embed,
    }
}

/// The dialog's ticks, built once: one per key an embed may leave open.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbedShell {
    pub keys: Vec<EmbedKey>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EmbedKey {
    pub key: &'static str,
    pub id: String,
    /// The tick's words, after the box.
    pub label: String,
}

pub fn shell() -> EmbedShell {
    let keys = codec::key_names().map(|key| EmbedKey {
        key,
        id: format!("embed-open-{key}"),
        label: format!(" {key}"),
    });
    EmbedShell {
        keys: keys.collect(),
    }
}

/// What the dialog's fields say, as the browser read them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EmbedForm {
    /// The page's address without its query: the snippet's link starts with it.
    pub page_url: String,
    /// The keys ticked open.
    pub open: Vec<String>,
    /// The fixed height, as typed.
    pub height: String,
    /// The title as typed; none gives it the default (opening the dialog, None, All).
    pub title: Option<String>,
    /// The default title before the sequence changed: a typed title still equal to it was
    /// never edited, and follows the new default.
    pub default_before: Option<String>,
    /// "Report to the course page", as ticked; none for the link's own (opening the dialog:
    /// a link that reports offers a snippet that does too).
    pub report: Option<bool>,
    /// The question picked in the composer's menu.
    pub ask: String,
    /// The last snippet link the page measured, and its view's height at each width class.
    pub measured: Option<(String, [u32; WIDTH_CLASSES.len()])>,
}

/// What the dialog shows for a form.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbedFrame {
    /// Each key's tick (by its id) and whether it is ticked.
    pub ticks: Vec<(String, bool)>,
    pub title: String,
    /// The title the dialog gives until the author edits it (`embed_title`).
    pub default_title: String,
    pub report: bool,
    /// Under the height, when it cannot be used.
    pub height_error: Option<String>,
    pub snippet: String,
    /// The link whose view the page should measure for the snippet (in a hidden frame at each
    /// width class), when the snippet sizes itself and that link is not the one measured.
    pub measure: Option<String>,
    /// The composer's question menu, `(value, words)`, and its value: the one picked while
    /// the menu still offers it.
    pub asks: Vec<(String, String)>,
    pub ask: String,
    /// The steps composed so far, each with its Remove button's words.
    pub steps: Vec<ComposedStep>,
    /// Why the last step could not be added.
    pub compose_error: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ComposedStep {
    pub text: String,
    pub remove: &'static str,
    pub remove_label: String,
}

pub fn view(state: &State, form: &EmbedForm) -> EmbedFrame {
    let default_title = embed_title(state, &form.open);
    let title = match (&form.title, &form.default_before) {
        (Some(typed), Some(before)) if typed == before => default_title.clone(),
        (Some(typed), _) => typed.clone(),
        (None, _) => default_title.clone(),
    };
    let report = form.report.unwrap_or(state.page.report);
    let height = embed_height(&form.height);
    let query = embed_query(state, form.open.clone(), height, report);
    let url = format!("{}?{query}", form.page_url);
    let measured = (form.measured.as_ref()).and_then(|(link, px)| (*link == url).then_some(*px));
    let (sizing, measure) = match (height, measured) {
        (Some(px), _) => (Sizing::Fixed(px), None),
        (None, Some(px)) => (Sizing::Measured(px), None),
        (None, None) => (Sizing::Unmeasured, Some(url.clone())),
    };
    let asks = compose_ask_choices(state);
    let ask = match asks.iter().any(|(value, _)| *value == form.ask) {
        true => form.ask.clone(),
        false => String::new(),
    };
    let steps = compose_lines(state).into_iter().enumerate();
    EmbedFrame {
        ticks: (shell().keys.into_iter())
            .map(|tick| (tick.id, form.open.iter().any(|key| key == tick.key)))
            .collect(),
        snippet: embed_snippet(&url, &title, sizing),
        measure,
        title,
        default_title,
        report,
        height_error: embed_height_error(&form.height),
        asks,
        ask,
        steps: steps
            .map(|(i, text)| ComposedStep {
                text,
                remove: idemlab_lab::t!("Remove"),
                remove_label: idemlab_lab::tf!("Remove step {}", i + 1),
            })
            .collect(),
        compose_error: state.compose_error.clone(),
    }
}
