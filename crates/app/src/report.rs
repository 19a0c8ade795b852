//! Results to the course page (`report=parent`): which message, if any, a change of the page's
//! state sends to the parent frame. Decided from the state before and after `update`, so every
//! way of reaching a step (a button, Back, a link) reports alike. `src/web/embed.rs` only posts
//! it, to the parent alone; the page still listens to no message.

use super::State;
use idemlab_course::quiz;

/// One message to the parent; README's "Results to the course page" gives the schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// `idemlab:step`: a lesson step is on screen (`step` 1-based; `steps` the length of an
    /// instructor's own sequence, none for a lesson's).
    Step {
        lesson: &'static str,
        step: usize,
        steps: Option<usize>,
    },
    /// `idemlab:prediction`: the learner answered a step's prediction (`answer` is the choice's
    /// index, 0-based, as the step lists them; `choice` its text as shown; `steps` the length
    /// of an instructor's own sequence, none for a lesson's).
    Prediction {
        lesson: &'static str,
        step: usize,
        answer: usize,
        choice: String,
        correct: bool,
        steps: Option<usize>,
    },
    /// `idemlab:quiz`: the mastery check's last answer is locked: its score and verdict.
    Quiz {
        lesson: &'static str,
        seed: u64,
        score: u32,
        total: u32,
        mastered: bool,
    },
}

impl Report {
    /// The message's `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            Report::Step { .. } => "idemlab:step",
            Report::Prediction { .. } => "idemlab:prediction",
            Report::Quiz { .. } => "idemlab:quiz",
        }
    }
}

/// What a report is decided from, read before `update` and compared with the state after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marks {
    /// The lesson step on screen (lesson id, 0-based index), none while a check is open.
    step: Option<(&'static str, usize)>,
    predictions: usize,
    /// Answers to an instructor's own steps' questions (`own::answer`).
    own_answers: usize,
    /// The open check, once every answer is locked.
    finished: Option<(&'static str, u64)>,
}

pub fn marks(state: &State) -> Marks {
    let step = state.lesson.filter(|_| state.quiz.is_none());
    let finished = (state.quiz.as_ref())
        .filter(|s| s.answers.iter().all(Option::is_some))
        .map(|s| (s.quiz.lesson, s.quiz.seed));
    // An instructor's own step reports as lesson "own" (`steps=`).
    let own = (state
        .own_step
        .filter(|_| state.lesson.is_none() && state.page.steps.is_some()))
    .map(|index| (OWN, index));
    Marks {
        step: step.map(|at| (at.lesson.id, at.index())).or(own),
        predictions: state.predictions.len(),
        own_answers: state.own_choices.len(),
        finished,
    }
}

/// The message the change from `before` to `state` sends, with `report=parent` only: a check
/// finished, a prediction answered, or another step on screen.
pub fn decide(before: &Marks, state: &State) -> Option<Report> {
    if !state.page.report {
        return None;
    }
    let now = marks(state);
    if let (Some(session), true) = (&state.quiz, now.finished != before.finished) {
        now.finished?;
        let score = quiz::grade(&session.quiz, &session.answers);
        return Some(Report::Quiz {
            lesson: session.quiz.lesson,
            seed: session.quiz.seed,
            score: score.right,
            total: score.total,
            mastered: score.mastered,
        });
    }
    if now.predictions > before.predictions {
        let &((lesson, index), answer) = state.predictions.last()?;
        let predict = &idemlab_course::lessons::Lesson::by_id(lesson)?
            .steps
            .get(index)?
            .predict;
        return Some(Report::Prediction {
            lesson,
            step: index + 1,
            answer: answer.choice,
            choice: predict.choices().get(answer.choice)?.clone(),
            correct: answer.is_right(),
            steps: None,
        });
    }
    if now.own_answers > before.own_answers {
        let (step, answer, shown, correct) = super::own::last_answer(state)?;
        return Some(Report::Prediction {
            lesson: OWN,
            step: step + 1,
            answer,
            choice: shown.to_string(),
            correct,
            steps: own_steps(state, OWN),
        });
    }
    let (lesson, index) = now.step.filter(|_| now.step != before.step)?;
    Some(Report::Step {
        lesson,
        step: index + 1,
        steps: own_steps(state, lesson),
    })
}

/// The length of an instructor's own sequence, for a report about one of its steps.
fn own_steps(state: &State, lesson: &str) -> Option<usize> {
    (lesson == OWN).then(|| state.page.steps.as_ref().map(Vec::len))?
}

/// The `lesson` an instructor's own steps report as.
pub const OWN: &str = "own";

/// What a link reports as it loads: the step it opens (a finished check is not sent again).
pub fn on_load(state: &State) -> Option<Report> {
    let before = Marks {
        step: None,
        ..marks(state)
    };
    decide(&before, state)
}
