//! What the page paints, a frame per part: every text, flag, class and row, decided here.

pub mod classify;
pub mod controls;
pub mod embed;
pub mod events;
pub mod export;
pub mod keys;
pub mod lessons;
pub mod ordering;
pub mod playback;
pub mod predict;
pub mod quiz;
pub mod runs;
pub mod screen;
pub mod story;
pub mod sweep;

use crate::work::Runs;
use crate::{
    Banner, ClassifyFrame, ContractsView, ControlsFrame, EventsFrame, KeysFrame, LessonsFrame,
    PlaybackFrame, PredictFrame, QuizFrame, RunsFrame, ScreenFrame, State, StoryFrame, SweepFrame,
    TabFrame, TablesFrame,
};
use idemlab_course::quiz::progress::Progress;

/// What the browser holds that a frame shows and `State` does not: this browser's progress
/// record (storage is the browser's), why it could not be read or saved, and where the event
/// list was last scrolled (the learner scrolls it, not a message).
#[derive(Clone, Copy, Debug)]
pub struct Seen<'a> {
    pub progress: &'a Progress,
    pub quiz_note: Option<&'a str>,
    pub scroll_top_px: i32,
}

/// Everything a render paints: the page as `view` says it is. Each part is compared with the
/// one painted last, so a playback tick repaints the cursor's parts and not the controls.
/// Painted at other moments, and so not here: the Embed dialog (as its author types), the
/// embed looks (at mount and on `Effects::restyle`), the ordering list (with its step's
/// article), and what `#announce` says (`announce`, which remembers what it said).
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub screen: ScreenFrame,
    pub controls: ControlsFrame,
    pub runs: RunsFrame,
    pub playback: PlaybackFrame,
    pub tabs: [TabFrame; 4],
    pub events: EventsFrame,
    /// The attempts and ledger tables, while their tab is open.
    pub tables: Option<TablesFrame>,
    /// The JSON button's text while an export is written.
    pub json_button: Option<String>,
    pub sweep: SweepFrame,
    pub contracts: Option<ContractsView>,
    pub lessons: LessonsFrame,
    pub predict: PredictFrame,
    pub quiz: QuizFrame,
    pub keys: KeysFrame,
    pub story: StoryFrame,
    pub classify: Option<ClassifyFrame>,
    pub banner: Option<Banner>,
}

/// The page's one view: what every part shows for this state, these runs and what the
/// browser has seen.
pub fn view(state: &State, runs: &Runs, seen: &Seen) -> Frame {
    Frame {
        screen: screen::view(state),
        controls: controls::view(state),
        runs: runs::view(state, runs),
        playback: playback::view(state, runs),
        tabs: events::tabs(state),
        events: events::following(state, runs, seen.scroll_top_px),
        tables: events::tables(state, runs),
        json_button: export::json_button(state),
        sweep: sweep::view(state),
        contracts: crate::contracts_view(state),
        lessons: lessons::view(state, runs, seen.progress),
        predict: predict::view(state),
        quiz: quiz::view(state, seen.progress, seen.quiz_note),
        keys: keys::view(state, runs),
        story: story::view(state, runs),
        classify: classify::view(state),
        banner: Banner::of(state),
    }
}
