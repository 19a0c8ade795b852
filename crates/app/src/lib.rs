//! The page as a pure state machine: `State` (every fact the page shows), `Msg` (one variant per
//! thing a user, a timer or a finished slice of work can do), `update` (the only place the state
//! changes, returning the `Effects` the browser must carry out) and the view model in `model`.
//! No DOM, no wasm-bindgen, no clock: it compiles and is tested natively (`tests/app.rs`).
//!
//! Rules decided here, each with a test:
//! - A link that names a lesson step and no scenario key opens the step's scenario. A link that
//!   also gives scenario keys (`?dedup=atomic&lesson=a&step=4`) keeps its own scenario, as every
//!   permalink does, and the banner says it is not the step's own.
//! - A scenario change pushes a history entry (Back undoes one); a view change (cursor, zoom,
//!   tab, speed) replaces the current one.
//! - A lesson step asks its prediction before its run plays (`predict`): until it is answered
//!   the counters are hidden, the cursor stays on the first event and "Next step" is held,
//!   unless the link says `gate=0`. Answers stay for the session, Back included.

pub mod first;
pub mod job;
pub mod page;
pub mod steps;
pub mod view;
pub mod work;

mod access;
pub mod build;
mod classify;
mod computing;
mod contracts;
mod free;
mod input;
mod keys;
mod lesson;
mod locks;
mod model;
mod own;
mod playback;
mod predict;
mod quiz;
mod report;
mod scenario;
mod screen;
mod speak;
mod sweep;
mod text;

pub use classify::Msg as ClassifyMsg;
pub use classify::{classify_items, classify_said, classify_score, Answers, ClassifyItem};
pub use computing::Computing;
pub use contracts::Msg as ContractsMsg;
pub use contracts::{compare_for, overrides, preset_replaced};
pub use contracts::{
    contracts_view, differing, ContractRow, ContractsJob, ContractsView, CONTRACT_COLUMNS,
};
pub use free::{compare_text, proposed_change, start_hint};
pub use input::{
    break_at, click_mark, mark_select, pan, shortcut, shortcut_said, wheel_zoom, zoom_about,
    KeyTarget, Shortcut, DRAG_MIN_PX,
};
pub use lesson::{move_step, Msg as LessonMsg};
pub use own::Msg as OwnMsg;
pub use page::Tab;
pub use playback::Msg as PlaybackMsg;
pub use quiz::Msg as QuizMsg;
pub use scenario::{compare_box, Msg as ScenarioMsg};
pub use screen::Msg as ScreenMsg;
pub use sweep::{Msg as SweepMsg, SweepJob, Swept};
pub use view::classify::{ClassifyChoice, ClassifyFrame, ClassifyOp};
pub use view::events::{EventRow, EventsFrame, TabFrame, TableFrame, TablesFrame};
pub use view::lessons::{BuildFrame, BuildPart, BuildStage, ClaimItem, LessonBody, LessonsFrame};
pub use view::lessons::{PickerButton, StepButton, StepFrame};
pub use view::ordering::{OrderItem, OrderingFrame};
pub use view::predict::{
    Asked, ChoiceMark, PredictFrame, PredictShell, TermId, TermList, TextPiece,
};
pub use view::quiz::{QuizChoice, QuizFields, QuizFrame, QuizPanel, QuizQuestion, QuizShows};
pub use view::runs::{CardFrame, RunsFrame, SideFrame};
pub use view::sweep::{BarFrame, SweepFrame};
pub use view::{Frame, Seen};
pub use work::{Budget, Looks, Page, Run, Runs, Stepped, Unbounded};
// What the page paints, a frame per part (`view`): every text, flag and row, decided here.
pub use view::controls::{
    ControlsFrame, ControlsShell, FieldFrame, FieldKind, FieldShell, GroupShell, PresetOption,
};
pub use view::embed::{ComposedStep, EmbedForm, EmbedFrame, EmbedKey, EmbedShell, LooksFrame};
pub use view::keys::{KeyTable, KeysFrame};
pub use view::playback::{tick_ms, PlaybackFrame, PlaybackShell};
pub use view::screen::{DockToggle, OwnQuestionFrame, OwnStepFrame, ScreenFrame};
pub use view::story::{StoryFrame, StoryPanel};
// Keyboard and screen readers: focus, arrows, skip links, what is announced.
pub use access::{
    break_said, grid_break, grid_key, key_target, lesson_skip, skip_to, tab_key, tooltip_follows,
};
pub use input::shortcut_for;
pub use speak::{announce, first_sentence, first_sentences, Heard};
// Instructors: locks that hold, results to the course page.
pub use keys::{key_store, key_store_for, row_text, KeyRowText, KeyStoreView, KEY_ROWS_MAX};
pub use locks::{compare_locked, lesson_open, refusal, refused};
pub use model::{
    claim_lines, compare_sentence, control_view, counters, counts_at_label, embed_query,
    embed_snippet, events_counted, group_hidden, histogram, order_outcome, overlay, pointer_status,
    preset_summary, production_counters, rows_cut_note, step_nav, sweep_formula, sweep_range,
    sweep_summary, tables_at, title, AttemptRow, Banner, Bar, ChargeRow, ControlView, Counter,
    ReceiptRow, SeedRange, StepNav, Tables, HEIGHT_MESSAGE, SWEEP_SEEDS_MAX, TABLE_ROWS_MAX,
    TOOLBAR_KEYS,
};
// The banner's words for a codec error (the CLI keeps `CodecError`'s `Display`).
pub use model::error_text;
pub use own::{compose_ask_choices, compose_lines, own_step_view, OwnQuestionView, OwnStepView};
pub use report::{
    frame_resize_json, height_json, on_load as report_on_load, origin_of, sequence_id,
};
pub use report::{
    target_origin as report_target, view as report_view, Answered, OwnAnswer, Picked, Report,
    Started,
};
// Embedding: the theme a link asks for, what Copy says once the clipboard answered.
pub use model::{
    address_query, copy_view, embed_height, embed_height_error, embed_title, is_theme_media,
    measured_height_px, permalink_query, theme_rules, CopyView, Sizing, WidthClass,
    EMBED_HEIGHT_PX, FRAME_HEIGHT_MAX_PX, HIDDEN_TITLE, THEME_MEDIA, WIDTH_CLASSES,
};
pub use predict::{
    counters_hidden, pieces, predict_view, step_terms, Piece, PredictView, Prediction, StepAnswer,
    HOLD_HINT,
};
pub use quiz::{
    hidden_note, lesson_button, quiz_status, run_hidden, AnswerInput, Dot, QuizSession,
    RUN_HIDDEN_NOTE,
};
pub use screen::{
    canvas_label, counter_label, counters_view, focus_on, lane_px, lead, named_metrics,
    outline_scroll_px, outline_span_px, page_layout, plot_width_px, popup_at, status_line,
    step_runs_shown, sweep_note, tables_note, tooltip_left_px, ClaimLine, CountersView, PageLayout,
    DOCK_LANES_PX, FIT_CHROME_PX, LANE_MIN_PX, PLOT_MIN_EMBED_PX, PLOT_MIN_PX, PLOT_MIN_WIDE_PX,
    TOOLTIP_OFFSET_PX, TWO_RUNS_LANES_PX, UNRECORDED_SO_FAR,
};
pub use text::{
    cursor_label, cursor_label_held, cursor_tooltip, mark_tooltip, request_header, row_class,
    sql_line, sql_rows, SQL_ROWS_MAX,
};

use crate::page::{Opens, PageState};
use idemlab_core::scenario::codec::{self, CodecError};
use idemlab_core::scenario::{decode_lenient, Scenario, Step};
use idemlab_course::lessons::{Lesson, Side, LESSONS};
use idemlab_course::quiz::progress::Progress;
use idemlab_lab::view::Find;

/// The lesson open on the Lessons tab, and its step as the link gave it (`step=`, 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LessonAt {
    pub lesson: &'static Lesson,
    pub step: Option<usize>,
}

impl LessonAt {
    /// The step shown, 0-based: the link's, clamped to the lesson, or the first.
    pub fn index(&self) -> usize {
        self.step
            .unwrap_or(1)
            .clamp(1, self.lesson.steps.len())
            .saturating_sub(1)
    }

    pub fn step(&self) -> &'static idemlab_course::lessons::Step {
        &self.lesson.steps[self.index()]
    }
}

/// The ordering exercise's last verdict: its sentence and whether the order was safe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderVerdict {
    pub text: String,
    pub safe: bool,
}

/// Where the banner's lines came from; the heading words them differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorsFrom {
    /// Some of the link did not load.
    Link,
    /// None of it did (too long, or every key refused): the page shows the defaults.
    LinkRefused,
    /// A control's value was refused.
    Control,
}

#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The scenario, compare keys, cursor, zoom and embed settings: the link's keys but what
    /// it opens (`page::Opens`), which the three fields below hold.
    pub page: PageState,
    pub tab: Tab,
    pub lesson: Option<LessonAt>,
    /// The mastery check, while the Lessons tab shows it rather than a step.
    pub quiz: Option<QuizSession>,
    /// The finale's task, while the Lessons tab shows it (`build.rs`).
    pub build: Option<build::Build>,
    /// The marks a lesson phrase outlines, and on which run.
    pub highlight: Option<(Side, Find)>,
    pub playing: bool,
    pub errors: Vec<CodecError>,
    pub errors_from: ErrorsFrom,
    /// A link that named a step and a scenario of its own: which step, so the banner can say.
    pub step_overridden: Option<(&'static Lesson, usize)>,
    /// The ordering exercise's draft; it reaches the scenario only through `Msg::RunOrder`.
    pub draft: [Step; 6],
    pub verdict: Option<OrderVerdict>,
    pub sweep: Option<SweepJob>,
    /// How many events run A has: the cursor's bound, told by `Msg::Built` after each run.
    pub events_a: u32,
    // One screen (layout11): the lesson's column, the controls' drawer, the counters' fold and
    // the run in focus while comparing (`page.focus`; see `screen.rs`).
    /// How many events run B has (0 when not comparing): the cursor's bound when B is in focus.
    pub events_b: u32,
    /// The scenario controls' drawer is open (in a lesson, whose text takes their column).
    pub drawer_open: bool,
    /// The learner undocked the phone's timeline (`PageLayout::dock`), to read what it covered.
    pub undocked: bool,
    /// The key store is open because a step about it opened it, not by the learner's hand: a
    /// later step that is not about it closes it again (else the API's key table stays open
    /// beside a step about the consumer's inbox).
    pub keys_by_step: bool,
    /// "more": every counter shows, not only those the step names.
    pub counters_more: bool,
    /// The classification exercise's answers, kept for the visit (a Back keeps them too).
    pub classify: Answers,
    /// The operation answered last since the step on screen opened: the exercise's score line
    /// speaks its verdict first (`classify_said`).
    pub classify_last: Option<usize>,
    /// Predict, then reveal: the learner's answers this session, by lesson id and step index
    /// (kept across steps, lessons and Back; not stored). At most one per step of every lesson
    /// (17), so a list: a map would add its code to the page.
    pub predictions: Vec<((&'static str, usize), Prediction)>,
    /// The right choice of a step's prediction, read from its own runs (`Msg::Built`).
    pub step_answer: Option<StepAnswer>,
    /// The run being computed in slices, and how far it has got (`None` once both are built).
    pub computing: Option<Computing>,
    /// The page state of the last runs that finished: where Cancel goes back to.
    pub last_ran: Option<Box<PageState>>,
    /// The banner's line about a cancelled run, until the scenario changes again.
    pub cancelled: Option<String>,
    /// Free play (`free.rs`): the page opened bare, and the "Start Lesson A" hint is not
    /// dismissed yet.
    pub start_hint: bool,
    /// The lesson the link opened (or its check's): with locks, the only one that may open.
    pub link_lesson: Option<&'static str>,
    /// `v=` of a link made with another model version: the banner says so until the scenario
    /// changes.
    pub link_version: Option<u32>,
    /// Why the last action was refused (`locks::refusal`), in the banner until the scenario
    /// changes.
    pub lock_note: Option<String>,
    /// The instructor's own step on screen (`steps=`), 0-based.
    pub own_step: Option<usize>,
    /// The open own step's answer to its question and the choices offered, read from its own
    /// runs: (step, count, choices).
    pub own_answer: Option<(usize, u32, [u32; crate::steps::CHOICES])>,
    /// The learner's choice for each own step they answered this session: (step, choice,
    /// whether it was the simulator's count).
    pub own_choices: Vec<(usize, usize, bool)>,
    /// What the page reported to its course page (`report=`): starts counted, own answers.
    pub reported: report::Reported,
    /// The steps an author is composing in the Embed dialog (`own::compose_add`), at most
    /// `steps::STEPS_MAX`; the snippet and its link carry them as `steps=`.
    pub compose: Vec<crate::steps::OwnStep>,
    /// Why the last step could not be added, shown in the dialog until the next try.
    pub compose_error: Option<String>,
    /// What the page's link had to leave out to stay loadable (`PageState::fit`), for the
    /// banner, until the scenario changes.
    pub link_dropped: Vec<page::Dropped>,
    /// The learner turned the single-key shortcuts off (kept with the progress).
    pub shortcuts_off: bool,
    /// The contracts table (Sweep tab), until the scenario changes other than by loading a row.
    pub contracts: Option<ContractsJob>,
    /// The JSON export under way: how much of the trace it has written, in percent.
    pub json_export: Option<u32>,
    /// The last message's compare keys were refused (invalid or locked): the Compare box goes
    /// back to the keys B runs, even while focused (`compare_box`).
    pub compare_refused: bool,
}

/// Everything a user, a timer or a finished piece of work can do to the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A scenario key, the seed, the preset, the compare keys, or the URL under the page.
    Scenario(ScenarioMsg),
    /// The cursor, the speed and the time window.
    Playback(PlaybackMsg),
    OpenTab(Tab),
    /// The drawer, the docked timeline, the counters, the run in focus.
    Screen(ScreenMsg),
    /// A lesson, its steps, its prediction and the ordering exercise.
    Lesson(LessonMsg),
    /// The lesson's mastery check.
    Quiz(QuizMsg),
    Sweep(SweepMsg),
    /// The contracts table of the Sweep tab.
    Contracts(ContractsMsg),
    /// The classification exercise.
    Classify(ClassifyMsg),
    /// The instructor's own steps (`steps=`) and the Embed dialog's composer.
    Own(OwnMsg),
    /// Open or close the key-store panel (`keys=1`).
    ToggleKeyStore,
    /// What a slice of the page's work did (`work::Page::step` sends these, never the browser).
    Work(Box<work::Done>),
    /// Stop computing and go back to the last scenario that finished.
    CancelRun,
    /// Free play: the newcomer's hint is dismissed.
    DismissHint,
    /// The help's setting: single-key shortcuts off (`true`) or on; the browser stores it.
    ShortcutsOff(bool),
    /// Export run A's trace as JSON (a slice at a time, `work`); refused while one is written.
    ExportJson,
}

/// What `Msg::Built` tells the state of the runs just built.
#[derive(Clone, Debug, PartialEq)]
pub struct BuiltRuns {
    pub events_a: u32,
    /// 0 when not comparing.
    pub events_b: u32,
    pub a: idemlab_lab::Metrics,
    pub b: Option<idemlab_lab::Metrics>,
}

/// What the browser must write to the URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UrlWrite {
    /// A new history entry: the scenario changed, so Back should undo it.
    Push,
    /// The same entry, rewritten: only the view changed.
    Replace,
}

/// What to focus after painting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    LessonHeading,
    QuizTitle,
    /// The first control in the drawer, as it opens.
    Drawer,
    /// The button that opens the drawer, as it closes.
    DrawerToggle,
    /// The prediction's feedback, once answered.
    PredictFeedback,
    /// The lesson picker's first button: the lesson closed, and its column (with the button
    /// that closed it) is gone, so that the focus does not fall to the page.
    LessonPicker,
    /// The check's first answer field, after an answer it could not take: the form is drawn
    /// again, and the focus had fallen to the page with the button that sent it.
    QuizAnswer,
}

/// What `update` asks of the browser.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Rerun A and B (the scenario or the compare keys changed).
    pub rerun: bool,
    /// Repaint from the state.
    pub render: bool,
    pub url: Option<UrlWrite>,
    pub focus: Option<Focus>,
    /// Save the quiz session's answers to the progress record.
    pub save_progress: bool,
    /// Schedule the next playback tick.
    pub tick: bool,
    /// Schedule a slice of the page's work (`work`): a sweep, the contracts table or the JSON
    /// export began.
    pub work: bool,
    /// Scroll this timeline into view (an outline was turned on).
    pub show_timeline: Option<Side>,
    /// Scroll this timeline sideways to its outlined marks when they lie outside its box: a
    /// phone's plot is wider than the screen (`outline_scroll_px`).
    pub reveal: Option<Side>,
    /// Repaint only the progress line of a run being computed.
    pub paint_progress: bool,
    /// Post these to the parent frame, in order (`report=` only).
    pub reports: Vec<Report>,
    /// Apply the theme and the embed's classes again (`theme=`, `embed=`, `hide=`, `height=`
    /// changed: Back or Forward reached another link).
    pub restyle: bool,
}

impl Effects {
    fn view() -> Effects {
        Effects {
            render: true,
            url: Some(UrlWrite::Replace),
            ..Effects::default()
        }
    }

    /// Repaint, nothing more.
    fn paint() -> Effects {
        Effects {
            render: true,
            ..Effects::default()
        }
    }

    fn scenario() -> Effects {
        Effects {
            rerun: true,
            render: true,
            url: Some(UrlWrite::Push),
            ..Effects::default()
        }
    }
}

impl Effects {
    /// Both sets of effects: every flag either asks for, and the later of two values.
    pub fn and(self, later: Effects) -> Effects {
        Effects {
            rerun: self.rerun || later.rerun,
            render: self.render || later.render,
            url: later.url.or(self.url),
            focus: later.focus.or(self.focus),
            save_progress: self.save_progress || later.save_progress,
            tick: self.tick || later.tick,
            work: self.work || later.work,
            show_timeline: later.show_timeline.or(self.show_timeline),
            reveal: later.reveal.or(self.reveal),
            paint_progress: self.paint_progress || later.paint_progress,
            reports: [self.reports, later.reports].concat(),
            restyle: self.restyle || later.restyle,
        }
    }
}

impl State {
    /// The page as a link describes it, with this browser's quiz progress.
    pub fn load(query: &str, stored: &Progress) -> State {
        let (page, opens, errors) = PageState::from_query(query);
        // Nothing the link gave loaded: its page is the one an empty link opens.
        let refused =
            !errors.is_empty() && (&page, opens) == (&PageState::default(), Opens::default());
        let version = page.version;
        let (tab, lesson, quiz_seed) = (opens.tab, opens.lesson, opens.quiz);
        let step = opens.step.map(usize::from);
        let mut state = State {
            draft: page.scenario.order,
            page,
            tab,
            lesson: lesson.map(|lesson| LessonAt { lesson, step }),
            quiz: None,
            build: opens.build.map(|parts| build::Build { parts, first: None }),
            highlight: None,
            playing: false,
            errors,
            errors_from: match refused {
                true => ErrorsFrom::LinkRefused,
                false => ErrorsFrom::Link,
            },
            step_overridden: None,
            verdict: None,
            sweep: None,
            events_a: 0,
            events_b: 0,
            drawer_open: false,
            undocked: false,
            keys_by_step: false,
            counters_more: false,
            classify: Answers::default(),
            classify_last: None,
            predictions: Default::default(),
            step_answer: None,
            computing: None,
            last_ran: None,
            cancelled: None,
            start_hint: free::bare(query),
            link_lesson: lesson.map(|l| l.id),
            link_version: None,
            lock_note: None,
            own_step: None,
            own_answer: None,
            own_choices: Vec::new(),
            reported: Default::default(),
            compose: Vec::new(),
            compose_error: None,
            link_dropped: Vec::new(),
            shortcuts_off: stored.shortcuts_off,
            contracts: None,
            compare_refused: false,
            json_export: None,
        };
        state.open_linked(query, quiz_seed, step, stored);
        state.link_lesson = state
            .link_lesson
            .or(state.quiz.as_ref().map(|q| q.quiz.lesson));
        // Opening the step above reset them, as any scenario change does; the link's stand.
        state.page.version = version;
        state.link_version = version.filter(|v| *v != crate::page::MODEL_VERSION);
        state.fit_link();
        state
    }

    /// Opens what the link names: its check, its lesson step (with the step's scenario unless
    /// the link gives its own), or an instructor's step (`steps=`).
    fn open_linked(
        &mut self,
        query: &str,
        quiz_seed: Option<u64>,
        step: Option<usize>,
        stored: &Progress,
    ) {
        match (quiz_seed, self.lesson) {
            (Some(seed), at) => {
                let lesson = at.map_or(&LESSONS[0], |at| at.lesson);
                self.tab = Tab::Lessons;
                self.quiz = Some(QuizSession::draw(lesson, seed, stored));
            }
            (None, Some(at)) if !names_scenario(query) => self.open_step_keeping_errors(at),
            (None, Some(at)) => {
                let own = decode_lenient(at.step().query).0.scenario;
                if own != self.page.scenario {
                    self.step_overridden = Some((at.lesson, at.index()));
                }
            }
            // `steps=` without a lesson: the instructor's step the link names, or the first; its
            // scenario unless the link gives one of its own.
            (None, None) if self.page.steps.is_some() => {
                let index = step.unwrap_or(1).saturating_sub(1);
                let errors = std::mem::take(&mut self.errors);
                match names_scenario(query) && !own::first_steps_keys(self, index) {
                    true => self.own_step = Some(index),
                    false => _ = own::open(self, index),
                }
                self.errors = errors;
            }
            (None, None) => {}
        }
    }

    /// The permalink query: the page's keys, then the lesson, step and quiz.
    pub fn to_query(&self) -> String {
        self.page.to_query(&self.opens())
    }

    /// Leaves out what the page's link cannot hold (`PageState::fit`), so that the page shows
    /// what its link loads, and keeps what it left out for the banner.
    fn fit_link(&mut self) -> Vec<page::Dropped> {
        let dropped = self.page.fit(&mut self.opens());
        if self.page.steps.is_none() {
            (self.own_step, self.own_answer) = (None, None);
        }
        for drop in &dropped {
            self.link_dropped.retain(|had| !same_kind(*had, *drop));
            self.link_dropped.push(*drop);
        }
        dropped
    }

    /// What the link opens besides the page's keys.
    fn opens(&self) -> Opens {
        let mut opens = Opens {
            tab: self.tab,
            lesson: self.lesson.map(|at| at.lesson),
            step: (self.lesson.and_then(|at| at.step))
                .or(self.own_step.map(|index| index + 1))
                .map(step_number),
            quiz: None,
            build: self.build.as_ref().map(|build| build.parts),
        };
        if let Some(quiz) = &self.quiz {
            opens.lesson = opens.lesson.or_else(|| Lesson::by_id(quiz.quiz.lesson));
            opens.quiz = Some(quiz.quiz.seed);
        }
        opens
    }

    /// The index of the event the cursor is on, in the run in focus: the cursor, or that
    /// run's last event.
    pub fn cursor(&self) -> u32 {
        let last = self.events_lead().saturating_sub(1);
        self.page.cursor.map_or(last, |c| c.min(last))
    }

    /// The run the cursor, the status line, Tables and Sweep follow: B only while comparing.
    pub fn focus(&self) -> Side {
        match self.page.compare {
            Some(_) => self.page.focus,
            None => Side::A,
        }
    }

    /// How many events the run in focus has.
    pub fn events_lead(&self) -> u32 {
        match self.focus() {
            Side::A => self.events_a,
            Side::B => self.events_b,
        }
    }

    /// The scenario of the run in focus as the link gives it, its `events_max` not shared
    /// (`PageState::runs`): the sweep and the contracts table hold no trace, and a row loaded
    /// from them keeps the link's cap.
    pub fn lead_scenario(&self) -> Scenario {
        match self.focus() {
            Side::B => self.page.compare_scenario(),
            Side::A => None,
        }
        .unwrap_or_else(|| self.page.scenario.clone())
    }

    fn open_step_keeping_errors(&mut self, at: LessonAt) {
        let errors = std::mem::take(&mut self.errors);
        self.open_step(at.lesson, at.index());
        self.errors = errors;
        self.errors_from = ErrorsFrom::Link;
    }

    /// Opens step `index` of `lesson`: its scenario, its fix as B, the Lessons tab; leaves any
    /// mastery check.
    fn open_step(&mut self, lesson: &'static Lesson, index: usize) {
        let index = index.min(lesson.steps.len() - 1);
        let step = &lesson.steps[index];
        self.page.scenario = decode_lenient(step.query).0.scenario;
        self.page.compare = step.compare.map(String::from);
        self.tab = Tab::Lessons;
        self.page.focus = Side::A;
        self.drawer_open = false;
        self.lesson = Some(LessonAt {
            lesson,
            step: Some(index + 1),
        });
        self.quiz = None;
        self.build = None;
        self.start_hint = false;
        self.errors.clear();
        self.step_overridden = None;
        self.draft = self.page.scenario.order;
        self.verdict = None;
        // A step about the key table opens it; another closes it if a step opened it, and
        // otherwise leaves it as the learner set it.
        if step.keystore && !self.page.keys {
            (self.page.keys, self.keys_by_step) = (true, true);
        } else if !step.keystore && self.keys_by_step {
            (self.page.keys, self.keys_by_step) = (false, false);
        }
        self.scenario_changed();
    }

    /// What every scenario change resets: playback, the cursor, the zoom, any outline (it
    /// belongs to the run a phrase named) and a sweep of the old scenario. The ordering draft
    /// stays: it is the learner's, and only opening a step starts it afresh.
    fn scenario_changed(&mut self) {
        // The banner's notes were about the link's scenario or a cancelled one, which this
        // replaces.
        self.step_overridden = None;
        self.cancelled = None;
        // A changed run is this version's, whatever version made the link.
        self.link_version = None;
        self.lock_note = None;
        self.link_dropped.clear();
        self.page.version = None;
        self.playing = false;
        self.page.cursor = None;
        self.page.zoom = None;
        self.highlight = None;
        self.sweep = None;
        self.contracts = None;
    }

    fn set_scenario(&mut self, scenario: Scenario) {
        self.page.scenario = scenario;
        self.errors.clear();
        self.errors_from = ErrorsFrom::Control;
        self.scenario_changed();
    }
}

/// Two notes of what the link left out that say the same part: the later replaces the earlier.
fn same_kind(a: page::Dropped, b: page::Dropped) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}

/// Whether a link gives any scenario key of its own (or a preset): then its scenario is kept.
pub fn names_scenario(query: &str) -> bool {
    let query = query.strip_prefix('?').unwrap_or(query);
    query.split('&').any(|pair| {
        let key = pair.split_once('=').map_or(pair, |(key, _)| key);
        key == "preset" || codec::key_names().any(|name| name == key)
    })
}

/// The one place the page's state changes. A message that would change a locked key does
/// nothing (`locks::refused`); a change a course page asked to hear of is reported.
pub fn update(state: &mut State, msg: Msg) -> Effects {
    // The runs a refused change started report back before the page paints: they keep it.
    if !matches!(msg, Msg::Work(_)) {
        state.compare_refused = false;
    }
    if let Some(note) = locks::refusal(state, &msg) {
        state.compare_refused = matches!(msg, Msg::Scenario(ScenarioMsg::CompareKeys(_)));
        state.lock_note = Some(note);
        return Effects {
            render: true,
            ..Effects::default()
        };
    }
    let before = report::marks(state);
    let looks = (
        state.page.theme,
        state.page.embed,
        state.page.hide,
        state.page.height,
    );
    let shown = state.step_shown();
    let mut effects = update_msg(state, msg);
    // A change that would make the link too long to load leaves out what it must, and B's
    // run goes if its keys did.
    if effects.url.is_some() {
        let dropped = state.fit_link();
        effects.rerun |= dropped.contains(&page::Dropped::Compare);
        effects.render |= !dropped.is_empty();
    }
    // The page builds a step's exercise afresh when another step comes on screen, and its
    // score line starts again without a verdict.
    if state.step_shown() != shown {
        state.classify_last = None;
    }
    effects.reports = report::decide(&before, state);
    // Back or Forward onto a link of another theme, or other embed settings.
    effects.restyle = looks
        != (
            state.page.theme,
            state.page.embed,
            state.page.hide,
            state.page.height,
        );
    effects
}

fn update_msg(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::Scenario(msg) => scenario::update(state, msg),
        Msg::Playback(msg) => {
            if msg.moves_cursor() && state.awaiting() {
                // Predict, then reveal: the run waits at its first event for the answer.
                return Effects::default();
            }
            playback::update(state, msg)
        }
        Msg::OpenTab(tab) => {
            state.tab = tab;
            Effects::view()
        }
        Msg::Screen(msg) => screen::update(state, msg),
        Msg::Lesson(msg) => lesson::update(state, msg),
        Msg::Quiz(msg) => quiz::update(state, msg),
        Msg::Work(done) => update_work(state, *done),
        // A sweep of a quiz question's scenario would count what the question asks.
        Msg::Sweep(sweep::Msg::Start(_)) | Msg::Contracts(contracts::Msg::Start(_))
            if quiz::run_hidden(state) =>
        {
            Effects::default()
        }
        Msg::Sweep(msg) => sweep::update(state, msg),
        Msg::Contracts(msg) => contracts::update(state, msg),
        Msg::ToggleKeyStore => toggle_key_store(state),
        Msg::Classify(msg) => classify::update(state, msg),
        Msg::DismissHint => free::dismiss_hint(state),
        Msg::ExportJson => export_json(state),
        Msg::Own(msg) => own::update(state, msg),
        Msg::ShortcutsOff(off) => {
            state.shortcuts_off = off;
            Effects::default()
        }
        Msg::CancelRun => computing::cancel(state),
    }
}

fn toggle_key_store(state: &mut State) -> Effects {
    state.page.keys = !state.page.keys;
    state.keys_by_step = false;
    Effects::view()
}

/// The JSON export starts, unless one is being written.
fn export_json(state: &mut State) -> Effects {
    let idle = state.json_export.is_none();
    state.json_export.get_or_insert(0);
    Effects {
        work: idle,
        ..Effects::paint()
    }
}

/// What a slice of the page's work did.
fn update_work(state: &mut State, done: work::Done) -> Effects {
    match done {
        work::Done::Built(built) => {
            state.events_a = built.events_a;
            state.events_b = built.events_b;
            computing::ran(state);
            build::measured(state, &built.a);
            predict::measured(state, &built.a, built.b.as_ref())
        }
        work::Done::Computing { side, progress } => computing::progress(state, side, progress),
        work::Done::Swept(swept) => {
            sweep::add(state, &swept);
            Effects::default()
        }
        work::Done::ContractsRan(metrics) => {
            if let Some(table) = state.contracts.as_mut().filter(|t| t.busy()) {
                table.job.add(&metrics);
            }
            Effects::default()
        }
        work::Done::JsonWritten { percent, done } => {
            state.json_export = (!done).then_some(percent);
            Effects {
                render: true,
                ..Effects::default()
            }
        }
    }
}

/// A step's `step=` number. Lessons have a handful of steps, far fewer than 256.
fn step_number(step: usize) -> u8 {
    u8::try_from(step).expect("a lesson has fewer than 256 steps")
}

/// Whether the run's text may be shown: not while a step waits for its prediction (it would
/// give the answer away), nor while a quiz question's run is hidden or a run is computing.
pub fn story_shown(state: &State) -> bool {
    !(state.awaiting() || run_hidden(state) || state.computing.is_some())
}
