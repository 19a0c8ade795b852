//! idemlab's pure core: a scenario ([`scenario`]), the seeded simulation that runs it ([`sim`])
//! and the trace it records ([`trace`]), with [`dense`]'s sets and maps. No IO, no clock, no
//! DOM: one seed drives every random choice. The other crates build the folds, the lessons,
//! the page and the CLI on it.

pub mod canonical;
pub mod dense;
pub mod json;
pub mod scenario;
pub mod sim;
pub mod trace;

pub use scenario::Scenario;
pub use trace::Trace;

/// The model's version: raise it whenever a run of some link changes, so that its golden
/// digests change (`crates/lab/tests/golden.rs` pins the pair). `v=` in a link says which version made it.
/// Version 2 hashes the canonical encoding instead of the text form: the runs are the same.
pub const MODEL_VERSION: u32 = 2;
