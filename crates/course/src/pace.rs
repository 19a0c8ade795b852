//! How long a lesson takes a newcomer on its shortest path, by the measure the source lesson's
//! "25 min" is held to: the words they read at 200 a minute, plus 20 s for each thing they do
//! (an answer, a press of Next). The words are the lesson's own (titles, set-ups, questions,
//! choices, reveals, boundary lines, and the classification a step asks for); the page's fixed
//! hints and the folded definitions are not counted.

use crate::classify::OPERATIONS;
use crate::lessons::{Lesson, Step};
use crate::quiz::{Form, Quiz};

pub const WORDS_PER_MINUTE: u32 = 200;
pub const SECONDS_PER_INTERACTION: u32 = 20;

/// What a path asks of a learner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pace {
    pub words: u32,
    pub interactions: u32,
}

impl Pace {
    /// The time in whole seconds: reading, then doing.
    pub fn seconds(self) -> u32 {
        self.words * 60 / WORDS_PER_MINUTE + self.interactions * SECONDS_PER_INTERACTION
    }

    /// The time in minutes, rounded to the nearest.
    pub fn minutes(self) -> u32 {
        (self.seconds() + 30) / 60
    }

    fn read(&mut self, text: &str) {
        self.words += words(text);
    }
}

impl std::ops::Add for Pace {
    type Output = Pace;
    fn add(self, other: Pace) -> Pace {
        Pace {
            words: self.words + other.words,
            interactions: self.interactions + other.interactions,
        }
    }
}

/// Words as a reader counts them: runs of characters between spaces.
pub fn words(text: &str) -> u32 {
    text.split_whitespace().count() as u32
}

/// One step, answered and left by Next: its words, and what it asks the learner to do.
pub fn of_step(step: &Step) -> Pace {
    let mut pace = Pace {
        words: 0,
        interactions: 2,
    };
    let predict = &step.predict;
    for text in [step.title, predict.setup, predict.question, step.text] {
        pace.read(text);
    }
    predict
        .choices()
        .iter()
        .for_each(|choice| pace.read(choice));
    if let Some(boundary) = step.boundary {
        pace.read(boundary.protects);
        pace.read(boundary.not);
    }
    if step.classify {
        // Each operation is read, answered, and its reason read.
        for operation in &OPERATIONS {
            pace.read(operation.text);
            pace.read(operation.why);
            pace.interactions += 1;
        }
    }
    if step.has_ordering_exercise() {
        // The least a correct draft takes: one move, then Run.
        pace.interactions += 2;
    }
    pace
}

/// Every step of `lesson`, in order.
pub fn of_steps(lesson: &Lesson) -> Pace {
    lesson
        .steps
        .iter()
        .map(of_step)
        .fold(Pace::default(), |a, b| a + b)
}

/// The mastery check: each question read, answered, its reason read, then Next.
pub fn of_check(quiz: &Quiz) -> Pace {
    let mut pace = Pace::default();
    for question in &quiz.questions {
        pace.read(&question.prompt);
        pace.read(&question.explanation);
        if let Form::Choices(choices) = &question.form {
            choices.iter().for_each(|choice| pace.read(&choice.label));
        }
        pace.interactions += 2;
    }
    pace
}
