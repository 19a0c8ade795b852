//! Every page state the page can hold is written by `to_query` as a link that loads back to
//! the same state, or, when it would be too long, to the state `PageState::fit` leaves. The
//! states are random: scenarios through the codec, compare, the view keys, and own steps
//! with hostile captions. `TEST_MODE=long` runs a hundred times more cases.

use idemlab_app::page::{Opens, PageState, Tab, Theme, SPEEDS, WRITTEN_LEN_MAX};
use idemlab_app::steps::{Check, OwnStep, Question, STEPS_MAX};
use idemlab_core::scenario::{codec, decode_lenient, Contract, Preset};
use idemlab_course::lessons::{Side, LESSONS};
use idemlab_lab::i18n::Lang;
use idemlab_lab::Metric;
use proptest::prelude::*;

fn cases() -> ProptestConfig {
    let long = std::env::var("TEST_MODE").is_ok_and(|mode| mode == "long");
    ProptestConfig {
        cases: if long { 6_400 } else { 64 },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A scenario as the codec decodes a random query of some of its keys.
fn scenario() -> impl Strategy<Value = idemlab_core::scenario::Scenario> {
    let preset = prop::option::of(prop::sample::select(Preset::names().collect::<Vec<_>>()));
    let contract = prop::option::of(prop::sample::select(Contract::names().collect::<Vec<_>>()));
    let dedup = prop::sample::select(vec!["none", "naive", "atomic"]);
    (
        any::<u64>(),
        preset,
        contract,
        dedup,
        0..=20u32,
        0..=999_999u32,
    )
        .prop_map(|(seed, preset, contract, dedup, retries, loss)| {
            let mut query = format!("seed={seed}&dedup={dedup}&retries={retries}");
            query += &format!("&loss_req=0.{loss:06}");
            for (key, value) in [("preset", preset), ("contract", contract)] {
                if let Some(value) = value {
                    query += &format!("&{key}={value}");
                }
            }
            let (decoded, errors) = decode_lenient(&query);
            assert!(errors.is_empty(), "{query}: {errors:?}");
            decoded.scenario
        })
}

fn compare() -> impl Strategy<Value = Option<String>> {
    let keys = [
        "dedup=atomic",
        "retries=3&dedup=naive",
        "preset=race",
        "contract=stripe-v1",
        "store=memory&timeout_ms=500",
    ];
    prop::option::of(prop::sample::select(keys.to_vec()).prop_map(String::from))
}

/// A caption of up to the most characters allowed, of those that need escaping in a link,
/// letters, spaces and characters of one to four bytes.
fn caption() -> impl Strategy<Value = String> {
    let hostile = "()()((%&=+#?;/:@!*'\"<>[]{}|\\^`~ aZ09é漢🙂\u{3000}\u{2028}";
    // Only what a caption may hold: the line separator is refused as invisible.
    let allowed = |c: &char| idemlab_app::steps::parse_caption(&c.to_string()).is_ok();
    let pool: Vec<char> = hostile.chars().filter(allowed).collect();
    let long = idemlab_app::steps::CAPTION_CHARS_MAX;
    prop::collection::vec(prop::sample::select(pool), 0..=long)
        .prop_map(|chars| chars.into_iter().collect())
}

/// A question in the instructor's words (`q=`), of the same characters as a caption: as the
/// reader keeps it, trimmed and never empty.
fn question_text() -> impl Strategy<Value = Option<String>> {
    let long = idemlab_app::steps::QUESTION_CHARS_MAX;
    let text = caption().prop_map(move |t| {
        let t: String = t.chars().take(long).collect();
        Some(t.trim().to_string()).filter(|t| !t.is_empty())
    });
    prop::option::of(text).prop_map(Option::flatten)
}

fn own_step() -> impl Strategy<Value = OwnStep> {
    let metric = prop::sample::select(Metric::ALL.to_vec());
    let checks = prop::collection::vec((any::<bool>(), metric.clone(), any::<u32>()), 0..=8);
    let ask = prop::option::of((any::<bool>(), metric, question_text()));
    (scenario(), compare(), caption(), checks, ask).prop_map(
        |(scenario, compare, caption, checks, ask)| {
            // B only where the step compares, as the reader requires.
            let side = |b: bool| {
                if b && compare.is_some() {
                    Side::B
                } else {
                    Side::A
                }
            };
            let mut checks: Vec<Check> = (checks.into_iter())
                .map(|(b, metric, count)| Check {
                    side: side(b),
                    metric,
                    count,
                })
                .collect();
            // A line states each count once (`steps::parse` refuses a second).
            let mut seen = Vec::new();
            checks.retain(|c| {
                let fresh = !seen.contains(&(c.side, c.metric));
                seen.push((c.side, c.metric));
                fresh
            });
            let ask = ask.map(|(b, metric, text)| Question {
                side: side(b),
                metric,
                text,
            });
            OwnStep {
                scenario,
                compare,
                caption,
                checks,
                ask,
            }
        },
    )
}

/// The page keys that do not open anything.
fn view(page: PageState) -> impl Strategy<Value = PageState> {
    let zoom = prop::option::of((0..u64::MAX - 1, 1..1_000_000u64));
    let theme = prop::option::of(prop::sample::select(Theme::ALL.to_vec()));
    let lang = prop::option::of(prop::sample::select(Lang::names()));
    let names: Vec<String> = codec::key_names().map(String::from).collect();
    let controls = prop::option::of(prop::sample::subsequence(names.clone(), 0..names.len()));
    let flags = (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    );
    let numbers = (
        prop::option::of(any::<u32>()),
        prop::sample::select(SPEEDS.to_vec()),
        prop::option::of(1..=100_000u64),
        0..64u8,
        prop::option::of(320..=4000u32),
        prop::option::of(1..=u32::MAX),
    );
    (zoom, theme, lang, controls, flags, numbers).prop_map(
        move |(zoom, theme, lang, controls, flags, numbers)| {
            let (embed, keys, gate, report, focus_b) = flags;
            let (cursor, speed, sweep, hide, height, version) = numbers;
            PageState {
                zoom: zoom.map(|(t0, span)| (t0, t0.saturating_add(span).max(t0 + 1))),
                theme,
                lang: lang.and_then(Lang::from_name),
                controls,
                embed,
                keys,
                gate,
                report,
                focus: if focus_b && page.compare.is_some() {
                    Side::B
                } else {
                    Side::A
                },
                cursor,
                speed,
                sweep,
                hide,
                height,
                version,
                ..page.clone()
            }
        },
    )
}

/// A page state and what its link opens: a lesson step or check, or own steps and one of them.
fn state() -> impl Strategy<Value = (PageState, Opens)> {
    let steps = prop::option::of(prop::collection::vec(own_step(), 1..=STEPS_MAX));
    let lesson = prop::option::of((
        0..LESSONS.len(),
        any::<u8>(),
        prop::option::of(any::<u64>()),
    ));
    let tab = prop::sample::select(Tab::ALL.to_vec());
    (scenario(), compare(), steps, lesson, tab, any::<u8>()).prop_flat_map(
        |(scenario, compare, steps, lesson, tab, pick)| {
            let mut opens = Opens {
                tab,
                ..Opens::default()
            };
            match (&steps, lesson) {
                (Some(steps), _) => opens.step = Some(pick % steps.len() as u8 + 1),
                (None, Some((at, step, quiz))) => {
                    let lesson = &LESSONS[at];
                    opens.lesson = Some(lesson);
                    opens.step = Some(step % lesson.steps.len() as u8 + 1);
                    opens.quiz = quiz;
                }
                (None, None) => {}
            }
            let page = PageState {
                scenario,
                compare,
                steps,
                ..PageState::default()
            };
            view(page).prop_map(move |page| (page, opens))
        },
    )
}

proptest! {
    #![proptest_config(cases())]

    #[test]
    fn every_link_the_page_writes_loads_back_to_its_state((page, opens) in state()) {
        let written = page.to_query(&opens);
        prop_assert!(written.len() <= WRITTEN_LEN_MAX, "{} bytes", written.len());
        let (again, opens_again, errors) = PageState::from_query(&written);
        prop_assert!(errors.is_empty(), "{written}: {errors:?}");
        let (mut fitted, mut fitted_opens) = (page.clone(), opens);
        let dropped = fitted.fit(&mut fitted_opens);
        prop_assert_eq!(&(again, opens_again), &(fitted, fitted_opens), "dropped {:?}", dropped);
        if dropped.is_empty() {
            prop_assert_eq!(page.to_query(&opens), written);
        }
    }
}
