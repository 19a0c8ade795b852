//! "The run as text" as the page paints it: each run's `story::tell` (worked out once per run),
//! or the line saying why it may not be read yet (`story_shown`).

use idemlab_lab::story::{Story, HELD};
use idemlab_lab::Side;

use crate::work::Runs;
use crate::{story_shown, State};

/// What a paint sets in each run's text section: run A's, then B's.
#[derive(Clone, Debug, PartialEq)]
pub struct StoryFrame {
    pub runs: [StoryPanel; 2],
}

#[derive(Clone, Debug, PartialEq)]
pub struct StoryPanel {
    /// No such run (no B): the section hides.
    pub hidden: bool,
    pub story: Story,
}

pub fn view(state: &State, runs: &Runs) -> StoryFrame {
    let shown = story_shown(state);
    let story = |side: Side| match runs.get(side).filter(|_| shown) {
        Some(run) => StoryPanel {
            hidden: false,
            story: run.story.clone(),
        },
        None => StoryPanel {
            hidden: runs.get(side).is_none(),
            story: Story {
                summary: idemlab_lab::i18n::tr(HELD).into(),
                orders: Vec::new(),
                left_out: None,
            },
        },
    };
    StoryFrame {
        runs: [story(Side::A), story(Side::B)],
    }
}
