//! The export buttons' state as the page paints it.

use crate::State;

/// The JSON button's text while the export is written ("Writing JSON 40%"), `None` when idle
/// (the button says what the markup says).
pub fn json_button(state: &State) -> Option<String> {
    let percent = state.json_export?;
    Some(idemlab_lab::tf!("Writing JSON {}%", percent))
}
