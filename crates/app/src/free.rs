//! Free play, the page with no lesson open: the newcomer's hint to start Lesson A, and the
//! Compare box (the separators it reads, and the change it proposes when ticked).

use super::{Effects, State};
use idemlab_core::scenario::{codec, Scenario};

/// The hint shows on the page as it opens with no query (a newcomer's first visit), never in
/// an embed, a lesson or the check, and not again once dismissed or once a lesson was opened.
pub fn start_hint(state: &State) -> bool {
    state.start_hint && !state.page.embed && state.lesson.is_none() && state.quiz.is_none()
}

/// Whether a link's query is the bare page: nothing, or only `?`.
pub(super) fn bare(query: &str) -> bool {
    query.strip_prefix('?').unwrap_or(query).trim().is_empty()
}

/// The Compare box's text as the link writes it: pairs joined by `&`. A comma also separates
/// pairs, but only where what follows it is `name=` for a scenario key, because some values
/// hold commas of their own (`drop=5,12`, `order=1,3,2,...`): `dedup=atomic, retries=0` is two
/// pairs, `drop=5,12` one.
pub fn compare_text(text: &str) -> String {
    let mut out = String::new();
    for piece in text.split('&') {
        for (i, part) in piece.split(',').enumerate() {
            if i > 0 && !starts_pair(part) {
                out.push(',');
                out.push_str(part);
                continue;
            }
            out.truncate(out.trim_end().len());
            let part = part.trim();
            if !part.is_empty() {
                if !out.is_empty() {
                    out.push('&');
                }
                out.push_str(part);
            }
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// `name=…` where `name` is a scenario key, or `preset`/`contract`, which the box takes too.
fn starts_pair(text: &str) -> bool {
    (text.trim_start().split_once('=')).is_some_and(|(name, _)| {
        let name = name.trim_end();
        ["preset", "contract"].contains(&name) || codec::keys().iter().any(|key| key.name == name)
    })
}

/// The changes Compare may propose, in order: the first one that changes `scenario` is
/// proposed, so B never starts as a copy of A. The preset's own fix comes first; the last,
/// `dedup=none`, differs from any scenario the ones before it leave alone (they include
/// `dedup=atomic`), and shows what the atomic claim prevents.
const PROPOSALS: [&str; 5] = [
    "dedup=atomic",
    "provider=keyed",
    "store=durable",
    "key=business",
    "dedup=none",
];

/// What ticking Compare fills in as B: the fix the scenario lacks, never a no-op.
pub fn proposed_change(scenario: &Scenario) -> String {
    let fix = scenario.preset.map(|p| p.spec().fix);
    let changes = |change: &&&str| {
        let mut changed = scenario.clone();
        let applied = change.split('&').all(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            codec::set_key(&mut changed, name, value).is_ok()
        });
        applied && changed != *scenario
    };
    (fix.iter().chain(PROPOSALS.iter()))
        .find(changes)
        .map_or("dedup=none", |change| *change)
        .to_string()
}

/// The newcomer's hint is dismissed, for the visit.
pub(super) fn dismiss_hint(state: &mut State) -> Effects {
    state.start_hint = false;
    Effects::paint()
}
