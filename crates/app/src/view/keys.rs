//! The key-store panels as the page paints them: the toggle's state, and for each run (A, B)
//! whether its panel is open and the key table at the cursor (`key_store_for`). The table is
//! folded only while the panel is open, and a run keeps its last fold, so a paint that moved
//! neither the run nor the cursor does not fold again.

use std::rc::Rc;

use idemlab_lab::Side;

use crate::work::Runs;
use crate::{KeyStoreView, State};

/// What a paint sets on the key-store toggle and the two panels.
#[derive(Clone, Debug, PartialEq)]
pub struct KeysFrame {
    /// The toggle's `aria-pressed`; each run's block gets `keys-open` and its panel shows.
    pub open: bool,
    /// Run A's table and run B's, while open and the run exists.
    pub tables: [Option<KeyTable>; 2],
}

/// One run's table, and the line under it: how many rows it leaves out, or why it is empty.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyTable {
    pub view: Rc<KeyStoreView>,
    pub note: Option<String>,
}

pub fn view(state: &State, runs: &Runs) -> KeysFrame {
    let open = state.page.keys;
    let lead = &runs.lead(state).trace;
    let table = |side: Side| {
        let run = runs.get(side).filter(|_| open)?;
        let view = run.key_store(state, lead, side);
        let note = (view.more.clone()).or(view.empty.map(String::from));
        Some(KeyTable { view, note })
    };
    KeysFrame {
        open,
        tables: [table(Side::A), table(Side::B)],
    }
}
