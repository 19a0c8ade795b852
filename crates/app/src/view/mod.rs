pub mod events;
pub mod ordering;
pub mod runs;
pub mod sweep;
