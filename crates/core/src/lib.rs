//! idemlab's pure core: a scenario ([`scenario`]), the seeded simulation that runs it ([`sim`])
//! and the trace it records ([`trace`]), with [`dense`]'s sets and maps. No IO, no clock, no
//! DOM: one seed drives every random choice. The `idemlab` crate re-exports these modules
//! under the same names and builds the views, the page and the CLI on them.

pub mod dense;
pub mod scenario;
pub mod sim;
pub mod trace;

pub use scenario::Scenario;
pub use trace::Trace;
