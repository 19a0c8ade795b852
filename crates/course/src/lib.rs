//! The teaching, as data where it is data: the lessons and their steps, the glossary, the
//! classification exercise, the ordering exercise, the mastery check and the finale's task.
//!
//! Pure: a lesson names scenarios and counts of `idemlab-lab`'s metrics; nothing here knows the
//! page's state or the browser.

pub mod build;
pub mod classify;
pub mod glossary;
pub mod lessons;
pub mod ordering;
pub mod pace;
pub mod quiz;
