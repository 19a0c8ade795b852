//! The mastery check on the Lessons tab: one question at a time, each shown with its run on the
//! timeline so the learner can read the answer there; one attempt each, then right or wrong,
//! why, and the proving event under the cursor. The questions and their answers come from
//! `crate::quiz`; this file only shows them, keeps progress in `localStorage` and picks a fresh
//! quiz seed when the link has none (the page's only other use of randomness besides New seed).

use std::cell::{Cell, RefCell};

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement};

use super::dom::{self, El};
use super::with_app;
use crate::decimal::Fixed;
use crate::lessons::{Lesson, LESSONS};
use crate::quiz::progress::{Progress, STORAGE_KEY};
use crate::quiz::{self, Form, Question, Quiz, MASTERY_PERCENT, NUMBER_MAX, QUESTIONS};
use crate::scenario::decode_lenient;

/// The check on screen.
struct Check {
    quiz: Quiz,
    answers: Vec<Option<u32>>,
    /// `None` for the introduction, `Some(QUESTIONS)` for the score.
    shown: Option<usize>,
}

thread_local! {
    static CHECK: RefCell<Option<Check>> = const { RefCell::new(None) };
    /// Bumped on every change to the check; the panel is rebuilt only when it moved, not on
    /// every frame of playback (which would also drop a half-typed answer).
    static VERSION: Cell<u32> = const { Cell::new(1) };
    static DRAWN: Cell<u32> = const { Cell::new(0) };
    /// Why progress could not be read or saved, shown once under the check.
    static NOTE: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn changed() {
    VERSION.with(|v| v.set(v.get() + 1));
}

pub fn mount(panel: &Element) {
    let section = El::new("section")
        .attr("id", "quiz")
        .class("quiz")
        .attr("aria-labelledby", "quiz-title")
        .child(&El::new("div").attr("id", "quiz-body").el())
        .child(
            &El::new("p")
                .attr("id", "quiz-feedback")
                .class("quiz-feedback")
                .attr("role", "status")
                .attr("aria-live", "polite")
                .el(),
        )
        .child(&El::new("div").attr("id", "quiz-nav").class("quiz-nav").el())
        .el();
    dom::set_hidden(&section, true);
    panel.append_child(&section).ok();
    dom::listen::<Event>(&section, "click", on_click);
    dom::listen::<Event>(&section, "submit", |event| {
        event.prevent_default();
        check_answer();
    });
}

/// The lesson and seed the link asks a check for: `quiz=SEED`, with `lesson=` (Lesson A when
/// absent or unknown). The page has already refused a `quiz=` that is not a number.
fn wanted() -> Option<(&'static Lesson, u64)> {
    with_app(|app| {
        let get = |key: &str| app.page.extra.iter().find(|(k, _)| k == key);
        let seed = get("quiz")?.1.parse().ok()?;
        let lesson = get("lesson").and_then(|(_, id)| Lesson::by_id(id));
        Some((lesson.unwrap_or(&LESSONS[0]), seed))
    })
}

/// Whether the Lessons tab shows the check rather than a step.
pub fn active() -> bool {
    wanted().is_some()
}

fn storage() -> Option<web_sys::Storage> {
    dom::window().local_storage().ok().flatten()
}

fn load_progress() -> Progress {
    let text = storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten());
    let (progress, note) = Progress::parse(text.as_deref());
    if note.is_some() {
        NOTE.with(|n| *n.borrow_mut() = note);
    }
    progress
}

fn save_progress(quiz: &Quiz, answers: &[Option<u32>]) {
    let mut progress = load_progress();
    progress.record(quiz, answers);
    let saved = storage().is_some_and(|s| s.set_item(STORAGE_KEY, &progress.to_text()).is_ok());
    if !saved {
        let note = "This browser would not keep the progress; it lasts until the page closes.";
        NOTE.with(|n| *n.borrow_mut() = Some(note.into()));
    }
}

/// Draws the linked check if it is not the one on screen, with any answers already given.
fn ensure() {
    let Some((lesson, seed)) = wanted() else {
        return;
    };
    let current = CHECK.with(|c| c.borrow().as_ref().map(|c| (c.quiz.lesson, c.quiz.seed)));
    if current == Some((lesson.id, seed)) {
        return;
    }
    let start_ms = dom::now_ms();
    let quiz = quiz::generate(lesson, seed);
    let generate_ms = dom::now_ms() - start_ms;
    dom::by_id::<Element>("quiz")
        .set_attribute("data-generate-ms", &Fixed::<1>(generate_ms).to_string())
        .ok();
    let answers = load_progress().answers_for(&quiz);
    let shown = answers
        .iter()
        .any(Option::is_some)
        .then(|| next_open(&answers));
    CHECK.with(|c| {
        *c.borrow_mut() = Some(Check {
            quiz,
            answers,
            shown,
        })
    });
    dom::set_text(&dom::by_id("quiz-feedback"), "");
    changed();
}

/// The first question not answered yet, or the score when all are.
fn next_open(answers: &[Option<u32>]) -> usize {
    answers
        .iter()
        .position(Option::is_none)
        .unwrap_or(QUESTIONS)
}

/// Opens the check for `lesson`: an unfinished one from this browser's progress, else a fresh
/// seed. Called from the lesson's last step.
pub fn start(lesson: &'static Lesson) {
    let stored = load_progress().lesson(lesson.id).cloned();
    let unfinished = stored
        .filter(|s| s.answers.iter().any(Option::is_some) && s.answers.iter().any(Option::is_none));
    let seed = match unfinished.and_then(|s| s.quiz.parse::<u64>().ok()) {
        Some(seed) => seed,
        None => fresh_seed(),
    };
    open(lesson, seed);
}

/// A quiz seed for a learner without an instructor's link.
fn fresh_seed() -> u64 {
    (js_sys::Math::random() * 1e9).floor() as u64
}

/// Puts `quiz=seed` for `lesson` in the page state and shows its first open question.
fn open(lesson: &'static Lesson, seed: u64) {
    with_app(|app| {
        app.page.extra.retain(|(k, _)| k != "quiz" && k != "lesson");
        app.page.extra.push(("lesson".into(), lesson.id.into()));
        app.page.extra.push(("quiz".into(), seed.to_string()));
        app.page.tab = "lessons".into();
    });
    ensure();
    begin();
}

/// Leaves the introduction for the first open question (or the score).
fn begin() {
    let index = CHECK.with(|c| c.borrow().as_ref().map(|c| next_open(&c.answers)));
    if let Some(index) = index {
        show(index);
    }
}

/// Shows question `index` (or the score) and loads its run into the timeline: unanswered, the
/// run alone with the cursor at the end; answered, with the right choice as B and the cursor
/// on the event that proves the answer.
fn show(index: usize) {
    let question = CHECK.with(|c| {
        let mut check = c.borrow_mut();
        let check = check.as_mut()?;
        check.shown = Some(index);
        let question = check.quiz.questions.get(index)?.clone();
        Some((question, check.answers[index].is_some()))
    });
    changed();
    dom::set_text(&dom::by_id("quiz-feedback"), "");
    match question {
        Some((question, answered)) => load_run(&question, answered),
        None => super::render(),
    }
    if let Some(title) = dom::document().get_element_by_id("quiz-title") {
        title.dyn_into::<HtmlElement>().ok().map(|t| t.focus());
    }
}

fn load_run(question: &Question, answered: bool) {
    with_app(|app| {
        app.page.scenario = decode_lenient(&question.query).0.scenario;
        app.page.compare = question.proof_compare.clone().filter(|_| answered);
        app.page.tab = "lessons".into();
        app.errors.clear();
    });
    super::refresh();
    if answered {
        with_app(|app| app.page.cursor = Some(question.proof_event));
        super::render();
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
    match action.as_str() {
        "start" => begin(),
        "try" => try_choice(),
        "next" => next(),
        "new" => new_variant(),
        "close" => close(),
        "proof" => proof_again(),
        show_index => {
            if let Some(index) = show_index
                .strip_prefix("show-")
                .and_then(|i| i.parse().ok())
            {
                show(index);
            }
        }
    }
}

fn shown_index() -> Option<usize> {
    CHECK.with(|c| c.borrow().as_ref().and_then(|c| c.shown))
}

fn next() {
    if let Some(index) = shown_index() {
        show((index + 1).min(QUESTIONS));
    }
}

fn proof_again() {
    if let Some(index) = shown_index() {
        show(index);
    }
}

fn new_variant() {
    if let Some((lesson, _)) = wanted() {
        open(lesson, fresh_seed());
    }
}

/// Back to the lesson's last step, which also drops `quiz=` from the link.
fn close() {
    if let Some((lesson, _)) = wanted() {
        super::lessons::go(lesson, lesson.steps.len() - 1);
    }
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

/// Shows the picked choice as configuration B, so the learner can read its counters.
fn try_choice() {
    let keys = CHECK.with(|c| {
        let check = c.borrow();
        let check = check.as_ref()?;
        let question = check.quiz.questions.get(check.shown?)?;
        match &question.form {
            Form::Choices(choices) => Some(choices.get(picked_choice()? as usize)?.keys.clone()),
            Form::Number => None,
        }
    });
    let Some(keys) = keys else {
        dom::set_text(
            &dom::by_id("quiz-feedback"),
            "Pick a choice first, then show it as B.",
        );
        return;
    };
    with_app(|app| app.page.compare = Some(keys));
    super::refresh();
}

/// The answer in the form, or what is wrong with it.
fn given_answer(form: &Form) -> Result<u32, String> {
    match form {
        Form::Choices(_) => picked_choice().ok_or_else(|| "Pick one of the choices first.".into()),
        Form::Number => {
            let input: HtmlInputElement = dom::by_id("quiz-number");
            let value = input.value().trim().parse::<u32>().ok();
            value
                .filter(|&n| n <= NUMBER_MAX)
                .ok_or_else(|| format!("Enter a whole number from 0 to {NUMBER_MAX}."))
        }
    }
}

/// Locks in the answer to the question on screen: one attempt, kept in progress at once.
fn check_answer() {
    let state = CHECK.with(|c| {
        let check = c.borrow();
        let check = check.as_ref()?;
        let index = check
            .shown
            .filter(|&i| i < QUESTIONS && check.answers[i].is_none())?;
        Some((index, check.quiz.questions[index].form.clone()))
    });
    let Some((index, form)) = state else {
        return;
    };
    let answer = match given_answer(&form) {
        Ok(answer) => answer,
        Err(message) => return dom::set_text(&dom::by_id("quiz-feedback"), &message),
    };
    CHECK.with(|c| {
        let mut check = c.borrow_mut();
        let check = check.as_mut().expect("a check is shown");
        check.answers[index] = Some(answer);
        save_progress(&check.quiz, &check.answers);
    });
    show(index);
}

pub fn render() {
    ensure();
    let version = VERSION.with(Cell::get);
    if DRAWN.with(|d| d.replace(version)) == version {
        return;
    }
    let body: Element = dom::by_id("quiz-body");
    let nav: Element = dom::by_id("quiz-nav");
    dom::clear(&body);
    dom::clear(&nav);
    CHECK.with(|c| {
        let check = c.borrow();
        let Some(check) = check.as_ref() else {
            return;
        };
        match check.shown {
            None => intro(check, &body, &nav),
            Some(index) if index < QUESTIONS => question_view(check, index, &body, &nav),
            Some(_) => score_view(check, &body, &nav),
        }
    });
    if let Some(note) = NOTE.with(|n| n.borrow_mut().take()) {
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
    let total = QUESTIONS;
    match load_progress().lesson(lesson.id) {
        Some(p) if p.mastered => format!("Mastered (best {} of {total}).", p.best),
        Some(p) if p.best > 0 => format!(
            "Best so far: {} of {total}; {total} of {total} masters the lesson.",
            p.best
        ),
        _ => format!("Not taken yet: {total} questions, one attempt each."),
    }
}

fn lesson_name(check: &Check) -> String {
    format!("Lesson {}", check.quiz.lesson.to_uppercase())
}

fn intro(check: &Check, body: &Element, nav: &Element) {
    let lesson = Lesson::by_id(check.quiz.lesson).expect("a known lesson");
    body.append_child(&title(&format!("Mastery check: {}", lesson_name(check))))
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

fn question_view(check: &Check, index: usize, body: &Element, nav: &Element) {
    let question = &check.quiz.questions[index];
    let answer = check.answers[index];
    let heading = format!(
        "{}, question {} of {QUESTIONS}",
        lesson_name(check),
        index + 1
    );
    body.append_child(&title(&heading)).ok();
    body.append_child(&dots(check, index)).ok();
    body.append_child(&form(question, answer, index)).ok();
    let feedback: Element = dom::by_id("quiz-feedback");
    match answer {
        None => dom::set_text(
            &feedback,
            &format!("Read the answer off the run above (its counters are at the end of the run), then check it. One attempt per question; all {QUESTIONS} right masters the lesson."),
        ),
        Some(given) => {
            let verdict = if question.is_right(given) {
                "Right."
            } else {
                "Not this time."
            };
            let text = format!(
                "{verdict} The answer is {}. {}",
                question.answer_text(),
                question.explanation
            );
            feedback
                .set_attribute(
                    "data-result",
                    if question.is_right(given) {
                        "right"
                    } else {
                        "wrong"
                    },
                )
                .ok();
            dom::set_text(&feedback, &text);
        }
    }
    if answer.is_none() {
        feedback.remove_attribute("data-result").ok();
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

/// One mark per question: right, wrong, this one, or still to come.
fn dots(check: &Check, index: usize) -> Element {
    let list = El::new("ol")
        .class("quiz-dots")
        .attr("aria-label", "Questions");
    check
        .quiz
        .questions
        .iter()
        .zip(&check.answers)
        .enumerate()
        .fold(list, |list, (i, (q, a))| {
            let (mark, state) = match a {
                Some(given) if q.is_right(*given) => ("✓", "right"),
                Some(_) => ("✗", "wrong"),
                None if i == index => ("•", "current question"),
                None => ("", "to come"),
            };
            let item = El::new("li").attr("aria-label", &format!("question {}: {state}", i + 1));
            let item = if i == index {
                item.attr("aria-current", "step")
            } else {
                item
            };
            list.child(&item.text(&format!("{} {mark}", i + 1)).el())
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

fn score_view(check: &Check, body: &Element, nav: &Element) {
    let score = quiz::grade(&check.quiz, &check.answers);
    body.append_child(&title(&format!(
        "Mastery check: {}, your score",
        lesson_name(check)
    )))
    .ok();
    let verdict = if score.mastered {
        format!(
            "{} of {} right ({}%): {} mastered.",
            score.right,
            score.total,
            score.percent,
            lesson_name(check)
        )
    } else {
        format!("{} of {} right ({}%): not mastered yet; {MASTERY_PERCENT}% is needed. Try a new variant when ready.", score.right, score.total, score.percent)
    };
    let result = El::new("p")
        .attr("id", "quiz-score")
        .attr(
            "data-mastered",
            if score.mastered { "true" } else { "false" },
        )
        .class(if score.mastered {
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
