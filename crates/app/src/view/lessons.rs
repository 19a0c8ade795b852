//! The Lessons tab as the page paints it: the picker's buttons, and the step on screen (its
//! list of steps, heading, text with its pointer phrases and terms, the counts it promises,
//! its exercises and its way on), rebuilt only when the step changes so the calculator keeps
//! what the learner typed; then the outline's status line and the pressed phrase, which follow
//! the state. The step's question is `view::predict`'s, the check `view::quiz`'s.

use super::predict::{step_on_screen, terms_in, text_pieces, TextPiece};
use crate::work::Runs;
use crate::{claim_lines, lesson_button, lesson_open, pointer_status, quiz_status, step_nav};
use crate::{LessonAt, State};
use idemlab_course::lessons::{Side, LESSONS};
use idemlab_course::quiz::progress::Progress;
use idemlab_lab::i18n::tr;

#[derive(Clone, Debug, PartialEq)]
pub struct LessonsFrame {
    pub picker: Vec<PickerButton>,
    pub body: LessonBody,
    /// The outline's status line: "3 charges outlined.", or empty.
    pub pointer_status: String,
    /// The pointer phrase pressed (`aria-pressed`), by its index in the step's pointers.
    pub pressed: Option<usize>,
}

/// A lesson's button in the picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PickerButton {
    pub id: &'static str,
    /// "Lesson A: The lost acknowledgement ✓ mastered".
    pub text: String,
    /// Locked out: a link with locks opens only its own lesson.
    pub disabled: bool,
}

/// What the Lessons tab's article holds.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonBody {
    /// The mastery check replaces the step and its list.
    Quiz,
    /// No lesson open: "Pick a lesson" (`tpl-lesson-none`).
    Pick,
    Step(Box<StepFrame>),
    /// The finale's task (`tpl-build`).
    Build(Box<BuildFrame>),
}

/// The finale's task: the parts in the sandbox, the checklist, and the result once done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildFrame {
    /// The client, then each part.
    pub parts: Vec<BuildPart>,
    pub stages: Vec<BuildStage>,
    /// "3 of 5 done."
    pub status: String,
    /// Every stage done: the result's link, as a query (A the run with the duplicate, B with
    /// the fix), which `idemlab run` reproduces.
    pub result: Option<String>,
}

/// A part of the task's sandbox: in it ("✓ the API"), or a button to add it ("Add the API").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildPart {
    /// Its name in `build=` (`data-part`).
    pub name: &'static str,
    pub text: String,
    pub added: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildStage {
    pub task: &'static str,
    pub done: bool,
    /// What is missing, while not done.
    pub missing: String,
}

/// The step on screen: a function of the step (and the mastery status on the last one).
#[derive(Clone, Debug, PartialEq)]
pub struct StepFrame {
    pub steps: Vec<StepButton>,
    /// "Step 2 of 5: A key the server ignores".
    pub heading: String,
    /// The step's text, its terms numbered after the question's.
    pub text: Vec<TextPiece>,
    /// The hint that some phrases are buttons: only when the step has some.
    pub pointer_hint: bool,
    pub claims: Vec<ClaimItem>,
    /// What B's fix protects and does not (`[data-boundary]`), where B applies a fix.
    pub boundary: Option<String>,
    pub calculator: bool,
    pub classify: bool,
    pub ordering: bool,
    /// The step "← Previous step" opens, if any.
    pub previous: Option<usize>,
    /// The step "Next step →" opens; none on the last step, which offers the check instead.
    pub next: Option<usize>,
    /// The last step's "Mastery check: Not taken yet: …", which says the check is offered.
    pub mastery: Option<String>,
    /// The finale's task is offered: on Lesson A's last step, as in the source lesson.
    pub build: bool,
}

/// A step's button in the list: its number, with its title as the tooltip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepButton {
    pub title: &'static str,
    /// "Step 2: A key the server ignores".
    pub tooltip: String,
    /// The step on screen (`aria-current="step"`).
    pub current: bool,
}

/// A count the step promises: `data-metric`, `data-side` and its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimItem {
    pub metric: &'static str,
    pub side: &'static str,
    pub text: String,
}

/// `progress` is this browser's record, for the picker's marks and the mastery status.
pub fn view(state: &State, runs: &Runs, progress: &Progress) -> LessonsFrame {
    let picker = (LESSONS.iter())
        .map(|lesson| PickerButton {
            id: lesson.id,
            text: lesson_button(progress, lesson),
            disabled: !lesson_open(state, lesson.id),
        })
        .collect();
    let body = match (state.quiz.is_some(), state.lesson) {
        (true, _) => LessonBody::Quiz,
        (false, None) if state.build.is_some() => {
            LessonBody::Build(Box::new(build_frame(state, runs)))
        }
        (false, None) => LessonBody::Pick,
        (false, Some(at)) => {
            let locked = state.page.controls.is_some();
            LessonBody::Step(Box::new(step_frame(at, progress, locked)))
        }
    };
    let pointers = step_on_screen(state).map_or(&[][..], |step| step.pointers);
    let pressed = (pointers.iter()).position(|p| Some((p.side, p.find)) == state.highlight);
    let b = runs.b.as_ref().map(|b| &b.timeline);
    LessonsFrame {
        picker,
        body,
        pointer_status: pointer_status(state, &runs.a.timeline, b).unwrap_or_default(),
        pressed,
    }
}

fn build_frame(state: &State, runs: &Runs) -> BuildFrame {
    use idemlab_course::build::{stages, Part};
    let build = state.build.as_ref().expect("the task is open");
    let part = |name, label: &str, added| BuildPart {
        name,
        text: match added {
            true => idemlab_lab::tf!("✓ {}", label),
            false => idemlab_lab::tf!("Add {}", label),
        },
        added,
    };
    let client = part("client", idemlab_lab::t!("the client"), true);
    let parts = Part::ALL.map(|p| part(p.name(), p.label(), build.parts.has(p)));
    let (first, now) = crate::build::runs(build, runs);
    let stages: Vec<BuildStage> = stages(build.parts, first, now)
        .into_iter()
        .map(|stage| BuildStage {
            task: stage.task,
            done: stage.missing.is_none(),
            missing: stage.missing.unwrap_or_default(),
        })
        .collect();
    let done = stages.iter().filter(|stage| stage.done).count();
    let result = (done == stages.len())
        .then(|| first.map(|first| crate::build::result_query(state, first.scenario, now.scenario)))
        .flatten();
    BuildFrame {
        parts: std::iter::once(client).chain(parts).collect(),
        status: idemlab_lab::tf!("{} of {} done.", done, stages.len()),
        stages,
        result,
    }
}

/// A step's frame; `locked` (`controls=`) leaves out the build task, which needs the controls.
fn step_frame(at: LessonAt, progress: &Progress, locked: bool) -> StepFrame {
    let (lesson, index) = (at.lesson, at.index());
    let step = at.step();
    let steps = (lesson.steps.iter().enumerate())
        .map(|(i, step)| StepButton {
            title: tr(step.title),
            // In the lesson's column the list shows step numbers only; the title is the tooltip.
            tooltip: idemlab_lab::tf!("Step {}: {}", i + 1, tr(step.title)),
            current: i == index,
        })
        .collect();
    let heading = idemlab_lab::tf!(
        "Step {} of {}: {}",
        index + 1,
        lesson.steps.len(),
        tr(step.title)
    );
    // The question's setup comes first on the page and numbers its terms first.
    let setup_terms = terms_in(&text_pieces(tr(step.predict.setup), &[], 0));
    let claims = (claim_lines(step).into_iter())
        .map(|line| ClaimItem {
            metric: line.metric.name(),
            side: if line.side == Side::B { "b" } else { "a" },
            text: line.text,
        })
        .collect();
    let to = step_nav(lesson.steps.len(), index);
    let mastery =
        (to.last).then(|| idemlab_lab::tf!("Mastery check: {}", quiz_status(progress, lesson.id)));
    StepFrame {
        steps,
        heading,
        text: text_pieces(tr(step.text), step.pointers, setup_terms),
        pointer_hint: !step.pointers.is_empty(),
        claims,
        boundary: step.boundary.map(|b| {
            idemlab_lab::tf!(
                "Protects: {}. Does not protect: {}.",
                tr(b.protects),
                tr(b.not)
            )
        }),
        calculator: step.calculator,
        classify: step.classify,
        ordering: step.has_ordering_exercise(),
        previous: to.previous,
        next: to.next,
        mastery,
        build: to.last && lesson.id == LESSONS[0].id && !locked,
    }
}

/// The key-storage calculator's result for the three fields as typed: "= 864 GB held at any
/// moment", or what to type when one is not a whole number.
pub fn calculator_out(rate: &str, hours: &str, bytes: &str) -> String {
    let read = |text: &str| text.trim().parse::<u64>().ok();
    match (read(rate), read(hours), read(bytes)) {
        (Some(rate), Some(hours), Some(bytes)) => {
            let retention_s = hours.saturating_mul(3_600);
            let total = idemlab_course::lessons::key_storage_bytes(rate, retention_s, bytes);
            idemlab_lab::tf!(
                "= {} held at any moment",
                idemlab_course::lessons::bytes_text(total)
            )
        }
        _ => idemlab_lab::t!("Enter whole numbers, 0 or more.").to_string(),
    }
}

/// Whether the outlined timeline, whose box spans `top_px` to `bottom_px` of a window
/// `height_px` tall, is scrolled into view, and then whether its top meets the window's (it
/// lies above) rather than its bottom: `None` while all of it is on screen.
pub fn timeline_scroll(top_px: f64, bottom_px: f64, height_px: f64) -> Option<bool> {
    (top_px < 0.0 || bottom_px > height_px).then_some(top_px < 0.0)
}
