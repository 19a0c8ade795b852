//! The Events tab's list (virtualised: only the rows in sight and a margin are in the page),
//! the tab bar, and the Tables tab's tables at the cursor, as the page paints them.

use idemlab_core::trace::node_name;

use crate::work::{Run, Runs};
use crate::{State, Tab};

/// One row's height in the event list, in CSS px: the stylesheet takes it from here
/// (`--event-row-px`), so the list's arithmetic and its look cannot drift apart.
pub const EVENT_ROW_PX: i32 = 26;
/// The list's own height, in CSS px (`--events-view-px`).
pub const EVENTS_VIEW_PX: i32 = 340;
/// Rows drawn beyond the visible ones, so fast scrolling shows no blank band.
pub const OVERSCAN_ROWS: i32 = 10;

/// One tab of the bar, and its panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TabFrame {
    pub tab: Tab,
    pub selected: bool,
    /// In the Tab order: the selected tab, or Events while none is (a lesson's column).
    pub focusable: bool,
    /// The Lessons tab hides while a lesson takes its column.
    pub hidden: bool,
    pub panel_hidden: bool,
}

/// The tab bar: in a lesson the Lessons tab's panel is the lesson's column, and no panel opens
/// under the runs until the learner picks Events, Tables or Sweep.
pub fn tabs(state: &State) -> [TabFrame; 4] {
    let layout = crate::page_layout(state);
    Tab::ALL.map(|tab| {
        let selected = Some(tab) == layout.panel;
        let lessons = tab == Tab::Lessons && layout.lesson_column;
        TabFrame {
            tab,
            selected,
            focusable: selected || (layout.panel.is_none() && tab == Tab::Events),
            hidden: lessons,
            panel_hidden: !selected && !lessons,
        }
    })
}

/// The tabs the arrow keys move between: those shown.
pub fn shown_tabs(state: &State) -> Vec<Tab> {
    (tabs(state).into_iter())
        .filter(|t| !t.hidden)
        .map(|t| t.tab)
        .collect()
}

/// The event list as it stands with its scroll at `scroll_top_px`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventsFrame {
    /// The list's full height (`spacer_px`), so the scroll bar spans every event.
    pub spacer_px: i32,
    /// Where the list must scroll to bring the cursor's row into view, if it is not.
    pub scroll_to_px: Option<i32>,
    /// Whether the Events tab is open: a hidden list has no layout box and ignores
    /// `scrollTop`, so the position is written again when it shows.
    pub shown: bool,
    /// Where the drawn rows start (`top`, not a transform: the header's `position: sticky`
    /// works from the layout box).
    pub top_px: i32,
    /// `aria-rowcount`: the rows and the header.
    pub row_count: String,
    pub rows: Vec<EventRow>,
    /// The selected row's id while it is drawn: the grid's active one.
    pub active: Option<String>,
    /// Which rows are in the page: a screen reader's table commands meet only those.
    pub note: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventRow {
    pub index: String,
    pub id: String,
    /// `aria-rowindex`: the header is row 1.
    pub row_index: String,
    pub selected: bool,
    pub class: String,
    /// #, time, lane, order, attempt, key, what happened.
    pub cells: [String; 7],
}

/// The event list as a render leaves it, from its scroll at `seen_top_px`: the list is the
/// timeline's text alternative, so it scrolls to follow the cursor whichever tab is open.
pub fn following(state: &State, runs: &Runs, seen_top_px: i32) -> EventsFrame {
    let events = runs.lead(state).trace.events.len();
    let scroll_to_px = scroll_to(state.cursor() as usize, events, seen_top_px);
    EventsFrame {
        scroll_to_px,
        ..self::events(state, runs, scroll_to_px.unwrap_or(seen_top_px))
    }
}

/// The event list with its scroll at `scroll_top_px`, where the learner scrolled it.
pub fn events(state: &State, runs: &Runs, scroll_top_px: i32) -> EventsFrame {
    let run = runs.lead(state);
    let events = run.trace.events.len();
    let count = events as i32;
    let first = (scroll_top_px / EVENT_ROW_PX - OVERSCAN_ROWS).max(0);
    let end = (first + EVENTS_VIEW_PX / EVENT_ROW_PX + 2 * OVERSCAN_ROWS).min(count);
    let cursor = state.cursor() as usize;
    let selected = state.page.cursor.map(|_| cursor as i32);
    let rows = (first..end).map(|index| {
        let index = index as usize;
        event_row(
            run,
            index,
            state.page.cursor.is_some() && index == cursor,
            cursor,
        )
    });
    EventsFrame {
        spacer_px: spacer_px(events),
        scroll_to_px: None,
        shown: state.tab == Tab::Events,
        top_px: first * EVENT_ROW_PX,
        row_count: (count + 1).to_string(),
        rows: rows.collect(),
        active: (selected.filter(|c| (first..end).contains(c))).map(|c| format!("ev-{c}")),
        note: idemlab_lab::story::rows_note(first as u32, end as u32, count as u32),
    }
}

fn event_row(run: &Run, index: usize, selected: bool, cursor: usize) -> EventRow {
    let trace = &run.trace;
    let event = &trace.events[index];
    let lane = run.timeline.lane_label(event.node);
    EventRow {
        index: index.to_string(),
        id: format!("ev-{index}"),
        row_index: (index + 2).to_string(),
        selected,
        class: crate::row_class(trace, index, cursor),
        cells: [
            (index + 1).to_string(),
            idemlab_lab::view::ms_text(event.time_us),
            lane.map_or_else(|| node_name(event.node, trace), String::from),
            event.order().map(|o| o.to_string()).unwrap_or_default(),
            event.attempt().map(|a| a.to_string()).unwrap_or_default(),
            event.key.map(|k| k.to_string()).unwrap_or_default(),
            what_text(run, index),
        ],
    }
}

/// The "what happened" cell: what the timeline marks as a harm, in words first.
fn what_text(run: &Run, index: usize) -> String {
    let mut what = String::new();
    if let Some(note) = run.timeline.row_note(index as u32) {
        what.push_str(note);
        what.push_str(": ");
    }
    let _ = idemlab_core::trace::describe(&mut what, &run.trace.events[index].kind, &run.trace);
    what
}

/// The spacer's height for `rows` rows: they and the sticky header.
pub fn spacer_px(rows: usize) -> i32 {
    (rows as i32 + 1) * EVENT_ROW_PX
}

/// Where the list must scroll to keep the cursor's row in sight (row `i` sits at
/// `(i + 1) × EVENT_ROW_PX`, under the sticky header), or `None` when it already is in sight.
/// Capped as the browser caps it, so the position kept is the real one.
pub fn scroll_to(cursor: usize, rows: usize, view_top_px: i32) -> Option<i32> {
    let top = (cursor as i32 + 1) * EVENT_ROW_PX;
    let in_sight =
        top >= view_top_px + EVENT_ROW_PX && top + 2 * EVENT_ROW_PX <= view_top_px + EVENTS_VIEW_PX;
    if in_sight {
        return None;
    }
    let top_max = (spacer_px(rows) - EVENTS_VIEW_PX).max(0);
    Some((top - EVENTS_VIEW_PX / 2).clamp(0, top_max))
}

/// One of the Tables tab's tables: its caption's note and at most `TABLE_ROWS_MAX` rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableFrame {
    pub note: String,
    pub rows: Vec<[String; 5]>,
}

fn table<R>(rows: &[R], cells: fn(&R) -> [String; 5]) -> TableFrame {
    TableFrame {
        note: crate::rows_cut_note(rows.len()),
        rows: rows.iter().take(crate::TABLE_ROWS_MAX).map(cells).collect(),
    }
}

/// The Tables tab at the cursor: which run they are, the SQL listing, the attempts and the
/// ledger's charges, and the receipts when the run has a queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TablesFrame {
    pub run_note: Option<String>,
    /// Hidden while empty.
    pub sql: TableFrame,
    pub attempts: TableFrame,
    pub charges: TableFrame,
    pub receipts: Option<TableFrame>,
}

/// The Tables tab, only while its panel is open: folding them costs a pass over the run.
pub fn tables(state: &State, runs: &Runs) -> Option<TablesFrame> {
    if crate::page_layout(state).panel != Some(Tab::Tables) {
        return None;
    }
    let trace = &runs.lead(state).trace;
    let cursor = state.cursor() as usize;
    let tables = crate::tables_at(trace, cursor + 1);
    let receipts = (tables.receipts.as_deref()).map(|r| table(r, crate::ReceiptRow::cells));
    Some(TablesFrame {
        run_note: crate::tables_note(state),
        sql: table(&crate::sql_rows(trace, cursor), <[String; 5]>::clone),
        attempts: table(&tables.attempts, crate::AttemptRow::cells),
        charges: table(&tables.charges, crate::ChargeRow::cells),
        receipts,
    })
}
