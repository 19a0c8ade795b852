//! "The run as text" (issue 14): each run's `story::tell`, painted into the section under the
//! legend, which also describes the run's timeline canvas (`aria-describedby`). Painted only
//! when the run or whether it may be shown changed, never on a playback frame.

use web_sys::Element;

use super::dom::{self, El};
use super::{with_app, with_ui};

pub fn render() {
    for (i, side) in ["a", "b"].into_iter().enumerate() {
        let now = with_app(|app| {
            let run = if side == "a" {
                Some(&app.runs.a)
            } else {
                app.runs.b.as_ref()
            };
            run.map(|_| idemlab_app::story_shown(&app.state))
        });
        if with_ui(|u| &u.story_painted, |cell| cell.get()[i]) == Some(now) {
            continue;
        }
        paint(side, now);
        with_ui(
            |u| &u.story_painted,
            |cell| {
                let mut painted = cell.get();
                painted[i] = Some(now);
                cell.set(painted);
            },
        );
    }
}

/// `shown`: `None` when the side has no run, else whether its text may be shown now.
fn paint(side: &str, shown: Option<bool>) {
    let block: Element = dom::by_id(&format!("story-{side}"));
    // Run B's canvas is a copy of A's: its description is set here, not in the markup.
    let canvas: Element = dom::by_id(&format!("canvas-{side}"));
    dom::set_attr(&canvas, "aria-describedby", &format!("story-{side}"));
    let list = dom::find(&block, "ol");
    dom::clear(&list);
    dom::set_hidden(&block, shown.is_none());
    let summary = dom::find(&block, ".story-summary");
    let left = dom::find(&block, ".story-left");
    if shown != Some(true) {
        dom::set_text(&summary, idemlab_lab::i18n::tr(idemlab_lab::story::HELD));
        dom::set_hidden(&left, true);
        return;
    }
    let story = with_app(|app| {
        let run = if side == "a" {
            &app.runs.a
        } else {
            app.runs.b.as_ref().expect("shown")
        };
        run.story.clone()
    });
    dom::set_text(&summary, &story.summary);
    for order in &story.orders {
        list.append_child(&El::new("li").text(order).el()).ok();
    }
    dom::set_hidden(&left, story.left_out.is_none());
    dom::set_text(&left, story.left_out.as_deref().unwrap_or(""));
}
