pub mod controls;
pub mod events;
pub mod export;
pub mod ordering;
pub mod playback;
pub mod runs;
pub mod screen;
pub mod sweep;
