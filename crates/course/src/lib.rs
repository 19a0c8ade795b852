//! The teaching, as data where it is data: the lessons and their steps, the glossary, the
//! classification exercise, the ordering exercise and the mastery check.
//!
//! Pure: a lesson names scenarios and counts of `idemlab-lab`'s metrics; nothing here knows the
//! page's state or the browser.

pub mod classify;
pub mod glossary;
pub mod lessons;
pub mod ordering;
pub mod pace;
pub mod quiz;
