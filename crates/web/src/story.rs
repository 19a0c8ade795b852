//! "The run as text": `app::view::story::view` painted into each run's section under the
//! legend, which also describes the run's timeline canvas (`aria-describedby`). A section is
//! painted only when what it says changed, never on a playback frame.

use web_sys::Element;

use super::dom::{self, El};
use super::paint_changed;
use idemlab_app::StoryPanel;

/// Paints each run's text as the view says, unless it is as last painted.
pub fn render(frame: &idemlab_app::StoryFrame) {
    paint_changed(
        |u| &u.story_painted,
        frame,
        |frame, last| {
            for (i, side) in ["a", "b"].into_iter().enumerate() {
                let before = last.map(|last| &last.runs[i]);
                if before != Some(&frame.runs[i]) {
                    paint(side, &frame.runs[i]);
                }
            }
        },
    );
}

fn paint(side: &str, panel: &StoryPanel) {
    let story = &panel.story;
    let block: Element = dom::by_id(&format!("story-{side}"));
    // Run B's canvas is a copy of A's: its description is set here, not in the markup.
    let canvas: Element = dom::by_id(&format!("canvas-{side}"));
    dom::set_attr(&canvas, "aria-describedby", &format!("story-{side}"));
    let list = dom::find(&block, "ol");
    dom::clear(&list);
    dom::set_hidden(&block, panel.hidden);
    let summary = dom::find(&block, ".story-summary");
    let left = dom::find(&block, ".story-left");
    dom::set_text(&summary, &story.summary);
    for order in &story.orders {
        list.append_child(&El::new("li").text(order).el()).ok();
    }
    dom::set_hidden(&left, story.left_out.is_none());
    dom::set_text(&left, story.left_out.as_deref().unwrap_or(""));
}
