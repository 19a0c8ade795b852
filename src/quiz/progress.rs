//! The learner's progress as the page keeps it in `localStorage` under one key: per lesson, the
//! mastered flag, the best score, and the answers given in the current check. Pure text in and
//! out, so a corrupt, foreign or future record is handled (and tested) natively: it is never a
//! panic, only a fresh start with a note saying why.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{grade, Quiz, QUESTIONS};
use crate::lessons::LESSONS;

/// The `localStorage` key; nothing else is stored, and nothing is sent anywhere.
pub const STORAGE_KEY: &str = "idemlab.progress";
/// Bumped when the record's meaning changes; a record of another version starts afresh.
pub const VERSION: u32 = 1;
/// A record longer than this is not ours (ours is well under 1 KiB) and is not parsed.
pub const TEXT_LEN_MAX: usize = 16 * 1024;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub version: u32,
    pub lessons: BTreeMap<String, LessonProgress>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Set once a finished check scores `MASTERY_PERCENT` or more; a later miss keeps it.
    pub mastered: bool,
    /// The most right answers in any finished check.
    pub best: u32,
    /// The quiz seed of the current check, as text: JavaScript numbers lose u64 digits.
    pub quiz: String,
    /// One entry per question of the current check; `null` for not answered yet.
    pub answers: Vec<Option<u32>>,
}

impl Progress {
    pub fn new() -> Progress {
        Progress {
            version: VERSION,
            lessons: BTreeMap::new(),
        }
    }

    /// Reads a stored record. Missing gives a fresh one; anything unreadable gives a fresh one
    /// and a note for the learner.
    pub fn parse(text: Option<&str>) -> (Progress, Option<String>) {
        let Some(text) = text else {
            return (Progress::new(), None);
        };
        let reset = |why: &str| {
            let note = format!("Saved quiz progress {why}, so it starts afresh.");
            (Progress::new(), Some(note))
        };
        if text.len() > TEXT_LEN_MAX {
            return reset("was too long to be ours");
        }
        match serde_json::from_str::<Progress>(text) {
            Err(_) => reset("could not be read"),
            Ok(progress) if progress.version != VERSION => reset("is from another version"),
            Ok(progress) => (progress.sanitized(), None),
        }
    }

    /// Keeps only known lessons and answer lists of the right length, so a hand-edited record
    /// cannot make the page index out of range.
    fn sanitized(mut self) -> Progress {
        self.lessons
            .retain(|id, _| LESSONS.iter().any(|lesson| lesson.id == id));
        for lesson in self.lessons.values_mut() {
            lesson.best = lesson.best.min(QUESTIONS as u32);
            if lesson.quiz.parse::<u64>().is_err() {
                lesson.quiz.clear();
                lesson.answers.clear();
            }
            lesson.answers.truncate(QUESTIONS);
        }
        self
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("progress always serializes")
    }

    pub fn lesson(&self, lesson: &str) -> Option<&LessonProgress> {
        self.lessons.get(lesson)
    }

    /// The answers already given in `quiz`, one per question: stored ones if the learner was
    /// taking this very check, none otherwise.
    pub fn answers_for(&self, quiz: &Quiz) -> Vec<Option<u32>> {
        let mut answers = vec![None; quiz.questions.len()];
        let stored = self.lesson(quiz.lesson);
        if let Some(stored) = stored.filter(|s| s.quiz == quiz.seed.to_string()) {
            for (slot, given) in answers.iter_mut().zip(&stored.answers) {
                *slot = *given;
            }
        }
        answers
    }

    /// Records the answers of `quiz`; a finished check updates the best score and mastery.
    pub fn record(&mut self, quiz: &Quiz, answers: &[Option<u32>]) {
        let lesson = self.lessons.entry(quiz.lesson.to_string()).or_default();
        lesson.quiz = quiz.seed.to_string();
        lesson.answers = answers.iter().copied().take(QUESTIONS).collect();
        let score = grade(quiz, answers);
        if score.answered == score.total {
            lesson.best = lesson.best.max(score.right);
            lesson.mastered |= score.mastered;
        }
    }
}
