//! The mastery check on the Lessons tab: one question at a time, each shown with its run on the
//! timeline so the learner can read the answer there; one attempt each, then right or wrong,
//! why, and the proving event under the cursor. The questions and their answers come from
//! `crate::quiz`; this file only shows them, keeps progress in `localStorage` and picks a fresh
//! quiz seed when the link has none (the page's only other use of randomness besides New seed).

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement};

use super::dom::{self, El};
use super::{dispatch, with_app};
use crate::app::{AnswerInput, Msg, QuizSession};
use crate::lessons::Lesson;
use crate::quiz::progress::{Progress, STORAGE_KEY};
use crate::quiz::{self, Form, Question, MASTERY_PERCENT, NUMBER_MAX, QUESTIONS};

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
    dom::listen::<Event>(&section, "submit", |event| {
        event.prevent_default();
        dispatch(Msg::QuizAnswer(answer_input()));
    });
}

/// Records how long drawing the linked check took (read by the Playwright test's report).
pub fn drawn(load_ms: f64) {
    if with_app(|app| app.state.quiz.is_some()) {
        dom::by_id::<Element>("quiz")
            .set_attribute("data-generate-ms", &format!("{load_ms:.1}"))
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
        let note = "This browser would not keep the progress; it lasts until the page closes.";
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
    match check.shown {
        None => intro(&check, &body, &nav),
        Some(index) if index < QUESTIONS => question_view(&check, index, &body, &nav),
        Some(_) => score_view(&check, &body, &nav),
    }
    if let Some(note) = super::with_ui(|u| &u.quiz_note, |n| n.borrow_mut().take()) {
        body.append_child(&El::new("p").class("quiz-note").text(&note).el())
            .ok();
    }
}

fn button(action: &str, id: &str, text: &str) -> Element {
    El::new("button")
        .attr("type", "button")
        .attr("id", id)
        .attr("data-action", action)
        .text(text)
        .el()
}

fn title(text: &str) -> Element {
    El::new("h3")
        .attr("id", "quiz-title")
        .attr("tabindex", "-1")
        .text(text)
        .el()
}

/// The lesson's mastery in a sentence, from this browser's progress.
pub fn status(lesson: &Lesson) -> String {
    crate::app::quiz_status(&load_progress(), lesson.id)
}

fn intro(check: &QuizSession, body: &Element, nav: &Element) {
    let lesson = Lesson::by_id(check.quiz.lesson).expect("a known lesson");
    body.append_child(&title(&format!("Mastery check: {}", check.lesson_name())))
        .ok();
    let text = format!(
        "{QUESTIONS} questions, each about a fresh run that appears on the timeline above: read the answer there (the counters, the Tables tab, or a choice shown as B), then answer. One attempt per question; all {QUESTIONS} right masters the lesson (the bar is {MASTERY_PERCENT}%). Quiz seed {}: the same link gives the same questions.",
        check.quiz.seed
    );
    body.append_child(&El::new("p").text(&text).el()).ok();
    body.append_child(&El::new("p").class("quiz-status").text(&status(lesson)).el())
        .ok();
    nav.append_child(&button("start", "quiz-start", "Start the check"))
        .ok();
    nav.append_child(&button("close", "quiz-close", "Back to the lesson"))
        .ok();
}

fn question_view(check: &QuizSession, index: usize, body: &Element, nav: &Element) {
    let question = &check.quiz.questions[index];
    let answer = check.answers[index];
    let heading = format!(
        "{}, question {} of {QUESTIONS}",
        check.lesson_name(),
        index + 1
    );
    body.append_child(&title(&heading)).ok();
    body.append_child(&dots(check, index)).ok();
    body.append_child(&form(question, answer, index)).ok();
    let feedback: Element = dom::by_id("quiz-feedback");
    let (text, right) = check.feedback(index);
    dom::set_text(&feedback, &text);
    match right {
        Some(right) => feedback.set_attribute("data-result", if right { "right" } else { "wrong" }),
        None => feedback.remove_attribute("data-result"),
    }
    .ok();
    if answer.is_none() {
        return;
    }
    nav.append_child(&button("proof", "quiz-proof", "Point at the proof again"))
        .ok();
    let last = index + 1 == QUESTIONS;
    nav.append_child(&button(
        "next",
        "quiz-next",
        if last {
            "See the score →"
        } else {
            "Next question →"
        },
    ))
    .ok();
}

/// One mark per question, as `QuizSession::dots` says.
fn dots(check: &QuizSession, index: usize) -> Element {
    let list = El::new("ol")
        .class("quiz-dots")
        .attr("aria-label", "Questions");
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

fn form(question: &Question, answer: Option<u32>, index: usize) -> Element {
    let form = El::new("form")
        .attr("id", "quiz-form")
        .attr("data-kind", question.kind.name())
        .attr("data-question", &(index + 1).to_string())
        .attr("novalidate", "");
    let form = match question.order {
        Some(order) => form.attr("data-order", &order.to_string()),
        None => form,
    };
    let fields = match &question.form {
        Form::Choices(choices) => choice_fields(question, choices, answer),
        Form::Number => number_field(question, answer),
    };
    let check = El::new("button")
        .attr("type", "submit")
        .attr("id", "quiz-check")
        .text("Check my answer");
    let check = if answer.is_some() {
        check.attr("disabled", "")
    } else {
        check
    };
    let actions = El::new("div").class("quiz-actions");
    let actions = match (&question.form, answer) {
        (Form::Choices(_), None) => {
            actions.child(&button("try", "quiz-try", "Show my choice as B"))
        }
        _ => actions,
    };
    form.child(&fields)
        .child(&actions.child(&check.el()).el())
        .el()
}

fn choice_fields(question: &Question, choices: &[quiz::Choice], answer: Option<u32>) -> Element {
    let legend = El::new("legend").text(&question.prompt).el();
    let fieldset = El::new("fieldset").class("quiz-choices").child(&legend);
    choices
        .iter()
        .enumerate()
        .fold(fieldset, |fieldset, (i, choice)| {
            let i = i as u32;
            let input = El::new("input")
                .attr("type", "radio")
                .attr("name", "quiz-choice")
                .attr("value", &i.to_string());
            let input = if answer == Some(i) {
                input.attr("checked", "")
            } else {
                input
            };
            let input = if answer.is_some() {
                input.attr("disabled", "")
            } else {
                input
            };
            let mark = match answer {
                Some(_) if question.answer == i => " ✓ the right answer",
                Some(given) if given == i => " ✗ your answer",
                _ => "",
            };
            let label = El::new("label")
                .attr("data-keys", &choice.keys)
                .child(&input.el())
                .child(
                    &El::new("span")
                        .child(&El::new("code").text(&choice.keys).el())
                        .child(
                            &El::new("span")
                                .text(&if choice.label.is_empty() {
                                    mark.to_string()
                                } else {
                                    format!(": {}{mark}", choice.label)
                                })
                                .el(),
                        )
                        .el(),
                );
            fieldset.child(&label.el())
        })
        .el()
}

fn number_field(question: &Question, answer: Option<u32>) -> Element {
    let input = El::new("input")
        .attr("id", "quiz-number")
        .attr("type", "number")
        .attr("min", "0")
        .attr("max", &NUMBER_MAX.to_string())
        .attr("inputmode", "numeric")
        .attr("autocomplete", "off");
    let input = match answer {
        Some(given) => input.attr("value", &given.to_string()).attr("disabled", ""),
        None => input,
    };
    El::new("fieldset")
        .class("quiz-number")
        .child(&El::new("legend").text(&question.prompt).el())
        .child(
            &El::new("label")
                .text("Your answer ")
                .child(&input.el())
                .el(),
        )
        .el()
}

fn score_view(check: &QuizSession, body: &Element, nav: &Element) {
    body.append_child(&title(&format!(
        "Mastery check: {}, your score",
        check.lesson_name()
    )))
    .ok();
    let (verdict, mastered) = check.score_text();
    let result = El::new("p")
        .attr("id", "quiz-score")
        .attr("data-mastered", if mastered { "true" } else { "false" })
        .class(if mastered {
            "quiz-score good"
        } else {
            "quiz-score"
        })
        .text(&verdict);
    body.append_child(&result.el()).ok();
    let list = check
        .quiz
        .questions
        .iter()
        .zip(&check.answers)
        .enumerate()
        .fold(El::new("ol").class("quiz-review"), |list, (i, (q, a))| {
            let given = a.map_or("no answer".into(), |a| quiz::answer_text(&q.form, a));
            let mark = if a.is_some_and(|a| q.is_right(a)) {
                "✓"
            } else {
                "✗"
            };
            let line = format!(
                "{mark} you answered {given}; the answer is {}. ",
                q.answer_text()
            );
            let show = El::new("button")
                .attr("type", "button")
                .attr("data-action", &format!("show-{i}"))
                .text("Show on the timeline");
            list.child(&El::new("li").text(&line).child(&show.el()).el())
        });
    body.append_child(&list.el()).ok();
    nav.append_child(&button("new", "quiz-new", "Try a new variant"))
        .ok();
    nav.append_child(&button("close", "quiz-close", "Back to the lesson"))
        .ok();
}
