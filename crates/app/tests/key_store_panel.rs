//! The key-store panel beside the timeline (`app::keys`): each key's state and stored response
//! in words, at most `KEY_ROWS_MAX` rows, what an empty or hidden table says, its caption at the
//! cursor's moment, and when it opens. `tests/keystore.rs` checks the table it folds.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::{counts_at_label, Msg, UrlWrite};
use idemlab_app::{LessonMsg, PlaybackMsg, QuizMsg};
use idemlab_core::scenario::decode_lenient;
use idemlab_course::lessons::{Side, LESSONS};
use support::load;

#[test]
fn the_key_store_says_each_state_and_its_stored_response_in_words() {
    use idemlab_core::scenario::Op;
    use idemlab_core::trace::Key;
    use idemlab_lab::keystore::{KeyRow, KeyState};
    let row = |state, expires_us| KeyRow {
        key: Key::Business { work: 3, tenant: 0 },
        state,
        created_us: 41_250,
        expires_us,
        order: 3,
        attempt: 2,
        req: 9,
    };
    let done = KeyState::Done {
        status: 200,
        number: Some(3),
    };
    let rows = [
        (row(KeyState::Claimed, None), Op::Charge),
        (row(KeyState::InProgress, Some(191_250)), Op::Charge),
        (row(done, Some(191_250)), Op::Charge),
        (row(done, Some(191_250)), Op::Set),
        (
            row(
                KeyState::Done {
                    status: 422,
                    number: None,
                },
                Some(191_250),
            ),
            Op::Charge,
        ),
        (row(KeyState::Expired, Some(191_250)), Op::Charge),
    ];
    let text: String = rows
        .iter()
        .map(|(row, op)| {
            let t = app::row_text(row, *op, idemlab_core::scenario::Expired::New);
            let cells: [&str; 6] = [
                &t.key,
                t.state_text,
                &t.response,
                &t.written,
                &t.expires,
                &t.by,
            ];
            format!("{} [{}]\n", cells.join(" | "), t.state)
        })
        .collect();
    expect![[r#"
        case-1/work-3 | claimed, not committed | none: not committed, so no other request sees it | 41.25 ms | – | written by order 3, attempt 2 [claimed]
        case-1/work-3 | in progress | none yet: a repeat gets 409 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [in-progress]
        case-1/work-3 | done | 200, charge #3 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [done]
        case-1/work-3 | done | 200, value 3 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [done]
        case-1/work-3 | done | 422 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [done]
        case-1/work-3 | expired | none: the next read removes the key and runs the request as new | 41.25 ms | 150 ms after | written by order 3, attempt 2 [expired]
    "#]]
    .assert_eq(&text);
}

#[test]
fn a_keys_expiry_reads_as_a_span_after_its_write() {
    use idemlab_lab::keystore::{KeyRow, KeyState};
    let row = |created_us, expires_us| KeyRow {
        key: idemlab_core::trace::Key::Business { work: 1, tenant: 0 },
        state: KeyState::Expired,
        created_us,
        expires_us: Some(expires_us),
        order: 1,
        attempt: 1,
        req: 1,
    };
    let expires = |created_us, expires_us| {
        app::row_text(
            &row(created_us, expires_us),
            idemlab_core::scenario::Op::Charge,
            idemlab_core::scenario::Expired::New,
        )
        .expires
    };
    assert_eq!(expires(146_977, 86_400_146_977), "24 h after");
    assert_eq!(expires(0, 300_000_000), "5 min after");
    assert_eq!(expires(10, 90_000_010), "90 s after");
    assert_eq!(expires(41_250, 191_250), "150 ms after");
}

#[test]
fn an_expired_key_row_says_what_a_repeat_gets_under_the_expiry_rule() {
    // Under expired=reject a repeat is refused, not run as new: the row must say so.
    let expired_text = |query: &str| {
        let trace = idemlab_core::sim::run(&decode_lenient(query).0.scenario);
        let view = app::key_store(&trace, Some(trace.events.len() / 2));
        let rows = view.rows.into_iter().filter(|r| r.state == "expired");
        rows.map(|r| r.response).next()
    };
    let reject = expired_text("seed=1&preset=key-expiry&expired=reject");
    assert_eq!(
        reject.as_deref(),
        Some("none: a repeat gets 412 and the row stays")
    );
}

#[test]
fn the_key_store_lists_at_most_50_rows_the_latest_and_counts_the_rest() {
    let trace =
        idemlab_core::sim::run(&decode_lenient("seed=1&orders=200&dedup=atomic").0.scenario);
    let table = idemlab_lab::keystore::table_at(&trace, trace.events.len());
    assert_eq!(table.len(), 200);
    let view = app::key_store(&trace, None);
    assert_eq!(view.rows.len(), app::KEY_ROWS_MAX);
    assert_eq!(view.more.as_deref(), Some("+150 more, written earlier"));
    assert!(view.caption.ends_with(": 200 keys"), "{}", view.caption);
    // The rows kept are the ones written last, listed in the table's own (key) order.
    let shown: Vec<&idemlab_lab::keystore::KeyRow> = table
        .iter()
        .filter(|row| view.rows.iter().any(|r| r.key == row.key.to_string()))
        .collect();
    assert_eq!(shown.len(), app::KEY_ROWS_MAX);
    let oldest_shown = shown.iter().map(|r| r.created_us).min().unwrap();
    let cut = table.iter().filter(|row| !shown.contains(row));
    assert!(cut.into_iter().all(|row| row.created_us <= oldest_shown));
    let keys: Vec<String> = shown.iter().map(|r| r.key.to_string()).collect();
    let listed: Vec<&String> = view.rows.iter().map(|r| &r.key).collect();
    assert_eq!(listed, keys.iter().collect::<Vec<_>>());
}

#[test]
fn at_the_end_of_an_atomic_durable_run_every_order_has_a_done_key() {
    let query = "seed=3&preset=race&dedup=atomic&store=durable";
    let (trace, metrics) = idemlab_lab::run(&decode_lenient(query).0.scenario);
    let view = app::key_store(&trace, None);
    let done = view.rows.iter().filter(|r| r.state == "done").count();
    assert_eq!(done as u32, metrics.orders, "{view:?}");
    assert!(view
        .rows
        .iter()
        .all(|r| r.response.starts_with("200, charge #")));
    assert_eq!((view.more, view.empty), (None, None));
    // Somewhere in the run a claim is held by an open transaction, and the panel says so.
    let claimed = (1..trace.events.len()).find(|&count| {
        let view = app::key_store(&trace, Some(count));
        view.rows.iter().any(|r| r.state == "claimed")
    });
    assert!(claimed.is_some(), "no moment shows a claimed key");
}

#[test]
fn an_empty_key_store_says_why() {
    let trace = |q: &str| idemlab_core::sim::run(&decode_lenient(q).0.scenario);
    let none = trace("seed=1&orders=2&dedup=none");
    assert_eq!(
        app::key_store(&none, None).empty,
        Some("This API stores no keys (dedup=none): every request runs.")
    );
    let atomic = trace("seed=1&orders=2&dedup=atomic");
    let view = app::key_store(&atomic, Some(0));
    assert_eq!(view.empty, Some("No keys yet: the run has not started."));
    assert_eq!(view.caption, "Key table at 0 ms: 0 keys");
}

#[test]
fn the_key_panel_keeps_a_hidden_question_hidden_instead_of_showing_the_default_run() {
    // While a check's run is hidden the page holds its default scenario (dedup=none); the panel
    // must not describe that run against a question about keys.
    let mut state = load("lesson=a&quiz=1");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    assert!(app::run_hidden(&state));
    let trace = idemlab_core::sim::run(&state.page.scenario);
    let view = app::key_store_for(&state, &trace, Side::A, &trace);
    assert_eq!(view.empty, Some(app::RUN_HIDDEN_NOTE));
    assert!(view.rows.is_empty());
}

#[test]
fn bs_key_table_is_captioned_at_the_cursors_moment_like_the_counters() {
    // Captioned at B's last event before the cursor, B's key table would read as taken at
    // another moment than A's counters: the tables name the cursor's time, the counters the
    // cursor (whose time the player's status line gives).
    let query = "seed=463183&orders=5&dedup=naive&timeout_ms=41&backoff_ms=2&latency_ms=6..14";
    let mut state = load(&format!("{query}&compare=dedup%3Datomic"));
    let a = idemlab_core::sim::run(&state.page.scenario);
    let b = idemlab_core::sim::run(&state.page.compare_scenario().unwrap());
    let at = (1..a.events.len() - 1)
        .find(|&i| !b.events.iter().any(|e| e.time_us == a.events[i].time_us))
        .expect("a moment of A where B has no event");
    app::update(&mut state, Msg::Playback(PlaybackMsg::GoTo(at as u32)));
    let moment = idemlab_lab::view::ms_text(a.events[at].time_us);
    for (side, run) in [(Side::A, &a), (Side::B, &b)] {
        let view = app::key_store_for(&state, &a, side, run);
        assert!(
            view.caption.starts_with(&format!("Key table at {moment}:")),
            "{side:?}: {}",
            view.caption
        );
    }
    assert_eq!(
        counts_at_label(&state, &a),
        "Counts at the cursor (▶| shows the end):"
    );
}

#[test]
fn the_key_store_toggle_is_a_view_change_kept_in_the_permalink() {
    let mut state = load("seed=3&preset=race");
    assert!(!state.page.keys);
    let effects = app::update(&mut state, Msg::ToggleKeyStore);
    assert!(effects.render && !effects.rerun);
    assert_eq!(effects.url, Some(UrlWrite::Replace));
    assert!(
        state.to_query().ends_with("&keys=1"),
        "{}",
        state.to_query()
    );
    assert!(load(&state.to_query()).page.keys);
    app::update(&mut state, Msg::ToggleKeyStore);
    assert!(!state.to_query().contains("keys="));
}

#[test]
fn a_step_about_the_key_table_opens_the_key_store() {
    let opens: Vec<(&str, usize)> = LESSONS
        .iter()
        .flat_map(|l| {
            (l.steps.iter().enumerate())
                .filter(|(_, s)| s.keystore)
                .map(move |(i, _)| (l.id, i + 1))
        })
        .collect();
    assert_eq!(
        opens,
        [
            ("a", 3),
            ("a", 5),
            ("b", 2),
            ("b", 4),
            ("b", 5),
            ("b", 9),
            ("c", 2),
            ("c", 4),
            ("c", 5)
        ]
    );
    assert!(load("lesson=a&step=5").page.keys);
    assert!(load("lesson=a&step=5").to_query().contains("keys=1"));
    let mut state = load("lesson=a&step=1");
    assert!(!state.page.keys);
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(2)));
    assert!(state.page.keys);
    // A later step not about it closes what a step opened (step 3 opens it, step 4 is the
    // race), but leaves it as the learner set it.
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(3)));
    assert!(!state.page.keys, "step 4 closes the table step 3 opened");
    app::update(&mut state, Msg::ToggleKeyStore);
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(6)));
    assert!(state.page.keys, "the learner opened it: it stays");
    app::update(&mut state, Msg::ToggleKeyStore);
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(7)));
    assert!(!state.page.keys);
}
