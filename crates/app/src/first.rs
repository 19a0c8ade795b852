//! The first view: what an entry link shows before the wasm has arrived, written at build time
//! by `idemlab first` from the page's own `view`, so its words are the ones the page paints.

use crate::view::predict::TextPiece;
use crate::view::Seen;
use crate::{LessonBody, Page, QuizShows};
use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::progress::Progress;
use serde::Serialize;

/// The check's seed the first view is built with: the check's title does not depend on it
/// (`tests/first.rs` pins that), and its introduction names it once, where `SEED_SLOT` then
/// stands, so one file serves every `quiz=` seed. No other number in the words is this long.
const CHECK_SEED: u64 = u64::MAX;

/// Where `www/first.js` writes the link's own `quiz=` seed into a check's introduction.
pub const SEED_SLOT: &str = "{seed}";

/// One entry's first view, as `first/NAME.json` holds it for `www/first.js`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct First {
    /// The file's name without `.json`: `bare`, `a-4` (lesson a, step 4), `a-check`.
    pub name: String,
    /// The link it is the first view of.
    pub query: String,
    /// The open lesson's button in the picker ("Lesson A: … (25 min)"); empty outside one.
    pub lesson: String,
    /// The lesson's step titles (the numbered list above a step's heading; none over a
    /// check), and which is open, from 0.
    pub steps: Vec<String>,
    pub step: usize,
    /// The step's heading or the check's title; empty on the bare page.
    pub heading: String,
    /// The step's text as plain words (pointer phrases and terms are buttons once the wasm runs);
    /// empty while the step waits for its question's answer, as the page hides it then. A
    /// check's introduction, with `SEED_SLOT` where its seed goes.
    pub text: String,
    /// The step's question (its setup, then the question) and its choices, when it asks one.
    /// The setup is in pieces, each marked when it is a glossary term: the page underlines
    /// those, and the first view must take the same room, or the page's copy would paint as a
    /// larger, later contentful paint.
    pub setup: Vec<(String, bool)>,
    pub question: String,
    pub choices: Vec<String>,
    /// The step's definitions as the page folds them under its heading: the summary that
    /// names the words, then each word and its meaning.
    pub terms_summary: String,
    pub terms: Vec<(String, String)>,
    /// Whether `NAME.svg` (run A, as `idemlab svg` writes it) goes with it.
    pub picture: bool,
}

/// Every entry: the bare page, each preset (its summary, shown whatever the link's seed and
/// compare), each lesson's steps, each lesson's check.
pub fn entries() -> Vec<(String, String)> {
    let mut entries = vec![("bare".to_string(), String::new())];
    for spec in idemlab_core::scenario::presets::PRESETS.iter() {
        let name = format!("preset-{}", spec.name);
        entries.push((name, format!("preset={}", spec.name)));
    }
    for lesson in LESSONS.iter() {
        for step in 1..=lesson.steps.len() {
            let query = format!("lesson={}&step={step}", lesson.id);
            entries.push((format!("{}-{step}", lesson.id), query));
        }
        let query = format!("lesson={}&quiz={CHECK_SEED}", lesson.id);
        entries.push((format!("{}-check", lesson.id), query));
    }
    entries
}

/// The first view of `query`, from the page built in one go: the same `view` the wasm paints.
pub fn first(name: &str, query: &str) -> First {
    let page = Page::built(query);
    let progress = Progress::new();
    let seen = Seen {
        progress: &progress,
        quiz_note: None,
        scroll_top_px: 0,
    };
    let frame = crate::view::view(&page.state, &page.runs, &seen);
    let mut first = First {
        name: name.to_string(),
        query: query.to_string(),
        lesson: String::new(),
        steps: Vec::new(),
        step: 0,
        heading: String::new(),
        text: String::new(),
        setup: Vec::new(),
        question: String::new(),
        choices: Vec::new(),
        terms_summary: String::new(),
        terms: Vec::new(),
        // A step waiting for its answer holds its run at the first event, and a check hides
        // its run until answered: a finished picture would give the answer away.
        picture: frame.quiz.panel.is_none() && !frame.predict.waiting,
    };
    if let Some(open) = &page.state.lesson {
        let id = open.lesson.id;
        let button = frame.lessons.picker.iter().find(|button| button.id == id);
        first.lesson = button.map(|button| button.text.clone()).unwrap_or_default();
    }
    match &frame.lessons.body {
        LessonBody::Step(step) => {
            first.steps = step.steps.iter().map(|s| s.title.to_string()).collect();
            first.step = step.steps.iter().position(|s| s.current).unwrap_or(0);
            first.heading = step.heading.clone();
            // A step that waits for its answer hides its text, which tells the outcome.
            if !frame.predict.waiting {
                first.text = plain(&step.text);
            }
        }
        LessonBody::Quiz => {
            if let Some(panel) = &frame.quiz.panel {
                // The title and the introduction, its seed a slot for the link's own; not
                // the status, which is this browser's record.
                if let QuizShows::Intro { text, .. } = &panel.shows {
                    first.heading = panel.title.clone();
                    first.text = text.replace(&CHECK_SEED.to_string(), SEED_SLOT);
                }
            }
        }
        LessonBody::Pick | LessonBody::Build(_) => {}
    }
    // A preset's link: its summary, which the page shows for any seed, compare or not; its
    // picture depends on the seed, so it waits for the wasm.
    if page.state.lesson.is_none() && page.state.page.scenario.preset.is_some() {
        first.text = crate::preset_summary(&page.state.page.scenario)
            .unwrap_or_default()
            .to_string();
        first.picture = false;
    }
    if let Some(shell) = &frame.predict.shell {
        first.setup = shell.setup.iter().map(marked).collect();
        first.question = shell.question.to_string();
        first.choices = shell.choices.clone();
        if let Some(terms) = &shell.terms {
            first.terms_summary = terms.summary.clone();
            let entries = terms.entries.iter();
            first.terms = entries
                .map(|(w, d)| (w.to_string(), d.to_string()))
                .collect();
        }
    }
    first
}

/// Run A's picture for `query`: exactly what `idemlab svg` prints for it.
pub fn picture(query: &str) -> String {
    let page = Page::built(query);
    let trace = &page.runs.a.trace;
    idemlab_lab::view::export(&page.runs.a.timeline, &trace.query(), page.state.page.zoom)
}

/// A piece of a step's text as its words, and whether the page underlines it as a term.
fn marked(piece: &TextPiece) -> (String, bool) {
    let term = matches!(piece, TextPiece::Term { .. });
    (words(piece).to_string(), term)
}

/// A step's text as the words a reader sees, without the buttons' markup.
pub fn plain(pieces: &[TextPiece]) -> String {
    pieces.iter().map(words).collect()
}

fn words(piece: &TextPiece) -> &'static str {
    match *piece {
        TextPiece::Plain(words) | TextPiece::Pointer(_, words) => words,
        TextPiece::Term { words, .. } => words,
    }
}
