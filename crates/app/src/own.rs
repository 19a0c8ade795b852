//! An instructor's own steps (`steps=`, `crate::steps`): which one is open, opening another,
//! and what its box says. The caption is the instructor's text, shown as text under a heading
//! that says whose it is, above the runs; the banner (the lab's own warnings) stays above it.

use super::{Effects, State, UrlWrite};
use crate::steps::{self, OwnStep};
use idemlab_lab::Side;
use idemlab_lab::{Metric, Metrics};

/// What a learner does in an instructor's own steps, and what the Embed dialog's composer does.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Open own step N (`steps=`).
    Open(usize),
    /// The learner picks choice N of the open own step's question.
    Answer(usize),
    /// Adds the view on screen as a step of the sequence being composed: its caption, the
    /// count it asks (`ask` empty for none) and the question's words (`words` empty for the
    /// lab's own), as typed. It states no counts: the page reads them from the run.
    Add {
        caption: String,
        ask: String,
        words: String,
    },
    /// Removes step N of the sequence being composed.
    Remove(usize),
    Clear,
}

pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::Open(index) => open(state, index),
        Msg::Answer(choice) => answer(state, choice),
        Msg::Add {
            caption,
            ask,
            words,
        } => compose_add(state, &caption, &ask, &words),
        Msg::Remove(index) => compose_remove(state, Some(index)),
        Msg::Clear => compose_remove(state, None),
    }
}

/// What the instructor's step box shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnStepView {
    pub heading: String,
    pub caption: String,
    /// The counts the step states, one line each ("Run B: Duplicates 0").
    pub checks: Vec<String>,
    pub previous: bool,
    pub next: bool,
    /// The step's question, once its runs have given the answer.
    pub question: Option<OwnQuestionView>,
    /// Why the counts and question are hidden, when the runs on screen are not the step's own
    /// (a link whose `step=` was changed by hand); "Show this step's runs" reopens it.
    pub not_own: Option<String>,
    /// On the last step, once its question is answered: "Last step: 2 of 3 answered right."
    pub done: Option<String>,
}

/// An own step's question as the page shows it: the same predict-then-reveal as a lesson's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnQuestionView {
    /// "How many charges will run A end with?"
    pub text: String,
    pub choices: Vec<String>,
    /// The learner's choice, once given.
    pub chosen: Option<usize>,
    /// "Right: 5." or "Not quite: you chose 3; the simulator's answer is 5.", once answered.
    pub feedback: Option<String>,
}

impl State {
    /// The open own step, when runs A and B are its own scenario and compare.
    fn own_open(&self) -> Option<(usize, &OwnStep)> {
        let index = self
            .own_step
            .filter(|_| self.lesson.is_none() && self.quiz.is_none())?;
        let step = self.page.steps.as_ref()?.get(index)?;
        let own = self.page.scenario == step.scenario && self.page.compare == step.compare;
        own.then_some((index, step))
    }

    /// The open own step's question, its answer and choices, when its runs have given them.
    fn own_asking(&self) -> Option<(usize, &OwnStep, u32, [u32; steps::CHOICES])> {
        let (index, step) = self.own_open()?;
        step.ask.as_ref()?;
        let (at, value, choices) = self.own_answer?;
        (at == index).then_some((index, step, value, choices))
    }

    /// The learner's choice for own step `index`, if given this session.
    fn own_chosen(&self, index: usize) -> Option<usize> {
        (self.own_choices.iter()).find_map(|&(at, choice, _)| (at == index).then_some(choice))
    }

    /// The open own step waits for its question's answer, as a lesson step does.
    pub(super) fn own_awaiting(&self) -> bool {
        self.own_asking()
            .is_some_and(|(index, ..)| self.own_chosen(index).is_none())
    }
}

pub fn own_step_view(state: &State) -> Option<OwnStepView> {
    let (steps, index) = (state.page.steps.as_ref()?, state.own_step?);
    let step = steps.get(index)?;
    // Counts stated of other runs than those on screen would contradict the counters.
    let own = state.page.scenario == step.scenario && state.page.compare == step.compare;
    let not_own = (!own).then(|| {
        idemlab_lab::t!(
            "The runs on screen are not this step's own, so its counts and question are hidden."
        )
        .to_string()
    });
    // The stated counts wait with the question: one of them may be its answer.
    let held = state.own_awaiting() || !own;
    let checks = step.checks.iter().filter(|_| !held).map(|c| {
        let label = super::counter_label(c.metric, &step.scenario);
        idemlab_lab::tf!("Run {}: {} {}", c.side.letter(), label, c.count)
    });
    Some(OwnStepView {
        heading: idemlab_lab::tf!("Your instructor's step {} of {}", index + 1, steps.len()),
        caption: step.caption.clone(),
        checks: checks.collect(),
        previous: index > 0,
        next: index + 1 < steps.len(),
        question: question_view(state),
        not_own,
        done: done_line(state, steps, index),
    })
}

/// "Last step: 2 of 3 answered right.": on the last step once its question is answered (or,
/// when it asks none, once it is open), out of every question the sequence asks.
fn done_line(state: &State, steps: &[OwnStep], index: usize) -> Option<String> {
    let asked = steps.iter().filter(|s| s.ask.is_some()).count();
    let last = index + 1 == steps.len() && state.own_open().is_some();
    let answered = steps[index].ask.is_none() || state.own_chosen(index).is_some();
    if !(last && answered && asked > 0) {
        return None;
    }
    let right = (state.own_choices.iter()).filter(|c| c.2).count();
    Some(idemlab_lab::tf!(
        "Last step: {} of {} answered right.",
        right,
        asked
    ))
}

fn question_view(state: &State) -> Option<OwnQuestionView> {
    let (index, step, value, choices) = state.own_asking()?;
    let q = step.ask.as_ref()?;
    let side = q.side.letter();
    let chosen = state.own_chosen(index);
    let feedback = chosen.map(|c| match choices[c] == value {
        true => idemlab_lab::tf!("Right: {}. Run {}'s counters show it.", value, side),
        false => idemlab_lab::tf!(
            "Not quite: you chose {}; the simulator's answer is {}. Run {}'s counters show it.",
            choices[c],
            value,
            side
        ),
    });
    let text = q.text.clone().unwrap_or_else(|| {
        idemlab_lab::tf!(
            "Before the run shows: what will run {}'s count of {} be at its end?",
            side,
            asked_count(q.metric, &step.scenario)
        )
    });
    Some(OwnQuestionView {
        text,
        choices: choices.iter().map(u32::to_string).collect(),
        chosen,
        feedback,
    })
}

/// The runs finished: when they are the open own step's, its question's answer is read off
/// them (the simulator's count, never one the instructor typed), and its choices (some of
/// them the counts a wrong model of these runs gives).
pub(super) fn measured(state: &mut State, a: &Metrics, b: Option<&Metrics>) {
    let answer = state.own_open().and_then(|(index, step)| {
        let (value, choices) = step.question(a, b)?;
        Some((index, value, choices))
    });
    state.own_answer = answer;
}

/// The last own-step answer given: (step, choice, the count it shows, whether it is right).
pub(super) fn last_answer(state: &State) -> Option<(usize, usize, u32, bool)> {
    let &(index, choice, right) = state.own_choices.last()?;
    let (at, _, choices) = state.own_answer?;
    (at == index).then(|| (index, choice, choices[choice], right))
}

/// The learner answers the open own step's question: once per step, then the run shows.
pub fn answer(state: &mut State, choice: usize) -> Effects {
    let Some((index, _, value, choices)) = state.own_asking() else {
        return Effects::default();
    };
    if state.own_chosen(index).is_some() || choice >= crate::steps::CHOICES {
        return Effects::default();
    }
    let right = choices[choice] == value;
    state.own_choices.push((index, choice, right));
    state.playing = false;
    state.page.cursor = None;
    Effects {
        render: true,
        url: Some(UrlWrite::Replace),
        ..Effects::default()
    }
}

/// Opens step `index` of the instructor's sequence: its scenario and compare.
pub fn open(state: &mut State, index: usize) -> Effects {
    let Some(step) = state
        .page
        .steps
        .as_ref()
        .and_then(|s| s.get(index))
        .cloned()
    else {
        return Effects::default();
    };
    state.page.scenario = step.scenario;
    state.page.compare = step.compare;
    state.own_step = Some(index);
    state.errors.clear();
    state.scenario_changed();
    Effects::scenario()
}

/// A count as a question names it, in lower case: the counter's label, but "lost orders"
/// for the card's "Lost work", since what is lost is an order the client was told went
/// through.
fn asked_count(metric: Metric, scenario: &idemlab_core::scenario::Scenario) -> String {
    match metric {
        Metric::Lost => idemlab_lab::t!("lost orders").to_string(),
        // ASCII: Unicode lower-casing would bring its case tables into the page (clippy.toml).
        _ => super::counter_label(metric, scenario).to_ascii_lowercase(),
    }
}

/// The lab's question for `ask=` of a step of `scenario`, as the composer's menu words it.
fn ask_words(side: Side, metric: Metric, scenario: &idemlab_core::scenario::Scenario) -> String {
    idemlab_lab::tf!(
        "How many {} in run {}?",
        asked_count(metric, scenario),
        side.letter()
    )
}

/// The composer's question menu: none, then each count it may ask of A (and of B when
/// comparing), as `(value of ask=, label)`.
pub fn compose_ask_choices(state: &State) -> Vec<(String, String)> {
    let mut out = vec![(String::new(), idemlab_lab::t!("No question").to_string())];
    let scenario = &state.page.scenario;
    let sides: &[Side] = match state.page.compare {
        Some(_) => &Side::ALL,
        None => &[Side::A],
    };
    let asked = [
        Metric::Effects,
        Metric::Duplicates,
        Metric::Lost,
        Metric::Races,
    ];
    for &side in sides {
        for metric in asked {
            out.push((
                format!("{}{}", side.prefix(), metric.name()),
                ask_words(side, metric, scenario),
            ));
        }
    }
    out
}

/// Adds the view on screen (its scenario and compare) as the next step of the sequence being
/// composed. A bad caption or question, or a full sequence, is refused with why. It writes no
/// `check=`: the address would hand the learner the counts (a printed handout shows it), and
/// the step's counters show them from the run once answered.
pub fn compose_add(state: &mut State, caption: &str, ask: &str, words: &str) -> Effects {
    let step = (|| {
        if state.compose.len() >= steps::STEPS_MAX {
            return Err(idemlab_lab::tf!("at most {} steps", steps::STEPS_MAX));
        }
        let caption = steps::parse_caption(caption.trim())?;
        let mut ask = match ask {
            "" => None,
            name => Some(steps::parse_question(name)?),
        };
        if state.page.compare.is_none() && ask.as_ref().is_some_and(|q| q.side == Side::B) {
            return Err(idemlab_lab::t!("a question about B needs a compare").to_string());
        }
        match (&mut ask, words.trim()) {
            (_, "") => {}
            (Some(q), words) => q.text = Some(steps::parse_question_text(words)?),
            (None, _) => {
                return Err(idemlab_lab::t!(
                    "your question's words need a count to ask: pick one under Question"
                )
                .to_string())
            }
        }
        Ok(OwnStep {
            scenario: state.page.scenario.clone(),
            compare: state.page.compare.clone(),
            caption,
            checks: Vec::new(),
            ask,
        })
    })();
    let step = step.and_then(|step| {
        let mut steps = state.compose.clone();
        steps.push(step.clone());
        match snippet_fits(state, steps) {
            true => Ok(step),
            false => Err(idemlab_lab::tf!(
                "with this step the snippet's link would be longer than the {} bytes a link may have; shorten the caption",
                crate::page::WRITTEN_LEN_MAX
            )),
        }
    });
    match step {
        Ok(step) => {
            state.compose.push(step);
            state.compose_error = None;
        }
        Err(why) => state.compose_error = Some(why),
    }
    Effects::default()
}

/// Whether the snippet's link (`embed_query`) carries all of `steps` whatever the dialog's
/// other choices: every control open, a fixed height, reporting.
fn snippet_fits(state: &State, steps: Vec<OwnStep>) -> bool {
    let mut page = state.page.clone();
    page.scenario = steps[0].scenario.clone();
    page.compare = steps[0].compare.clone();
    page.steps = Some(steps);
    page.embed = true;
    page.controls = Some(
        idemlab_core::scenario::codec::key_names()
            .map(String::from)
            .collect(),
    );
    page.height = Some(*crate::page::HEIGHT_PX.end());
    page.report = true;
    let mut opens = crate::page::Opens {
        tab: state.tab,
        step: Some(1),
        ..Default::default()
    };
    page.fit(&mut opens).is_empty()
}

/// The sequence being composed, a line per step (the list numbers them): "seed=7&preset=
/// lost-ack · Count the charges · asks: How many charges in run A?", in the words the learner
/// will read.
pub fn compose_lines(state: &State) -> Vec<String> {
    let lines = state.compose.iter().map(|step| {
        let mut line = idemlab_core::scenario::encode(&step.scenario);
        if let Some(compare) = &step.compare {
            line += &format!(" {}", idemlab_lab::tf!("(B: {})", compare));
        }
        if !step.caption.is_empty() {
            line += &format!(" · {}", step.caption);
        }
        if let Some(q) = &step.ask {
            let words =
                (q.text.clone()).unwrap_or_else(|| ask_words(q.side, q.metric, &step.scenario));
            line += &format!(" · {}", idemlab_lab::tf!("asks: {}", words));
        }
        line
    });
    lines.collect()
}

/// Whether a link naming step `index` (past the first) carries exactly step 1's scenario and
/// compare: the snippet writes step 1's keys, so an author who changed only its `step=` by
/// hand meant that step, and it opens with its own runs.
pub(super) fn first_steps_keys(state: &State, index: usize) -> bool {
    let Some(first) = state.page.steps.as_ref().and_then(|s| s.first()) else {
        return false;
    };
    index > 0 && state.page.scenario == first.scenario && state.page.compare == first.compare
}

/// Removes step `index` of the sequence being composed, or every step (`None`); the last
/// refusal's words go with it.
pub(super) fn compose_remove(state: &mut State, index: Option<usize>) -> Effects {
    match index {
        Some(index) if index < state.compose.len() => _ = state.compose.remove(index),
        Some(_) => {}
        None => state.compose.clear(),
    }
    state.compose_error = None;
    Effects::default()
}
