//! The mastery check's session: which check is on screen, the answers given, the question
//! shown, and the messages that move through it (resume, next question, answer, try a choice).
//! The questions and answers come from `idemlab_course::quiz`; the browser only stores the progress.

use super::{Effects, Focus, LessonAt, State, Tab};
use idemlab_core::scenario::{decode_lenient, Scenario};
use idemlab_course::lessons::Lesson;
use idemlab_course::quiz::progress::Progress;
use idemlab_course::quiz::{self, Form, Quiz, NUMBER_MAX, QUESTIONS};

/// The check on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuizSession {
    pub quiz: Quiz,
    pub answers: Vec<Option<u32>>,
    /// `None` for the introduction, `Some(QUESTIONS)` for the score.
    pub shown: Option<usize>,
    /// What was wrong with the last answer given (no choice picked, not a number), until the
    /// next question is shown.
    pub feedback: Option<String>,
}

/// What the learner gave in the question's form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerInput {
    /// The picked choice, for a question with choices.
    pub choice: Option<u32>,
    /// The number field's text, for a question asking for a number.
    pub number: String,
}

impl QuizSession {
    /// Draws `lesson`'s check for `seed`, with any answers this browser kept for it: a check
    /// already begun resumes at its first open question; a new one shows its introduction.
    pub fn draw(lesson: &'static Lesson, seed: u64, stored: &Progress) -> QuizSession {
        let quiz = quiz::generate(lesson, seed);
        let answers = stored.answers_for(&quiz);
        let shown = answers
            .iter()
            .any(Option::is_some)
            .then(|| next_open(&answers));
        QuizSession {
            quiz,
            answers,
            shown,
            feedback: None,
        }
    }

    pub fn lesson(&self) -> &'static Lesson {
        Lesson::by_id(self.quiz.lesson).expect("a quiz is drawn for a known lesson")
    }
}

/// One question's mark in the check's progress row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dot {
    /// "2 ✓": the question's number and its mark.
    pub text: String,
    /// "question 2: right", for a screen reader.
    pub label: String,
    /// The question on screen (`aria-current="step"`).
    pub current: bool,
}

impl QuizSession {
    /// One mark per question, with question `index` on screen: right, wrong, this one, or still
    /// to come.
    pub fn dots(&self, index: usize) -> Vec<Dot> {
        let questions = self.quiz.questions.iter().zip(&self.answers);
        questions
            .enumerate()
            .map(|(i, (q, a))| {
                let (mark, state) = match a {
                    Some(given) if q.is_right(*given) => ("✓", idemlab_lab::t!("right")),
                    Some(_) => ("✗", idemlab_lab::t!("wrong")),
                    None if i == index => ("•", idemlab_lab::t!("current question")),
                    None => ("", idemlab_lab::t!("to come")),
                };
                Dot {
                    // A number and a mark: no words to translate.
                    text: format!("{} {mark}", i + 1),
                    label: idemlab_lab::tf!("question {}: {}", i + 1, state),
                    current: i == index,
                }
            })
            .collect()
    }

    /// Whether question `index` offers "Show my choice as B": a locked answer that is not the
    /// right choice, which `show` already puts in B. A right answer would show B again.
    pub fn offers_try(&self, index: usize) -> bool {
        let Some(question) = self.quiz.questions.get(index) else {
            return false;
        };
        let given = self.answers.get(index).copied().flatten();
        matches!(question.form, Form::Choices(_)) && given.is_some_and(|a| !question.is_right(a))
    }
}

/// A lesson's button in the picker: its name and time, and "✓ mastered" once this browser's progress
/// says its check was passed, so the picker shows what is done before a lesson is opened.
pub fn lesson_button(progress: &Progress, lesson: &idemlab_course::lessons::Lesson) -> String {
    let name = idemlab_lab::tf!(
        "Lesson {}: {} ({} min)",
        lesson.id.to_ascii_uppercase(),
        idemlab_lab::i18n::tr(lesson.title),
        lesson.minutes
    );
    match progress.lesson(lesson.id) {
        Some(p) if p.mastered => idemlab_lab::tf!("{} ✓ mastered", name),
        _ => name,
    }
}

/// The lesson's mastery in a sentence, from this browser's progress.
pub fn quiz_status(progress: &Progress, lesson_id: &str) -> String {
    let total = QUESTIONS;
    match progress.lesson(lesson_id) {
        Some(p) if p.mastered => idemlab_lab::tf!("Mastered (best {} of {}).", p.best, total),
        Some(p) if p.best > 0 => {
            idemlab_lab::tf!("Best so far: {} of {}; {}.", p.best, total, mastery_rule())
        }
        _ => idemlab_lab::tf!("Not taken yet: {} questions, one attempt each.", total),
    }
}

/// The mastery rule in words, from `quiz::right_needed`: "all 4 right masters the lesson".
pub fn mastery_rule() -> String {
    let total = QUESTIONS as u32;
    match quiz::right_needed(total) {
        needed if needed == total => idemlab_lab::tf!("all {} right masters the lesson", total),
        needed => idemlab_lab::tf!("{} of {} right master the lesson", needed, total),
    }
}

/// The first question not answered yet, or the score when all are.
pub fn next_open(answers: &[Option<u32>]) -> usize {
    answers
        .iter()
        .position(Option::is_none)
        .unwrap_or(QUESTIONS)
}

/// The seed a learner's "take the check" opens: an unfinished check of this lesson from this
/// browser's progress, else `fresh`.
pub fn start_seed(lesson: &Lesson, stored: &Progress, fresh: u64) -> u64 {
    let unfinished = stored
        .lesson(lesson.id)
        .filter(|s| s.answers.iter().any(Option::is_some) && s.answers.iter().any(Option::is_none));
    unfinished
        .and_then(|s| s.quiz.parse().ok())
        .unwrap_or(fresh)
}

/// What a learner does in the check.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Resume an unfinished check from `stored`, else start one from `fresh_seed`.
    Start {
        stored: Progress,
        fresh_seed: u64,
    },
    /// Leave the introduction for the first open question.
    Begin,
    Show(usize),
    /// "Point at the proof again": the question on screen, its cursor back on the proving event.
    Proof,
    Next,
    New {
        seed: u64,
        stored: Progress,
    },
    Close,
    /// Show the picked choice (if any) as B; refused until the answer is locked.
    Try(Option<u32>),
    Answer(AnswerInput),
}

pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::Start { stored, fresh_seed } => {
            let Some(at) = state.lesson else {
                return Effects::default();
            };
            let seed = start_seed(at.lesson, &stored, fresh_seed);
            open(state, at.lesson, seed, &stored)
        }
        Msg::New { seed, stored } => match &state.quiz {
            Some(session) => {
                let lesson = session.lesson();
                open(state, lesson, seed, &stored)
            }
            None => Effects::default(),
        },
        Msg::Begin => match &state.quiz {
            Some(session) => show(state, next_open(&session.answers)),
            None => Effects::default(),
        },
        Msg::Show(index) => show(state, index.min(QUESTIONS)),
        Msg::Proof => match shown(state) {
            Some(index) => show(state, index.min(QUESTIONS)),
            None => Effects::default(),
        },
        Msg::Next => match shown(state) {
            Some(index) => show(state, (index + 1).min(QUESTIONS)),
            None => Effects::default(),
        },
        Msg::Close => match &state.quiz {
            Some(session) => {
                let lesson = session.lesson();
                state.open_step(lesson, lesson.steps.len() - 1);
                super::Effects::scenario()
            }
            None => Effects::default(),
        },
        Msg::Try(choice) => try_choice(state, choice),
        Msg::Answer(input) => answer(state, &input),
    }
}

fn shown(state: &State) -> Option<usize> {
    state.quiz.as_ref().and_then(|s| s.shown)
}

/// Puts `lesson`'s check for `seed` on the Lessons tab (drawn again only if it is another
/// check) and shows its first open question.
fn open(state: &mut State, lesson: &'static Lesson, seed: u64, stored: &Progress) -> Effects {
    let same =
        (state.quiz.as_ref()).is_some_and(|s| (s.quiz.lesson, s.quiz.seed) == (lesson.id, seed));
    if !same {
        state.quiz = Some(QuizSession::draw(lesson, seed, stored));
    }
    state.build = None;
    let step = state.lesson.and_then(|at| at.step);
    state.lesson = Some(LessonAt { lesson, step });
    state.tab = Tab::Lessons;
    let session = state.quiz.as_ref().expect("just drawn");
    show(state, next_open(&session.answers.clone()))
}

/// Whether the page keeps the run out of sight: the check is on its introduction, or a
/// question is on screen and its answer is not locked yet. Then `src/web` does not run the
/// scenario (the timeline, the Events and Tables tabs have no events, the counters show "–" and
/// `RUN_HIDDEN_NOTE`) and runs no B, and `update` refuses a choice as B and a sweep, so
/// nothing on screen gives the answer away. The introduction too. Meanwhile the page's scenario
/// is the default one, never the question's (`show`), so the link holds `quiz=SEED` alone.
/// The finale's task hides its run the same way until every part is added (`build::waiting`).
pub fn run_hidden(state: &State) -> bool {
    if crate::build::waiting(state) {
        return true;
    }
    let Some(session) = &state.quiz else {
        return false;
    };
    match session.shown {
        None => true,
        Some(i) => session.answers.get(i) == Some(&None),
    }
}

/// What the counters' heading says while `run_hidden`.
pub const RUN_HIDDEN_NOTE: &str = "The run appears once you lock your answer.";
/// What it says while the finale's task lacks a part.
pub const BUILD_WAITING_NOTE: &str =
    "The run appears once the API, the payment service and the database are added.";

/// The counters' heading while `run_hidden`, in the page's language.
pub fn hidden_note(state: &State) -> &'static str {
    match crate::build::waiting(state) {
        true => idemlab_lab::i18n::tr(BUILD_WAITING_NOTE),
        false => idemlab_lab::i18n::tr(RUN_HIDDEN_NOTE),
    }
}

/// Shows question `index` (or the score) and loads its run: unanswered, the question's
/// scenario with no B, its run kept out of sight (`run_hidden`); answered, with the right
/// choice as B and the cursor on the event that proves the answer.
fn show(state: &mut State, index: usize) -> Effects {
    let Some(session) = state.quiz.as_mut() else {
        return Effects::default();
    };
    session.shown = Some(index);
    session.feedback = None;
    let Some(question) = session.quiz.questions.get(index).cloned() else {
        return Effects {
            render: true,
            focus: Some(Focus::QuizTitle),
            ..Effects::default()
        };
    };
    let answered = session.answers[index].is_some();
    // Until the answer is locked the page holds no trace of the question's scenario: not in
    // the URL, the controls, the title, the embed or the exports, any of which would give the
    // answer away in another tab. The question's own text says what the learner needs.
    state.page.scenario = match answered {
        true => decode_lenient(&question.query).0.scenario,
        false => Scenario::default(),
    };
    state.page.compare = question.proof_compare.clone().filter(|_| answered);
    state.tab = Tab::Lessons;
    state.errors.clear();
    state.scenario_changed();
    if answered {
        state.page.cursor = Some(question.proof_event);
    }
    Effects {
        focus: Some(Focus::QuizTitle),
        ..Effects::scenario()
    }
}

/// Shows the picked choice as configuration B, so the learner can read its counters: only once
/// the answer is locked, since a preview of each choice's run would give the answer away.
fn try_choice(state: &mut State, choice: Option<u32>) -> Effects {
    if run_hidden(state) {
        if let Some(session) = state.quiz.as_mut() {
            // Why "Show my choice as B" did nothing before the answer was locked.
            let locked = idemlab_lab::t!(
                "Lock your answer first: the choices' runs open once it is locked."
            );
            session.feedback = Some(locked.into());
        }
        return Effects {
            render: true,
            ..Effects::default()
        };
    }
    let Some(session) = state.quiz.as_mut() else {
        return Effects::default();
    };
    let question = session.shown.and_then(|i| session.quiz.questions.get(i));
    let keys = match question.map(|q| &q.form) {
        Some(Form::Choices(choices)) => choice
            .and_then(|c| choices.get(c as usize))
            .map(|c| c.keys.clone()),
        _ => None,
    };
    let Some(keys) = keys else {
        session.feedback = Some(idemlab_lab::t!("Pick a choice first, then show it as B.").into());
        return Effects {
            render: true,
            ..Effects::default()
        };
    };
    state.page.compare = Some(keys);
    state.scenario_changed();
    Effects::scenario()
}

/// Locks in the answer to the question on screen: one attempt, kept in progress at once.
fn answer(state: &mut State, input: &AnswerInput) -> Effects {
    let Some(session) = state.quiz.as_mut() else {
        return Effects::default();
    };
    let Some(index) = session
        .shown
        .filter(|&i| i < QUESTIONS && session.answers.get(i) == Some(&None))
    else {
        return Effects::default();
    };
    match given(&session.quiz.questions[index].form, input) {
        Ok(value) => {
            session.answers[index] = Some(value);
            Effects {
                save_progress: true,
                ..show(state, index)
            }
        }
        Err(message) => {
            session.feedback = Some(message);
            Effects {
                render: true,
                focus: Some(Focus::QuizAnswer),
                ..Effects::default()
            }
        }
    }
}

/// The answer in the form, or what is wrong with it.
fn given(form: &Form, input: &AnswerInput) -> Result<u32, String> {
    match form {
        Form::Choices(choices) => input
            .choice
            .filter(|&c| (c as usize) < choices.len())
            .ok_or_else(|| idemlab_lab::t!("Pick one of the choices first.").into()),
        Form::Number => (input.number.trim().parse::<u32>().ok())
            .filter(|&n| n <= NUMBER_MAX)
            .ok_or_else(|| idemlab_lab::tf!("Enter a whole number from 0 to {}.", NUMBER_MAX)),
    }
}

impl QuizSession {
    /// "Lesson A": how the check names its lesson.
    pub fn lesson_name(&self) -> String {
        idemlab_lab::tf!("Lesson {}", self.quiz.lesson.to_ascii_uppercase())
    }

    /// What the check says aloud about question `index`, kept short (a whole explanation runs
    /// 540 to 760 characters): a refused answer's reason whole; a locked answer's verdict and
    /// the first sentence of its explanation; nothing for the instruction, which is on screen.
    pub fn spoken(&self, index: usize) -> Option<String> {
        if let Some(message) = &self.feedback {
            return Some(message.clone());
        }
        self.answers.get(index).copied().flatten()?;
        let (text, _) = self.feedback(index);
        // The verdict, "The answer is N." for a number, and the explanation's first sentence.
        let sentences = match self.quiz.questions[index].form {
            Form::Choices(_) => 2,
            Form::Number => 3,
        };
        Some(super::first_sentences(&text, sentences).to_string())
    }

    /// The line under question `index`: what was wrong with the last answer given, what to
    /// do, or whether the locked answer is right and why; with `Some(right)` once answered.
    pub fn feedback(&self, index: usize) -> (String, Option<bool>) {
        if let Some(message) = &self.feedback {
            return (message.clone(), None);
        }
        let question = &self.quiz.questions[index];
        match self.answers[index] {
            None => (
                idemlab_lab::tf!("One attempt per question; {}.", mastery_rule()),
                None,
            ),
            Some(given) => {
                let right = question.is_right(given);
                let verdict = if right {
                    idemlab_lab::t!("Right.")
                } else {
                    idemlab_lab::t!("Not this time.")
                };
                // A choice's explanation opens with its answer; a number's does not. The
                // explanation is already in the page's language (`idemlab_course::quiz`).
                let text = match question.form {
                    Form::Choices(_) => format!("{verdict} {}", question.explanation),
                    Form::Number => idemlab_lab::tf!(
                        "{} The answer is {}. {}",
                        verdict,
                        question.answer_text(),
                        question.explanation
                    ),
                };
                (text, Some(right))
            }
        }
    }

    /// The score in a sentence, and whether it masters the lesson.
    pub fn score_text(&self) -> (String, bool) {
        let score = quiz::grade(&self.quiz, &self.answers);
        let text = if score.mastered {
            idemlab_lab::tf!(
                "{} of {} right: {} mastered.",
                score.right,
                score.total,
                self.lesson_name()
            )
        } else {
            idemlab_lab::tf!(
                "{} of {} right: not mastered yet; {}. Try a new variant when ready.",
                score.right,
                score.total,
                mastery_rule()
            )
        };
        (text, score.mastered)
    }
}

impl QuizSession {
    /// The heading of what is on screen: the introduction, a question, or the score.
    pub fn title(&self) -> String {
        let name = self.lesson_name();
        match self.shown {
            None => idemlab_lab::tf!("Mastery check: {}", name),
            Some(index) if index < QUESTIONS => {
                idemlab_lab::tf!("{}, question {} of {}", name, index + 1, QUESTIONS)
            }
            Some(_) => idemlab_lab::tf!("Mastery check: {}, your score", name),
        }
    }

    /// The introduction's paragraph: how the check works, and its seed.
    pub fn intro_text(&self) -> String {
        idemlab_lab::tf!(
            "{} questions on fresh variants of the lesson's situations: a prediction (a count), a concept (a step order, or which boundary a claim protects) and a diagnosis (which change prevents the harm), at least. Answer each before its run is shown; once your answer is locked the run appears, the cursor on the event that proves it. One attempt per question; {}. Quiz seed {}: the same link gives the same questions.",
            QUESTIONS,
            mastery_rule(),
            self.quiz.seed
        )
    }

    /// What choice `choice` of question `index` says after its words: once the question is
    /// answered, which choice was right and which was the learner's.
    pub fn choice_text(&self, index: usize, choice: u32) -> String {
        let question = &self.quiz.questions[index];
        if !matches!(question.form, Form::Choices(_)) {
            return String::new();
        }
        // The choice's words are painted before this (`quiz::Choice::words`): only the mark.
        let mark = match self.answers[index] {
            Some(_) if question.answer == choice => idemlab_lab::t!("✓ the right answer"),
            Some(given) if given == choice => idemlab_lab::t!("✗ your answer"),
            _ => return String::new(),
        };
        // After the words, with a space between.
        format!(" {mark}")
    }

    /// The score's review, one line per question: the answer given and the right one.
    pub fn review(&self) -> Vec<String> {
        (self.quiz.questions.iter().zip(&self.answers).enumerate())
            .map(|(n, (question, answer))| {
                let given = answer.map_or(idemlab_lab::t!("no answer").into(), |a| {
                    quiz::answer_text(&question.form, a)
                });
                let mark = if answer.is_some_and(|a| question.is_right(a)) {
                    "✓"
                } else {
                    "✗"
                };
                let right = question.answer_text();
                // A right answer was just read in full: its line names the question only. The
                // trailing space parts one line from the next, outside the sentence.
                let mut line = match given == right {
                    true => idemlab_lab::tf!("{} question {}.", mark, n + 1),
                    false => idemlab_lab::tf!(
                        "{} you answered {}; the answer is {}.",
                        mark,
                        given,
                        right
                    ),
                };
                line.push(' ');
                line
            })
            .collect()
    }
}
