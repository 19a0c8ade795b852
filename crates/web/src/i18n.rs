//! The page's own markup in the language in force: one walk over `www/index.html`'s text and
//! its readable attributes when the page loads, before any Rust code writes into it. The
//! strings themselves, and the rule for which are kept, are `idemlab_lab::i18n`'s; `tests/i18n.rs`
//! gathers the same strings from the file into the table by the same rule (`MARKUP_SKIPPED`,
//! `MARKUP_ATTRIBUTES`, whitespace collapsed).

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlTemplateElement, Node};

use super::dom;
use idemlab_lab::i18n::{self, Lang, MARKUP_ATTRIBUTES, MARKUP_SKIPPED};

/// Translates the document's markup, and names its language on `<html lang>`.
pub fn translate_markup() {
    let lang = i18n::lang();
    let Some(root) = dom::document().document_element() else {
        return;
    };
    if lang == Lang::English {
        return;
    }
    // The pseudo-language is a private-use tag (BCP 47's `qps-ploc`), so a screen reader reads
    // it with English rules rather than guessing.
    let tag = match lang {
        Lang::Pseudo => "qps-ploc",
        other => other.name(),
    };
    root.set_attribute("lang", tag).ok();
    walk(&root);
}

fn walk(parent: &Node) {
    let mut child = parent.first_child();
    while let Some(node) = child {
        match node.node_type() {
            Node::TEXT_NODE => translate_text(&node),
            Node::ELEMENT_NODE => element(node.unchecked_ref()),
            _ => {}
        }
        child = node.next_sibling();
    }
}

fn element(element: &Element) {
    let tag = element.tag_name().to_ascii_lowercase();
    if MARKUP_SKIPPED.contains(&tag.as_str())
        || element.get_attribute("translate").as_deref() == Some("no")
    {
        return;
    }
    for name in MARKUP_ATTRIBUTES {
        if let Some(value) = element.get_attribute(name) {
            if let Some(translated) = i18n::tr_markup(&i18n::collapse(&value)) {
                element.set_attribute(name, &translated).ok();
            }
        }
    }
    match element.dyn_ref::<HtmlTemplateElement>() {
        Some(template) => walk(&template.content()),
        None => walk(element),
    }
}

fn translate_text(node: &Node) {
    let Some(text) = node.node_value() else {
        return;
    };
    let collapsed = i18n::collapse(&text);
    if !i18n::worth_translating(&collapsed) {
        return;
    }
    if let Some(translated) = i18n::tr_markup(&collapsed) {
        // Keep the spaces around the words: they separate this text from its neighbours.
        let lead = if text.starts_with(char::is_whitespace) {
            " "
        } else {
            ""
        };
        let trail = if text.ends_with(char::is_whitespace) {
            " "
        } else {
            ""
        };
        node.set_node_value(Some(&format!("{lead}{translated}{trail}")));
    }
}
