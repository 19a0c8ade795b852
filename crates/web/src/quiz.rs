//! The mastery check on the Lessons tab: one question at a time, answered before its run is
//! shown (`app::run_hidden`); one attempt each, then the run, right or wrong, why, the proving
//! event under the cursor, and a choice's run as B. The questions and their answers come from
//! `idemlab_course::quiz`; this file only shows them, keeps progress in `localStorage` and picks a fresh
//! quiz seed when the link has none (the page's only other use of randomness besides New seed).

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement};

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::{AnswerInput, Msg, QuizSession};
use idemlab_course::lessons::Lesson;
use idemlab_course::quiz::progress::{Progress, STORAGE_KEY};
use idemlab_course::quiz::{self, Form, Question, NUMBER_MAX, QUESTIONS};

/// What the panel was last painted from: it is rebuilt only when this changes, not on every
/// frame of playback (which would also drop a half-typed answer).
pub(crate) type Painted = (
    &'static str,
    u64,
    Option<usize>,
    Vec<Option<u32>>,
    Option<String>,
);

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
            dispatch(Msg::QuizAnswer(answer_input()));
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

/// This browser's progress record; a note says why it could not be read, if it could not.
pub fn load_progress() -> Progress {
    let text = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let (progress, note) = Progress::parse(text.as_deref());
    if note.is_some() {
        super::with_ui(|u| &u.quiz_note, |n| *n.borrow_mut() = note);
    }
    progress
}

/// Records the check's answers in this browser's progress (`Effects::save_progress`).
pub fn save_progress() {
    let Some(session) = with_app(|app| app.state.quiz.clone()) else {
        return;
    };
    let mut progress = load_progress();
    progress.record(&session.quiz, &session.answers);
    let saved = storage().is_some_and(|s| s.set_item(STORAGE_KEY, &progress.to_text()).is_ok());
    if !saved {
        let note = idemlab_lab::t!(
            "This browser would not keep the progress; it lasts until the page closes."
        );
        super::with_ui(|u| &u.quiz_note, |n| *n.borrow_mut() = Some(note.into()));
    }
}

/// Opens the open lesson's check: an unfinished one from this browser's progress, else a
/// fresh seed (`app::update` decides which). Called from the lesson's last step.
pub fn start() {
    let stored = load_progress();
    dispatch(Msg::QuizStart {
        stored,
        fresh_seed: fresh_seed(),
    });
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
        "start" => Msg::QuizBegin,
        "try" => Msg::QuizTry(picked_choice()),
        "check" => Msg::QuizAnswer(answer_input()),
        "next" => Msg::QuizNext,
        "new" => Msg::QuizNew {
            seed: fresh_seed(),
            stored: load_progress(),
        },
        "close" => Msg::QuizClose,
        "proof" => match with_app(|app| app.state.quiz.as_ref().and_then(|q| q.shown)) {
            Some(index) => Msg::QuizShow(index),
            None => return,
        },
        show => match show.strip_prefix("show-").and_then(|i| i.parse().ok()) {
            Some(index) => Msg::QuizShow(index),
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

pub fn render() {
    let Some(check) = with_app(|app| app.state.quiz.clone()) else {
        super::with_ui(|u| &u.quiz_painted, |p| p.borrow_mut().take());
        return;
    };
    let key: Painted = (
        check.quiz.lesson,
        check.quiz.seed,
        check.shown,
        check.answers.clone(),
        check.feedback.clone(),
    );
    if super::with_ui(|u| &u.quiz_painted, |p| p.borrow().as_ref() == Some(&key)) {
        return;
    }
    super::with_ui(|u| &u.quiz_painted, |p| *p.borrow_mut() = Some(key));
    let body: Element = dom::by_id("quiz-body");
    let nav: Element = dom::by_id("quiz-nav");
    dom::clear(&body);
    dom::clear(&nav);
    dom::set_text(&dom::by_id("quiz-feedback"), "");
    dom::set_text(&dom::by_id("quiz-said"), "");
    match check.shown {
        None => intro(&check, &body, &nav),
        Some(index) if index < QUESTIONS => question_view(&check, index, &body, &nav),
        Some(_) => score_view(&check, &body, &nav),
    }
    dom::set_text(&dom::find(&body, "#quiz-title"), &check.title());
    if let Some(note) = super::with_ui(|u| &u.quiz_note, |n| n.borrow_mut().take()) {
        body.append_child(&El::new("p").class("quiz-note").text(&note).el())
            .ok();
    }
}

/// The lesson's mastery in a sentence, from this browser's progress.
pub fn status(lesson: &Lesson) -> String {
    idemlab_app::quiz_status(&load_progress(), lesson.id)
}

/// The introduction and its buttons, from `index.html`'s templates.
fn intro(check: &QuizSession, body: &Element, nav: &Element) {
    dom::stamp("tpl-quiz-intro", body);
    dom::set_text(&dom::find(body, "#quiz-title + p"), &check.intro_text());
    dom::set_text(&dom::find(body, ".quiz-status"), &status(check.lesson()));
    dom::stamp("tpl-quiz-intro-nav", nav);
}

fn question_view(check: &QuizSession, index: usize, body: &Element, nav: &Element) {
    let answer = check.answers[index];
    dom::stamp("tpl-quiz-title", body);
    body.append_child(&dots(check, index)).ok();
    body.append_child(&form(check, index)).ok();
    let feedback: Element = dom::by_id("quiz-feedback");
    let (text, right) = check.feedback(index);
    dom::set_text(&feedback, &text);
    // The whole text shows; a short form of it speaks (`QuizSession::spoken`).
    let said = check.spoken(index).unwrap_or_default();
    dom::set_text(&dom::by_id("quiz-said"), &said);
    match right {
        Some(right) => feedback.set_attribute("data-result", if right { "right" } else { "wrong" }),
        None => feedback.remove_attribute("data-result"),
    }
    .ok();
    if answer.is_none() {
        return;
    }
    dom::stamp("tpl-quiz-answered-nav", nav);
    if index + 1 == QUESTIONS {
        dom::set_text(
            &dom::find(nav, "#quiz-next"),
            idemlab_lab::t!("See the score →"),
        );
    }
}

/// One mark per question, as `QuizSession::dots` says.
fn dots(check: &QuizSession, index: usize) -> Element {
    let list = El::new("ol")
        .class("quiz-dots")
        .attr("aria-label", idemlab_lab::t!("Questions"));
    check
        .dots(index)
        .iter()
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
fn form(check: &QuizSession, index: usize) -> Element {
    let question = &check.quiz.questions[index];
    let answer = check.answers[index];
    let form = dom::copy("tpl-quiz-form");
    form.set_attribute("data-kind", question.kind.name()).ok();
    (form.set_attribute("data-question", &(index + 1).to_string())).ok();
    // Never the question's scenario: pasted into another tab it would show the answer. The
    // tests' oracle gets it from `idemlab quiz`.
    if let Some(order) = question.order {
        form.set_attribute("data-order", &order.to_string()).ok();
    }
    let actions = dom::find(&form, ".quiz-actions");
    let fields = match &question.form {
        Form::Choices(choices) => choice_fields(check, index, choices),
        Form::Number => number_field(question, answer),
    };
    form.insert_before(&fields, Some(&actions)).ok();
    // A choice's run opens only once the answer is locked (`app::update` refuses it before),
    // and only a wrong one: B already shows the right choice.
    if !check.offers_try(index) {
        dom::find(&actions, "#quiz-try").remove();
    }
    dom::set_flag(
        &dom::find(&actions, "#quiz-check"),
        "disabled",
        answer.is_some(),
    );
    form
}

fn choice_fields(check: &QuizSession, index: usize, choices: &[quiz::Choice]) -> Element {
    let question = &check.quiz.questions[index];
    let answer = check.answers[index];
    let fieldset = dom::copy("tpl-quiz-choices");
    dom::set_text(&dom::find(&fieldset, "legend"), &question.prompt);
    for (i, choice) in choices.iter().enumerate() {
        let i = i as u32;
        let label = dom::copy("tpl-quiz-choice");
        label.set_attribute("data-keys", &choice.keys).ok();
        let input = dom::find(&label, "input");
        input.set_attribute("value", &i.to_string()).ok();
        dom::set_flag(&input, "checked", answer == Some(i));
        dom::set_flag(&input, "disabled", answer.is_some());
        dom::set_text(&dom::find(&label, "code"), choice.words());
        dom::set_text(
            &dom::find(&label, "code + span"),
            &check.choice_text(index, i),
        );
        fieldset.append_child(&label).ok();
    }
    fieldset
}

fn number_field(question: &Question, answer: Option<u32>) -> Element {
    let fieldset = dom::copy("tpl-quiz-number");
    dom::set_text(&dom::find(&fieldset, "legend"), &question.prompt);
    let input = dom::find(&fieldset, "#quiz-number");
    input.set_attribute("max", &NUMBER_MAX.to_string()).ok();
    if let Some(given) = answer {
        input.set_attribute("value", &given.to_string()).ok();
        input.set_attribute("disabled", "").ok();
    }
    fieldset
}

fn score_view(check: &QuizSession, body: &Element, nav: &Element) {
    dom::stamp("tpl-quiz-score", body);
    let (verdict, mastered) = check.score_text();
    let result = dom::find(body, "#quiz-score");
    let mastered_text = if mastered { "true" } else { "false" };
    result.set_attribute("data-mastered", mastered_text).ok();
    result.class_list().toggle_with_force("good", mastered).ok();
    dom::set_text(&result, &verdict);
    // The heading takes the focus; the score is the news, so it speaks.
    dom::set_text(&dom::by_id("quiz-said"), &verdict);
    let list = dom::find(body, ".quiz-review");
    for (i, line) in check.review().iter().enumerate() {
        let item = dom::copy("tpl-quiz-review-item");
        item.insert_adjacent_text("afterbegin", line).ok();
        (dom::find(&item, "button").set_attribute("data-action", &format!("show-{i}"))).ok();
        list.append_child(&item).ok();
    }
    dom::stamp("tpl-quiz-score-nav", nav);
}
