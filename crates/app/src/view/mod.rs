pub mod events;
pub mod runs;
pub mod sweep;
