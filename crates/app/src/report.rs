//! Results to the course page (`report=parent` or `report=ORIGIN`): which messages a change of
//! the page's state sends to the parent frame, each message's JSON (protocol `v: 1`, README's
//! "Results to the course page") and the origin it goes to. Decided from the state before and
//! after `update`, so every way of reaching a step (a button, Back, a link) reports alike.
//! `crates/web/src/embed.rs` only posts what this decides; the page still listens to no message.

use super::State;
use idemlab_course::lessons::Lesson;
use idemlab_course::quiz::{self, Form};

/// The protocol's version, `v` in every message: raised when a field changes meaning or goes.
pub const VERSION: u32 = 1;

/// What an `idemlab:start` begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Started {
    Lesson,
    Check,
    Own,
}

impl Started {
    pub fn name(self) -> &'static str {
        match self {
            Started::Lesson => "lesson",
            Started::Check => "check",
            Started::Own => "own",
        }
    }
}

/// A prediction's value, whatever the page's language: a count, or the words of a "which run"
/// choice as the lesson writes them (`only A`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picked {
    Count(u32),
    Words(String),
}

/// One question of a finished check, as `idemlab:quiz` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answered {
    /// The question's kind (`charges-for-order`): a check asks each kind once.
    pub kind: &'static str,
    /// The learner's answer and the right one: the number, or the choice's 0-based index.
    pub answer: u32,
    pub right: u32,
    /// For a choice question, the keys of the learner's choice and of the right one.
    pub keys: Option<(String, String)>,
    pub correct: bool,
}

/// One answered own step, as `idemlab:summary` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnAnswer {
    /// 1-based.
    pub step: usize,
    /// The choice's 0-based index, and the count it shows.
    pub answer: usize,
    pub value: u32,
    pub correct: bool,
}

/// One message to the parent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Report {
    /// `idemlab:start`: a lesson, a check or an own sequence begins; `attempt` counts this
    /// page's starts of the same `id` (a check's new variant is its next attempt).
    Start {
        what: Started,
        id: String,
        attempt: u32,
        /// A check's quiz seed.
        seed: Option<u64>,
        /// An own sequence's length.
        steps: Option<usize>,
    },
    /// `idemlab:step`: a step is on screen (`step` 1-based; `steps` an own sequence's length).
    Step {
        lesson: &'static str,
        id: String,
        step: usize,
        steps: Option<usize>,
    },
    /// `idemlab:prediction`: the learner answered a step's prediction: the choice's 0-based
    /// index (`answer`), its value, and its text as shown (`choice`).
    Prediction {
        lesson: &'static str,
        id: String,
        step: usize,
        answer: usize,
        value: Picked,
        choice: String,
        correct: bool,
        steps: Option<usize>,
    },
    /// `idemlab:quiz`: the mastery check's last answer is locked.
    Quiz {
        lesson: &'static str,
        seed: u64,
        attempt: u32,
        score: u32,
        total: u32,
        mastered: bool,
        questions: Vec<Answered>,
    },
    /// `idemlab:summary`: an own sequence's last step is answered (or, asking nothing, open).
    Summary {
        id: String,
        steps: usize,
        asked: usize,
        right: usize,
        answers: Vec<OwnAnswer>,
    },
}

impl Report {
    /// The message's `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            Report::Start { .. } => "idemlab:start",
            Report::Step { .. } => "idemlab:step",
            Report::Prediction { .. } => "idemlab:prediction",
            Report::Quiz { .. } => "idemlab:quiz",
            Report::Summary { .. } => "idemlab:summary",
        }
    }

    /// The message as JSON, with the protocol's version and `view` (`report::view`: the view
    /// it ran, which a course page compares with the link it framed).
    pub fn json(&self, view: &str) -> String {
        let mut message = vec![
            ("type", self.kind().into()),
            ("v", VERSION.into()),
            ("view", view.into()),
        ];
        message.extend(self.fields());
        object(message).text()
    }

    fn fields(&self) -> Vec<(&'static str, Value)> {
        // Seeds are strings: they go past 2^53, where a JavaScript number loses digits.
        let mut fields = match self {
            Report::Start {
                what, id, attempt, ..
            } => vec![
                ("what", what.name().into()),
                ("id", id.as_str().into()),
                ("attempt", (*attempt).into()),
            ],
            Report::Step {
                lesson, id, step, ..
            } => vec![
                ("lesson", (*lesson).into()),
                ("id", id.as_str().into()),
                ("step", (*step).into()),
            ],
            Report::Prediction {
                lesson,
                id,
                step,
                answer,
                value,
                choice,
                correct,
                ..
            } => vec![
                ("lesson", (*lesson).into()),
                ("id", id.as_str().into()),
                ("step", (*step).into()),
                ("answer", (*answer).into()),
                ("value", picked(value)),
                ("choice", choice.as_str().into()),
                ("correct", (*correct).into()),
            ],
            Report::Quiz {
                lesson,
                seed,
                attempt,
                score,
                total,
                mastered,
                questions,
            } => vec![
                ("lesson", (*lesson).into()),
                ("id", (*lesson).into()),
                ("seed", seed.to_string().into()),
                ("attempt", (*attempt).into()),
                ("score", (*score).into()),
                ("total", (*total).into()),
                ("mastered", (*mastered).into()),
                ("questions", questions.iter().map(answered).collect()),
            ],
            Report::Summary {
                id,
                steps,
                asked,
                right,
                answers,
            } => vec![
                ("lesson", OWN.into()),
                ("id", id.as_str().into()),
                ("steps", (*steps).into()),
                ("asked", (*asked).into()),
                ("right", (*right).into()),
                ("answers", answers.iter().map(own_answer).collect()),
            ],
        };
        if let Report::Start {
            seed: Some(seed), ..
        } = self
        {
            fields.push(("seed", seed.to_string().into()));
        }
        let steps = match self {
            Report::Start { steps, .. }
            | Report::Step { steps, .. }
            | Report::Prediction { steps, .. } => *steps,
            _ => None,
        };
        fields.extend(steps.map(|n| ("steps", n.into())));
        fields
    }
}

fn picked(value: &Picked) -> Value {
    match value {
        Picked::Count(n) => (*n).into(),
        Picked::Words(words) => words.as_str().into(),
    }
}

fn answered(question: &Answered) -> Value {
    let form = if question.keys.is_some() {
        "choice"
    } else {
        "number"
    };
    let mut entry = vec![
        ("kind", question.kind.into()),
        ("form", form.into()),
        ("answer", question.answer.into()),
        ("right", question.right.into()),
        ("correct", question.correct.into()),
    ];
    if let Some((given, right)) = &question.keys {
        entry.push(("answer_keys", given.as_str().into()));
        entry.push(("right_keys", right.as_str().into()));
    }
    object(entry)
}

fn own_answer(answer: &OwnAnswer) -> Value {
    object(vec![
        ("step", answer.step.into()),
        ("answer", answer.answer.into()),
        ("value", answer.value.into()),
        ("correct", answer.correct.into()),
    ])
}

/// A message's values: the few JSON shapes the protocol uses, written compactly with each
/// object's keys in byte order, as serde_json writes its (sorted) maps. A small writer, not
/// serde: the page's wasm carries it for these messages alone.
enum Value {
    Number(u64),
    Text(String),
    Flag(bool),
    List(Vec<Value>),
    /// Sorted by key, each key once (`object`).
    Object(Vec<(&'static str, Value)>),
}

/// An object of `pairs`; of a key given twice, the later value stays.
fn object(pairs: Vec<(&'static str, Value)>) -> Value {
    let mut sorted: Vec<(&'static str, Value)> = Vec::with_capacity(pairs.len());
    for (key, value) in pairs {
        let at = sorted.iter().position(|(k, _)| *k >= key);
        match at {
            Some(at) if sorted[at].0 == key => sorted[at].1 = value,
            Some(at) => sorted.insert(at, (key, value)),
            None => sorted.push((key, value)),
        }
    }
    Value::Object(sorted)
}

impl Value {
    fn text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Value::Number(n) => out.push_str(&n.to_string()),
            Value::Text(text) => idemlab_core::json::string(out, text),
            Value::Flag(flag) => out.push_str(if *flag { "true" } else { "false" }),
            Value::List(items) => {
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Value::Object(pairs) => {
                out.push('{');
                for (n, (key, value)) in pairs.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    idemlab_core::json::string(out, key);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

impl From<u32> for Value {
    fn from(n: u32) -> Value {
        Value::Number(n.into())
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Number(n as u64)
    }
}

impl From<bool> for Value {
    fn from(flag: bool) -> Value {
        Value::Flag(flag)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_string())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Text(text)
    }
}

impl FromIterator<Value> for Value {
    fn from_iter<I: IntoIterator<Item = Value>>(items: I) -> Value {
        Value::List(items.into_iter().collect())
    }
}

/// What the page has reported so far, for what it reports next: the starts, counted by id,
/// and the own steps' answers, for the sequence's summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reported {
    /// (what, id, attempts): a row per lesson, check and own sequence begun on this page.
    starts: Vec<(Started, String, u32)>,
    own: Vec<OwnAnswer>,
}

impl Reported {
    /// Counts one more start of `id` and returns its attempt number (1 for the first).
    fn start(&mut self, what: Started, id: &str) -> u32 {
        let row = self
            .starts
            .iter_mut()
            .find(|r| (r.0, r.1.as_str()) == (what, id));
        match row {
            Some(row) => {
                row.2 += 1;
                row.2
            }
            None => {
                // Bounded: three lessons, their checks and the sequences a page's links hold.
                debug_assert!(self.starts.len() < 64, "a start row per id");
                self.starts.push((what, id.to_string(), 1));
                1
            }
        }
    }

    fn attempt(&self, what: Started, id: &str) -> u32 {
        let row = self
            .starts
            .iter()
            .find(|r| (r.0, r.1.as_str()) == (what, id));
        row.map_or(1, |r| r.2)
    }
}

/// What a report is decided from, read before `update` and compared with the state after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    /// The step on screen (lesson id or `OWN`, 0-based index), none while a check is open.
    step: Option<(&'static str, usize)>,
    /// The lesson the page is in (its steps or its check).
    lesson: Option<&'static str>,
    /// The open check.
    check: Option<(&'static str, u64)>,
    /// The own sequence's id, while one of its steps is open.
    own: Option<String>,
    /// The own sequence's last step is open and answered (or asks nothing).
    own_done: bool,
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
    let own = own_open(state);
    Marks {
        step: (step.map(|at| (at.lesson.id, at.index()))).or(own.map(|index| (OWN, index))),
        lesson: state.lesson.map(|at| at.lesson.id),
        check: (state.quiz.as_ref()).map(|s| (s.quiz.lesson, s.quiz.seed)),
        own: own.and(state.page.steps.as_deref()).map(sequence_id),
        own_done: own.is_some_and(|index| own_done(state, index)),
        predictions: state.predictions.len(),
        own_answers: state.own_choices.len(),
        finished,
    }
}

/// The own step on screen: `steps=` with no lesson open.
fn own_open(state: &State) -> Option<usize> {
    let no_lesson = state.lesson.is_none() && state.page.steps.is_some();
    state.own_step.filter(|_| no_lesson)
}

/// The sequence's last step is open and its question answered, or it asks none (when the
/// page's own line says "Last step: …").
fn own_done(state: &State, index: usize) -> bool {
    let Some(steps) = state.page.steps.as_deref() else {
        return false;
    };
    let asks = steps.get(index).is_some_and(|s| s.ask.is_some());
    let answered = state.own_choices.iter().any(|c| c.0 == index);
    index + 1 == steps.len() && (!asks || answered)
}

/// An own sequence's id, from its content (`own-` and 8 hex digits of an FNV-1a hash of its
/// `steps=` text), so two sequences on one course page are told apart and a sequence keeps its
/// id wherever it is framed.
pub fn sequence_id(steps: &[crate::steps::OwnStep]) -> String {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in crate::steps::write(steps).bytes() {
        hash = (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193);
    }
    format!("own-{hash:08x}")
}

/// The messages the change from `before` to `state` sends, with `report=` only: what began,
/// a check finished, a prediction answered, a sequence's summary, another step on screen.
pub fn decide(before: &Marks, state: &mut State) -> Vec<Report> {
    if !state.page.report {
        return Vec::new();
    }
    let now = marks(state);
    let mut reports = starts(before, &now, state);
    reports.extend(finished(before, &now, state));
    if now.predictions > before.predictions {
        reports.extend(lesson_prediction(state));
    }
    if now.own_answers > before.own_answers {
        if let Some(report) = own_prediction(state, now.own.clone().unwrap_or_default()) {
            reports.push(report);
        }
    }
    if let (Some(id), true) = (&now.own, now.own_done && !before.own_done) {
        reports.push(summary(state, id.clone()));
    }
    if let Some((lesson, index)) = now.step.filter(|_| now.step != before.step) {
        let id = match lesson {
            OWN => now.own.clone().unwrap_or_default(),
            lesson => lesson.to_string(),
        };
        reports.push(Report::Step {
            lesson,
            id,
            step: index + 1,
            steps: own_steps(state, lesson),
        });
    }
    reports
}

/// `idemlab:start` for a lesson, a check and an own sequence the page came to.
fn starts(before: &Marks, now: &Marks, state: &mut State) -> Vec<Report> {
    let mut reports = Vec::new();
    let steps = state.page.steps.as_ref().map(Vec::len);
    let reported = &mut state.reported;
    let mut start = |what, id: &str, seed, steps| Report::Start {
        what,
        id: id.to_string(),
        attempt: reported.start(what, id),
        seed,
        steps,
    };
    if let Some(lesson) = now.lesson.filter(|_| now.lesson != before.lesson) {
        reports.push(start(Started::Lesson, lesson, None, None));
    }
    if let Some((lesson, seed)) = now.check.filter(|_| now.check != before.check) {
        reports.push(start(Started::Check, lesson, Some(seed), None));
    }
    if let Some(id) = now.own.as_ref().filter(|_| now.own != before.own) {
        reports.push(start(Started::Own, id, None, steps));
    }
    reports
}

/// `idemlab:quiz`, when the open check's last answer was just locked.
fn finished(before: &Marks, now: &Marks, state: &State) -> Option<Report> {
    let session = state.quiz.as_ref()?;
    now.finished.filter(|_| now.finished != before.finished)?;
    let score = quiz::grade(&session.quiz, &session.answers);
    let given = session.quiz.questions.iter().zip(&session.answers);
    let questions = given.filter_map(|(question, answer)| {
        let answer = (*answer)?;
        let keys = match &question.form {
            Form::Choices(choices) => {
                let keys = |i: u32| (choices.get(i as usize)).map_or("", |c| c.keys.as_str());
                Some((keys(answer).to_string(), keys(question.answer).to_string()))
            }
            Form::Number => None,
        };
        Some(Answered {
            kind: question.kind.name(),
            answer,
            right: question.answer,
            keys,
            correct: question.is_right(answer),
        })
    });
    Some(Report::Quiz {
        lesson: session.quiz.lesson,
        seed: session.quiz.seed,
        attempt: state.reported.attempt(Started::Check, session.quiz.lesson),
        score: score.right,
        total: score.total,
        mastered: score.mastered,
        questions: questions.collect(),
    })
}

fn lesson_prediction(state: &State) -> Option<Report> {
    let &((lesson, index), answer) = state.predictions.last()?;
    let predict = &Lesson::by_id(lesson)?.steps.get(index)?.predict;
    let value = predict.choices().get(answer.choice)?.clone();
    let value = value.parse().map_or(Picked::Words(value), Picked::Count);
    Some(Report::Prediction {
        lesson,
        id: lesson.to_string(),
        step: index + 1,
        answer: answer.choice,
        value,
        choice: predict.choices_shown().get(answer.choice)?.clone(),
        correct: answer.is_right(),
        steps: None,
    })
}

fn own_prediction(state: &mut State, id: String) -> Option<Report> {
    let (step, answer, value, correct) = super::own::last_answer(state)?;
    state.reported.own.retain(|a| a.step != step + 1);
    state.reported.own.push(OwnAnswer {
        step: step + 1,
        answer,
        value,
        correct,
    });
    Some(Report::Prediction {
        lesson: OWN,
        id,
        step: step + 1,
        answer,
        value: Picked::Count(value),
        choice: value.to_string(),
        correct,
        steps: own_steps(state, OWN),
    })
}

fn summary(state: &State, id: String) -> Report {
    let steps = state.page.steps.as_deref().unwrap_or_default();
    let mut answers = state.reported.own.clone();
    answers.sort_by_key(|a| a.step);
    Report::Summary {
        id,
        steps: steps.len(),
        asked: steps.iter().filter(|s| s.ask.is_some()).count(),
        right: (state.own_choices.iter()).filter(|c| c.2).count(),
        answers,
    }
}

/// The length of an instructor's own sequence, for a report about one of its steps.
fn own_steps(state: &State, lesson: &str) -> Option<usize> {
    (lesson == OWN).then(|| state.page.steps.as_ref().map(Vec::len))?
}

/// The `lesson` an instructor's own steps report as.
pub const OWN: &str = "own";

/// What a link reports as it loads: what it begins and the step it opens (a finished check
/// is not sent again).
pub fn on_load(state: &mut State) -> Vec<Report> {
    let now = marks(state);
    let before = Marks {
        step: None,
        lesson: None,
        check: None,
        own: None,
        own_done: false,
        ..now
    };
    decide(&before, state)
}

/// The view a report ran: the page's canonical query without where the learner looks (the
/// cursor and the zoom), so it changes only with what the page runs and shows.
pub fn view(state: &State) -> String {
    let mut page = state.page.clone();
    (page.cursor, page.zoom) = (None, None);
    page.to_query(&state.opens())
}

/// The origin the page posts to: `report=ORIGIN`'s; else, with `report=parent`, the course
/// page's, read from `referrer` (the parent's address, or its origin under the default
/// referrer policy), or `"*"` when it sent none.
pub fn target_origin(state: &State, referrer: &str) -> String {
    match &state.page.report_origin {
        Some(origin) => origin.clone(),
        None => origin_of(referrer).unwrap_or("*").to_string(),
    }
}

/// `idemlab:height`, the frame's content height for sizing, to `target_origin` when
/// `report=ORIGIN` names one and to any otherwise (a height is no secret).
pub fn height_json(height_px: u32) -> String {
    let message = vec![
        ("type", super::HEIGHT_MESSAGE.into()),
        ("v", VERSION.into()),
        ("height", height_px.into()),
    ];
    object(message).text()
}

/// The same height as Canvas's `lti.frameResize`, which Canvas reads to size an LTI frame
/// (`{subject, height}`); other hosts ignore a message without an `idemlab:` type.
pub fn frame_resize_json(height_px: u32) -> String {
    let message = vec![
        ("subject", "lti.frameResize".into()),
        ("height", height_px.into()),
    ];
    object(message).text()
}

/// The origin at the start of an http(s) address: `https://host[:port]`, or none for another
/// scheme, a user name or an empty host.
pub fn origin_of(url: &str) -> Option<&str> {
    let rest = (url.strip_prefix("https://")).or_else(|| url.strip_prefix("http://"))?;
    let host_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..host_len];
    let (name, port) = match host.rsplit_once(':').filter(|_| !host.ends_with(']')) {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    };
    let name_ok = match name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        Some(ipv6) => !ipv6.is_empty() && ipv6.chars().all(|c| c.is_ascii_hexdigit() || c == ':'),
        None => {
            let label = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
            !name.is_empty() && name.chars().all(label)
        }
    };
    let port_ok = port.is_none_or(|p| (1..=5).contains(&p.len()) && p.parse::<u16>().is_ok());
    (name_ok && port_ok).then(|| &url[..url.len() - rest.len() + host_len])
}
