//! The mastery check as the page paints it: its introduction, one question at a time (its
//! marks, its form, the line under it and what it says aloud), or the score and its review.
//! The page builds the panel afresh only when this changes, so a half-typed answer survives
//! the frames of playback.

use crate::{quiz_status, Dot, QuizSession, State};
use idemlab_course::quiz::progress::Progress;
use idemlab_course::quiz::{Form, NUMBER_MAX, QUESTIONS};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuizFrame {
    /// `None` while no check is on screen.
    pub panel: Option<QuizPanel>,
    /// Why this browser's progress could not be read or kept: shown under the check, once,
    /// when the panel is next built.
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuizPanel {
    /// The heading: "Mastery check: Lesson A", "Lesson A, question 2 of 4"…
    pub title: String,
    pub shows: QuizShows,
}

/// What the check has on screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuizShows {
    /// How the check works, and the lesson's mastery status so far.
    Intro {
        text: String,
        status: String,
    },
    Question(Box<QuizQuestion>),
    /// The score in a sentence (which speaks), whether it masters the lesson, and a line per
    /// question (`data-action="show-N"` shows question N again).
    Score {
        verdict: String,
        mastered: bool,
        review: Vec<String>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuizQuestion {
    /// The row of marks, labelled "Questions".
    pub dots_label: &'static str,
    pub dots: Vec<Dot>,
    /// The form's `data-kind`, `data-question` (from 1) and, for a per-order question,
    /// `data-order`. Never the question's scenario: pasted into another tab it would show the
    /// answer.
    pub kind: &'static str,
    pub number: String,
    pub order: Option<String>,
    pub fields: QuizFields,
    /// "Show my choice as B" is offered (`QuizSession::offers_try`).
    pub offers_try: bool,
    /// "Check my answer" is disabled: the answer is locked.
    pub check_disabled: bool,
    /// The line under the question and its `data-result` ("right", "wrong"; none before).
    pub feedback: String,
    pub result: Option<&'static str>,
    /// What the check says aloud (`QuizSession::spoken`).
    pub said: String,
    /// Answered: "Point at the proof again" and the way on are offered.
    pub answered: bool,
    /// The way on's words on the last question, "See the score →", else the markup's own.
    pub next_label: Option<&'static str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuizFields {
    Choices {
        legend: String,
        choices: Vec<QuizChoice>,
    },
    Number {
        legend: String,
        /// The field's `max`.
        max: String,
        /// The answer given, which the field shows, disabled.
        given: Option<String>,
    },
}

/// One choice of a question: its radio's value, whether it is the answer given, and its words
/// with the mark that follows them once answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuizChoice {
    /// `data-keys`: the choice in the codec's syntax.
    pub keys: String,
    pub value: String,
    pub checked: bool,
    pub disabled: bool,
    pub words: String,
    /// " ✓ the right answer", " ✗ your answer", or empty.
    pub mark: String,
}

/// `progress` is this browser's record (the introduction's status), `note` what the browser
/// could not do with it, if anything.
pub fn view(state: &State, progress: &Progress, note: Option<&str>) -> QuizFrame {
    let panel = state.quiz.as_ref().map(|check| QuizPanel {
        title: check.title(),
        shows: match check.shown {
            None => QuizShows::Intro {
                text: check.intro_text(),
                status: quiz_status(progress, check.quiz.lesson),
            },
            Some(index) if index < QUESTIONS => {
                QuizShows::Question(Box::new(question(check, index)))
            }
            Some(_) => {
                let (verdict, mastered) = check.score_text();
                QuizShows::Score {
                    verdict,
                    mastered,
                    review: check.review(),
                }
            }
        },
    });
    QuizFrame {
        panel,
        note: note.map(String::from),
    }
}

fn question(check: &QuizSession, index: usize) -> QuizQuestion {
    let question = &check.quiz.questions[index];
    let answer = check.answers[index];
    let (feedback, right) = check.feedback(index);
    let fields = match &question.form {
        Form::Choices(choices) => QuizFields::Choices {
            legend: question.prompt.clone(),
            choices: (0..choices.len() as u32)
                .map(|i| QuizChoice {
                    keys: choices[i as usize].keys.clone(),
                    value: i.to_string(),
                    checked: answer == Some(i),
                    disabled: answer.is_some(),
                    words: choices[i as usize].words().to_string(),
                    mark: check.choice_text(index, i),
                })
                .collect(),
        },
        Form::Number => QuizFields::Number {
            legend: question.prompt.clone(),
            max: NUMBER_MAX.to_string(),
            given: answer.map(|given| given.to_string()),
        },
    };
    QuizQuestion {
        dots_label: idemlab_lab::t!("Questions"),
        dots: check.dots(index),
        kind: question.kind.name(),
        number: (index + 1).to_string(),
        order: question.order.map(|order| order.to_string()),
        fields,
        offers_try: check.offers_try(index),
        check_disabled: answer.is_some(),
        feedback,
        result: right.map(|right| if right { "right" } else { "wrong" }),
        // The whole text shows; a short form of it speaks.
        said: check.spoken(index).unwrap_or_default(),
        answered: answer.is_some(),
        next_label: (answer.is_some() && index + 1 == QUESTIONS)
            .then(|| idemlab_lab::t!("See the score →")),
    }
}

/// What the page says when this browser would not keep the check's progress.
pub fn unsaved_note() -> String {
    idemlab_lab::t!("This browser would not keep the progress; it lasts until the page closes.")
        .to_string()
}
