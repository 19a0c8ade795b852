//! The mastery check on the Lessons tab, painted from `app::QuizFrame`: one question at a time,
//! answered before its run is shown (`app::run_hidden`); one attempt each, then the run, right
//! or wrong, why, the proving event under the cursor, and a choice's run as B. The questions
//! and their answers come from `idemlab_course::quiz`; this file paints them, keeps progress in
//! `localStorage` and picks a fresh quiz seed when the link has none (the page's only other use
//! of randomness besides New seed).

use idemlab_app::QuizMsg;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement};

use super::dom::{self, El};
use super::{dispatch, repaint, with_app, with_ui};
use idemlab_app::QuizShows;
use idemlab_app::{AnswerInput, Msg, QuizChoice, QuizFields, QuizFrame, QuizPanel, QuizQuestion};
use idemlab_course::quiz::progress::{Progress, STORAGE_KEY};

/// The check's shell is in `index.html`; here are its listeners.
pub fn mount() {
    let section: Element = dom::by_id("quiz");
    dom::listen::<Event>(&section, "click", on_click);
    // No <form>: a frame sandboxed without `allow-forms` drops every submission, so Check is a
    // button and Enter in a field checks too, as a form's implicit submission would.
    dom::listen::<web_sys::KeyboardEvent>(&section, "keydown", |event| {
        let in_field = event
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok());
        if event.key() == "Enter" && in_field.is_some() {
            event.prevent_default();
            dispatch(Msg::Quiz(QuizMsg::Answer(answer_input())));
        }
    });
}

/// Records how long drawing the linked check took (read by the Playwright test's report).
pub fn drawn(load_ms: f64) {
    if with_app(|app| app.state.quiz.is_some()) {
        dom::by_id::<Element>("quiz")
            .set_attribute(
                "data-generate-ms",
                &idemlab_lab::decimal::Fixed::<1>(load_ms).to_string(),
            )
            .ok();
    }
}

fn storage() -> Option<web_sys::Storage> {
    dom::window().local_storage().ok().flatten()
}

/// This browser's progress record, read again (and kept for the frames); a note says why it
/// could not be read, if it could not.
pub fn load_progress() -> Progress {
    let text = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let (progress, note) = Progress::parse(text.as_deref());
    // A newer version's record is left as it is, so this visit's progress lives only in
    // memory: what was recorded since the first read goes on.
    if progress.keep_stored {
        let kept = with_ui(|u| &u.progress, |p| p.borrow().clone());
        if let Some(kept) = kept.filter(|kept| kept.keep_stored) {
            return kept;
        }
    }
    if note.is_some() {
        with_ui(|u| &u.quiz_note, |n| *n.borrow_mut() = note);
    }
    with_ui(
        |u| &u.progress,
        |p| *p.borrow_mut() = Some(progress.clone()),
    );
    progress
}

/// Runs `f` on the progress record as last read or written, reading it the first time.
pub fn with_progress<R>(f: impl FnOnce(&Progress) -> R) -> R {
    if with_ui(|u| &u.progress, |p| p.borrow().is_none()) {
        load_progress();
    }
    with_ui(
        |u| &u.progress,
        |p| f(p.borrow().as_ref().expect("read just now")),
    )
}

/// Records the check's answers in this browser's progress (`Effects::save_progress`).
pub fn save_progress() {
    let Some(session) = with_app(|app| app.state.quiz.clone()) else {
        return;
    };
    let mut progress = load_progress();
    progress.record(&session.quiz, &session.answers);
    if !store_progress(progress) {
        let note = idemlab_app::view::quiz::unsaved_note();
        with_ui(|u| &u.quiz_note, |n| *n.borrow_mut() = Some(note));
    }
}

/// Stores `progress` and keeps it for the frames; false if storage refused it. A progress
/// read beside a newer version's record is kept in memory only, never written over it.
pub(super) fn store_progress(progress: Progress) -> bool {
    let text = progress.to_text();
    let saved =
        progress.keep_stored || storage().is_some_and(|s| s.set_item(STORAGE_KEY, &text).is_ok());
    if saved {
        with_ui(|u| &u.progress, |p| *p.borrow_mut() = Some(progress));
    }
    saved
}

/// Opens the open lesson's check: an unfinished one from this browser's progress, else a
/// fresh seed (`app::update` decides which). Called from the lesson's last step.
pub fn start() {
    let stored = load_progress();
    dispatch(Msg::Quiz(QuizMsg::Start {
        stored,
        fresh_seed: fresh_seed(),
    }));
}

/// A quiz seed for a learner without an instructor's link.
fn fresh_seed() -> u64 {
    (js_sys::Math::random() * 1e9).floor() as u64
}

pub(super) fn focus_title() {
    if let Some(title) = dom::document().get_element_by_id("quiz-title") {
        title.dyn_into::<HtmlElement>().ok().map(|t| t.focus());
    }
}

fn on_click(event: Event) {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let action = target.closest("[data-action]").ok().flatten();
    let Some(action) = action.and_then(|a| a.get_attribute("data-action")) else {
        return;
    };
    let msg = match action.as_str() {
        "start" => Msg::Quiz(QuizMsg::Begin),
        "try" => Msg::Quiz(QuizMsg::Try(picked_choice())),
        "check" => Msg::Quiz(QuizMsg::Answer(answer_input())),
        "next" => Msg::Quiz(QuizMsg::Next),
        "new" => Msg::Quiz(QuizMsg::New {
            seed: fresh_seed(),
            stored: load_progress(),
        }),
        "close" => Msg::Quiz(QuizMsg::Close),
        "proof" => Msg::Quiz(QuizMsg::Proof),
        show => match show.strip_prefix("show-").and_then(|i| i.parse().ok()) {
            Some(index) => Msg::Quiz(QuizMsg::Show(index)),
            None => return,
        },
    };
    dispatch(msg);
}

/// The choice picked in the form, if any.
fn picked_choice() -> Option<u32> {
    let picked = dom::document()
        .query_selector("#quiz-form input[name=quiz-choice]:checked")
        .ok()
        .flatten()?;
    picked
        .dyn_into::<HtmlInputElement>()
        .ok()?
        .value()
        .parse()
        .ok()
}

/// What the form holds; `app::update` checks it.
fn answer_input() -> AnswerInput {
    let number = (dom::document().get_element_by_id("quiz-number"))
        .and_then(|n| n.dyn_into::<HtmlInputElement>().ok())
        .map(|n| n.value())
        .unwrap_or_default();
    AnswerInput {
        choice: picked_choice(),
        number,
    }
}

/// Builds the panel afresh when its frame changed; a note waiting (`Ui::quiz_note`) goes under
/// it then, once.
pub fn paint(frame: &QuizFrame) {
    let Some(last) = repaint(|u| &u.quiz_painted, frame) else {
        return;
    };
    let Some(panel) = &frame.panel else {
        return;
    };
    if last.as_ref().and_then(|l| l.panel.as_ref()) == Some(panel) {
        return;
    }
    let body: Element = dom::by_id("quiz-body");
    let nav: Element = dom::by_id("quiz-nav");
    dom::clear(&body);
    dom::clear(&nav);
    dom::set_text(&dom::by_id("quiz-feedback"), "");
    dom::set_text(&dom::by_id("quiz-said"), "");
    paint_panel(panel, &body, &nav);
    if let Some(note) = &frame.note {
        body.append_child(&El::new("p").class("quiz-note").text(note).el())
            .ok();
        with_ui(|u| &u.quiz_note, |n| n.borrow_mut().take());
    }
}

fn paint_panel(panel: &QuizPanel, body: &Element, nav: &Element) {
    match &panel.shows {
        QuizShows::Intro { text, status } => {
            dom::stamp("tpl-quiz-intro", body);
            dom::set_text(&dom::find(body, "#quiz-title + p"), text);
            dom::set_text(&dom::find(body, ".quiz-status"), status);
            dom::stamp("tpl-quiz-intro-nav", nav);
        }
        QuizShows::Question(question) => question_view(question, body, nav),
        QuizShows::Score {
            verdict,
            mastered,
            review,
        } => score_view(verdict, *mastered, review, body, nav),
    }
    dom::set_text(&dom::find(body, "#quiz-title"), &panel.title);
}

fn question_view(question: &QuizQuestion, body: &Element, nav: &Element) {
    dom::stamp("tpl-quiz-title", body);
    body.append_child(&dots(question)).ok();
    body.append_child(&form(question)).ok();
    let feedback: Element = dom::by_id("quiz-feedback");
    dom::set_text(&feedback, &question.feedback);
    dom::set_text(&dom::by_id("quiz-said"), &question.said);
    match question.result {
        Some(result) => feedback.set_attribute("data-result", result),
        None => feedback.remove_attribute("data-result"),
    }
    .ok();
    if !question.answered {
        return;
    }
    dom::stamp("tpl-quiz-answered-nav", nav);
    if let Some(label) = question.next_label {
        dom::set_text(&dom::find(nav, "#quiz-next"), label);
    }
}

/// One mark per question.
fn dots(question: &QuizQuestion) -> Element {
    let list = El::new("ol")
        .class("quiz-dots")
        .attr("aria-label", question.dots_label);
    (question.dots.iter())
        .fold(list, |list, dot| {
            let item = El::new("li").attr("aria-label", &dot.label);
            let item = if dot.current {
                item.attr("aria-current", "step")
            } else {
                item
            };
            list.child(&item.text(&dot.text).el())
        })
        .el()
}

/// The question's form (`tpl-quiz-form`) with its choices or its number field.
fn form(question: &QuizQuestion) -> Element {
    let form = dom::copy("tpl-quiz-form");
    dom::set_attr(&form, "data-kind", question.kind);
    dom::set_attr(&form, "data-question", &question.number);
    if let Some(order) = &question.order {
        dom::set_attr(&form, "data-order", order);
    }
    let actions = dom::find(&form, ".quiz-actions");
    let fields = match &question.fields {
        QuizFields::Choices { legend, choices } => choice_fields(legend, choices),
        QuizFields::Number { legend, max, given } => number_field(legend, max, given.as_deref()),
    };
    form.insert_before(&fields, Some(&actions)).ok();
    if !question.offers_try {
        dom::find(&actions, "#quiz-try").remove();
    }
    let check = dom::find(&actions, "#quiz-check");
    dom::set_flag(&check, "disabled", question.check_disabled);
    form
}

fn choice_fields(legend: &str, choices: &[QuizChoice]) -> Element {
    let fieldset = dom::copy("tpl-quiz-choices");
    dom::set_text(&dom::find(&fieldset, "legend"), legend);
    for choice in choices {
        let label = dom::copy("tpl-quiz-choice");
        dom::set_attr(&label, "data-keys", &choice.keys);
        let input = dom::find(&label, "input");
        dom::set_attr(&input, "value", &choice.value);
        dom::set_flag(&input, "checked", choice.checked);
        dom::set_flag(&input, "disabled", choice.disabled);
        dom::set_text(&dom::find(&label, "code"), &choice.words);
        dom::set_text(&dom::find(&label, "code + span"), &choice.mark);
        fieldset.append_child(&label).ok();
    }
    fieldset
}

fn number_field(legend: &str, max: &str, given: Option<&str>) -> Element {
    let fieldset = dom::copy("tpl-quiz-number");
    dom::set_text(&dom::find(&fieldset, "legend"), legend);
    let input = dom::find(&fieldset, "#quiz-number");
    dom::set_attr(&input, "max", max);
    if let Some(given) = given {
        dom::set_attr(&input, "value", given);
        dom::set_attr(&input, "disabled", "");
    }
    fieldset
}

fn score_view(verdict: &str, mastered: bool, review: &[String], body: &Element, nav: &Element) {
    dom::stamp("tpl-quiz-score", body);
    let result = dom::find(body, "#quiz-score");
    dom::set_attr(
        &result,
        "data-mastered",
        if mastered { "true" } else { "false" },
    );
    result.class_list().toggle_with_force("good", mastered).ok();
    dom::set_text(&result, verdict);
    // The heading takes the focus; the score is the news, so it speaks.
    dom::set_text(&dom::by_id("quiz-said"), verdict);
    let list = dom::find(body, ".quiz-review");
    for (i, line) in review.iter().enumerate() {
        let item = dom::copy("tpl-quiz-review-item");
        item.insert_adjacent_text("afterbegin", line).ok();
        dom::set_attr(
            &dom::find(&item, "button"),
            "data-action",
            &format!("show-{i}"),
        );
        list.append_child(&item).ok();
    }
    dom::stamp("tpl-quiz-score-nav", nav);
}
