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
