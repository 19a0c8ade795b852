//! The learner's progress as the page keeps it in `localStorage` under one key: per lesson, the
//! mastered flag, the best score, and the answers given in the current check. Pure text in and
//! out, so a corrupt, foreign or future record is handled (and tested) natively: it is never a
//! panic, only a fresh start with a note saying why.
//!
//! The record is a few lines of text, not JSON: a JSON reader cost the page 17 KB of gzipped
//! wasm for a record this small. It reads
//!
//! ```text
//! idemlab-progress 7
//! lesson=a mastered=1 best=4 quiz=2024 answers=0,2,-,1
//! ```
//!
//! with `-` for a question not answered yet, and a last line `shortcuts=off` when the learner
//! turned the page's single-key shortcuts off.
//!
//! Reading keeps every line it can read and leaves out only those it cannot, and its note
//! names them. Whitespace around a line is ignored. A lesson given twice keeps the line with
//! more progress (mastered first, then the better best score; the first of equals). A record
//! of a newer version is not ours to change: the page works with a fresh progress in memory
//! and never writes over it (`keep_stored`). An older one starts afresh, since its answers
//! were drawn by another quiz.

use std::fmt::Write as _;

use super::{grade, Quiz, QUESTIONS};
use crate::lessons::LESSONS;

/// The `localStorage` key; nothing else is stored, and nothing is sent anywhere.
pub const STORAGE_KEY: &str = "idemlab.progress";
/// Bumped when the record's meaning changes; a record of another version starts afresh.
/// Version 1 was JSON; 5: the ordering exercise's claim got a lease, which moved the safe-order
/// draws; 6: the first question of Lesson A draws how many answers are lost; 7: a safe-order
/// question's wrong orders are near misses where its situation has them.
pub const VERSION: u32 = 7;
/// A record longer than this is not ours (ours is well under 1 KiB) and is not parsed.
pub const TEXT_LEN_MAX: usize = 16 * 1024;
/// The setting's line: present only when the shortcuts are off.
const SHORTCUTS_OFF: &str = "shortcuts=off";
/// The first line's word, before the version.
const HEADER: &str = "idemlab-progress";

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub version: u32,
    /// By lesson id, sorted by it, each id once: a vector rather than a `BTreeMap`, since
    /// there are two or three lessons and each map instance costs kilobytes of the page's wasm.
    lessons: Vec<(String, LessonProgress)>,
    /// The page's single-key shortcuts are off (WCAG 2.1.4): a setting kept with the progress.
    pub shortcuts_off: bool,
    /// The stored record is of a newer version: this progress lives in memory only, and the
    /// page must not store it over that record.
    pub keep_stored: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LessonProgress {
    /// Set once a finished check scores `right_needed`; a later miss keeps it.
    pub mastered: bool,
    /// The most right answers in any finished check.
    pub best: u32,
    /// The quiz seed of the current check, as text: JavaScript numbers lose u64 digits.
    pub quiz: String,
    /// One entry per question of the current check; `None` for not answered yet.
    pub answers: Vec<Option<u32>>,
}

/// Why a record could not be read at all.
enum Unreadable {
    Malformed,
    Older,
    Newer,
}

/// How a left-out line is named in the note: its number and its start.
fn named_line(number: usize, line: &str) -> String {
    const SHOWN: usize = 24;
    let start: String = line.chars().take(SHOWN).collect();
    let more = if line.chars().count() > SHOWN {
        "…"
    } else {
        ""
    };
    idemlab_lab::tf!("line {} (`{}{}`)", number, start, more)
}

impl Progress {
    pub fn new() -> Progress {
        Progress {
            version: VERSION,
            lessons: Vec::new(),
            shortcuts_off: false,
            keep_stored: false,
        }
    }

    /// Reads a stored record. Missing gives a fresh one; what cannot be read is left out,
    /// and a note for the learner says what.
    pub fn parse(text: Option<&str>) -> (Progress, Option<String>) {
        let Some(text) = text else {
            return (Progress::new(), None);
        };
        // Each note a whole sentence, so a translation need not assemble one from pieces.
        let reset = |note: &str| (Progress::new(), Some(note.to_string()));
        if text.len() > TEXT_LEN_MAX {
            return reset(idemlab_lab::t!(
                "Saved quiz progress was too long to be ours, so it starts afresh."
            ));
        }
        match read(text) {
            Err(Unreadable::Malformed) => reset(idemlab_lab::t!(
                "Saved quiz progress could not be read, so it starts afresh."
            )),
            Err(Unreadable::Older) => reset(idemlab_lab::t!(
                "Saved quiz progress is from an older version, whose questions were drawn differently, so it starts afresh."
            )),
            Err(Unreadable::Newer) => {
                let progress = Progress {
                    keep_stored: true,
                    ..Progress::new()
                };
                let note = idemlab_lab::t!("Saved quiz progress is from a newer version of the lab: it is kept as it is, and this visit's progress is not saved.");
                (progress, Some(note.to_string()))
            }
            Ok((progress, dropped)) if dropped.is_empty() => (progress.sanitized(), None),
            Ok((progress, dropped)) => {
                let note = idemlab_lab::tf!(
                    "Saved quiz progress had lines that could not be read, so they were left out and the rest kept: {}.",
                    dropped.join("; ")
                );
                (progress.sanitized(), Some(note))
            }
        }
    }

    /// A best score or an answer list longer than a check: not a line the page wrote.
    fn out_of_range(lesson: &LessonProgress) -> bool {
        lesson.best > QUESTIONS as u32 || lesson.answers.len() > QUESTIONS
    }

    /// Keeps only known lessons and drops the answers of an unreadable quiz seed, so a
    /// hand-edited record cannot make the page index out of range.
    fn sanitized(mut self) -> Progress {
        self.lessons
            .retain(|(id, _)| LESSONS.iter().any(|lesson| lesson.id == id));
        for (_, lesson) in &mut self.lessons {
            if lesson.quiz.parse::<u64>().is_err() {
                lesson.quiz.clear();
                lesson.answers.clear();
            }
        }
        self
    }

    /// The record as the page stores it; `parse` reads it back.
    pub fn to_text(&self) -> String {
        let mut out = format!("{HEADER} {}\n", self.version);
        for (id, lesson) in &self.lessons {
            let answers: Vec<String> = (lesson.answers.iter())
                .map(|a| a.map_or_else(|| "-".into(), |a| a.to_string()))
                .collect();
            let _ = writeln!(
                out,
                "lesson={id} mastered={} best={} quiz={} answers={}",
                u8::from(lesson.mastered),
                lesson.best,
                lesson.quiz,
                answers.join(",")
            );
        }
        if self.shortcuts_off {
            out.push_str(SHORTCUTS_OFF);
            out.push('\n');
        }
        out
    }

    pub fn lesson(&self, lesson: &str) -> Option<&LessonProgress> {
        let at = self
            .lessons
            .binary_search_by(|(id, _)| id.as_str().cmp(lesson));
        at.ok().map(|at| &self.lessons[at].1)
    }

    /// The lesson's record, made empty if there is none yet; false if it existed.
    fn entry(&mut self, lesson: &str) -> (&mut LessonProgress, bool) {
        match self
            .lessons
            .binary_search_by(|(id, _)| id.as_str().cmp(lesson))
        {
            Ok(at) => (&mut self.lessons[at].1, false),
            Err(at) => {
                self.lessons
                    .insert(at, (lesson.to_string(), LessonProgress::default()));
                (&mut self.lessons[at].1, true)
            }
        }
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
        // A choice that the question does not have was not given on this page: the check
        // starts afresh rather than show an answer that cannot be.
        let fits = |(question, given): (&crate::quiz::Question, &Option<u32>)| match (
            &question.form,
            given,
        ) {
            (crate::quiz::Form::Choices(choices), Some(i)) => (*i as usize) < choices.len(),
            _ => true,
        };
        if !quiz.questions.iter().zip(&answers).all(fits) {
            return vec![None; quiz.questions.len()];
        }
        answers
    }

    /// Records the answers of `quiz`; a finished check updates the best score and mastery.
    pub fn record(&mut self, quiz: &Quiz, answers: &[Option<u32>]) {
        let (lesson, _) = self.entry(quiz.lesson);
        lesson.quiz = quiz.seed.to_string();
        lesson.answers = answers.iter().copied().take(QUESTIONS).collect();
        let score = grade(quiz, answers);
        if score.answered == score.total {
            lesson.best = lesson.best.max(score.right);
            lesson.mastered |= score.mastered;
        }
    }
}

/// Reads the header, then every line it can: the progress and the lines it left out, named.
fn read(text: &str) -> Result<(Progress, Vec<String>), Unreadable> {
    let mut lines = text.lines().map(str::trim).enumerate();
    let (_, header) = lines.next().ok_or(Unreadable::Malformed)?;
    let version = (header.strip_prefix(HEADER))
        .and_then(|rest| rest.strip_prefix(' '))
        .ok_or(Unreadable::Malformed)?;
    let version: u32 = version.trim().parse().map_err(|_| Unreadable::Malformed)?;
    match version.cmp(&VERSION) {
        std::cmp::Ordering::Less => return Err(Unreadable::Older),
        std::cmp::Ordering::Greater => return Err(Unreadable::Newer),
        std::cmp::Ordering::Equal => {}
    }
    let (mut progress, mut dropped) = (Progress::new(), Vec::new());
    // Which line each lesson was read from, so that the note names the one left out.
    let mut kept: Vec<(String, usize, &str)> = Vec::new();
    for (index, line) in lines.filter(|(_, line)| !line.is_empty()) {
        if line == SHORTCUTS_OFF {
            progress.shortcuts_off = true;
            continue;
        }
        let read = read_lesson(line).filter(|(_, lesson)| !Progress::out_of_range(lesson));
        let Some((id, lesson)) = read else {
            dropped.push((index + 1, line));
            continue;
        };
        let (slot, fresh) = progress.entry(&id);
        let at = kept.iter().position(|(had, _, _)| *had == id);
        match at.filter(|_| !fresh) {
            // The line with more progress stays; the note names the other.
            Some(at) if further(&lesson, slot) => {
                let (_, number, text) = std::mem::replace(&mut kept[at], (id, index + 1, line));
                dropped.push((number, text));
                *slot = lesson;
            }
            Some(_) => dropped.push((index + 1, line)),
            None => {
                kept.push((id, index + 1, line));
                *slot = lesson;
            }
        }
    }
    dropped.sort_unstable_by_key(|(number, _)| *number);
    let named = dropped.into_iter().map(|(n, line)| named_line(n, line));
    Ok((progress, named.collect()))
}

/// Whether `a` records more progress than `b`: mastered first, then the better best score.
fn further(a: &LessonProgress, b: &LessonProgress) -> bool {
    (a.mastered, a.best) > (b.mastered, b.best)
}

/// `lesson=a mastered=1 best=4 quiz=2024 answers=0,2,-,1`: every field once, in this order.
fn read_lesson(line: &str) -> Option<(String, LessonProgress)> {
    let mut fields = line.split(' ');
    let mut field = |name: &str| fields.next()?.strip_prefix(name)?.strip_prefix('=');
    let id = field("lesson")?.to_string();
    let mastered = match field("mastered")? {
        "1" => true,
        "0" => false,
        _ => return None,
    };
    let best = field("best")?.parse().ok()?;
    let quiz = field("quiz")?.to_string();
    let answers = match field("answers")? {
        "" => Vec::new(),
        list => (list.split(','))
            .map(|a| {
                if a == "-" {
                    Some(None)
                } else {
                    a.parse().ok().map(Some)
                }
            })
            .collect::<Option<Vec<_>>>()?,
    };
    if fields.next().is_some() {
        return None;
    }
    let lesson = LessonProgress {
        mastered,
        best,
        quiz,
        answers,
    };
    Some((id, lesson))
}
