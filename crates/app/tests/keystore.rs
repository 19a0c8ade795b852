//! The key-store panel's table (`keystore::table_at`) agrees with every decision the simulator
//! made about keys: just before each lookup, claim or expiry in a run, the folded table holds
//! what the simulator found. Over every preset and every lesson step, for several seeds.

use idemlab_core::scenario::{codec, Preset};
use idemlab_core::trace::{ClaimResult, EventKind, Found, Trace};
use idemlab_lab::keystore::{table_at, KeyRow, KeyState};

fn seeds() -> u64 {
    if std::env::var("TEST_MODE").as_deref() == Ok("long") {
        200
    } else {
        20
    }
}

fn queries() -> Vec<String> {
    let mut queries = Vec::new();
    for seed in 1..=seeds() {
        for name in Preset::names() {
            queries.push(format!("seed={seed}&preset={name}"));
        }
        for lesson in &idemlab_course::lessons::LESSONS {
            for step in lesson.steps {
                let base: Vec<&str> = (step.query.split('&'))
                    .filter(|pair| !pair.starts_with("seed="))
                    .collect();
                let base = base.join("&");
                queries.push(format!("{base}&seed={seed}"));
                if let Some(fix) = step.compare {
                    // B is A with every key the fix sets replaced.
                    let fixed: Vec<&str> = (fix.split('&'))
                        .map(|pair| pair.split('=').next().unwrap_or(""))
                        .collect();
                    let kept: Vec<&str> = (base.split('&'))
                        .filter(|pair| !fixed.contains(&pair.split('=').next().unwrap_or("")))
                        .collect();
                    queries.push(format!("{}&seed={seed}&{fix}", kept.join("&")));
                }
            }
        }
        // A refused expired key keeps its row, shown expired: the fold must not drop it.
        queries.push(format!(
            "orders=6&dedup=atomic&retention_ms=60&loss_resp=0.5&expired=reject&seed={seed}"
        ));
    }
    queries
}

/// The committed, unexpired row for the event's key, if any.
fn live(table: &[KeyRow], key: idemlab_core::trace::Key) -> Option<&KeyRow> {
    table
        .iter()
        .find(|row| row.key == key && !matches!(row.state, KeyState::Claimed | KeyState::Expired))
}

/// What the table held just before `kind`, a lookup, claim or expiry of `key` by request
/// `req`, agrees with what the simulator found; `row` is the live row another request wrote.
fn assert_decided(
    kind: &EventKind,
    table: &[KeyRow],
    row: Option<&KeyRow>,
    (key, req): (idemlab_core::trace::Key, u32),
    at: &str,
) {
    match *kind {
        EventKind::Lookup {
            found: Found::NotFound,
        } => assert!(row.is_none(), "{at}: {row:?}"),
        EventKind::Lookup {
            found: Found::Completed,
        } => {
            assert!(
                matches!(row.map(|r| r.state), Some(KeyState::Done { .. })),
                "{at}: {row:?}"
            )
        }
        EventKind::Lookup {
            found: Found::InProgress,
        } => {
            assert_eq!(row.map(|r| r.state), Some(KeyState::InProgress), "{at}")
        }
        EventKind::Lookup {
            found: Found::Mismatch,
        } => assert!(row.is_some(), "{at}"),
        EventKind::Lookup {
            found: Found::Expired,
        } => assert!(
            table
                .iter()
                .any(|r| r.key == key && r.state == KeyState::Expired),
            "{at}: the refused row is not shown expired"
        ),
        EventKind::Claim {
            result: ClaimResult::Ok,
        } => assert!(row.is_none(), "{at}: {row:?}"),
        EventKind::Claim {
            result: ClaimResult::Conflict,
        } => assert!(row.is_some(), "{at}"),
        // Under concurrent=conflict (Lesson C step 1) the copy is answered 409 instead of
        // waiting: someone else holds the claim all the same.
        EventKind::Claim {
            result: ClaimResult::Blocked | ClaimResult::InUse,
        } => assert!(
            table
                .iter()
                .any(|r| r.key == key && r.state == KeyState::Claimed && r.req != req),
            "{at}: nobody holds the claim it waits on"
        ),
        EventKind::KeyExpired => assert!(
            table
                .iter()
                .any(|r| r.key == key && r.state == KeyState::Expired),
            "{at}: the expired row is not marked expired"
        ),
        _ => unreachable!(),
    }
}

fn check(trace: &Trace, place: &str) -> u32 {
    let mut checked = 0;
    for (ix, event) in trace.events.iter().enumerate() {
        let (Some(key), Some(req)) = (event.key, event.req()) else {
            continue;
        };
        let decides = matches!(
            event.kind,
            EventKind::Lookup { .. } | EventKind::Claim { .. } | EventKind::KeyExpired
        );
        if !decides {
            continue;
        }
        let table = table_at(trace, ix);
        let row = live(&table, key).filter(|row| row.req != req);
        let at = format!(
            "{place}: event {ix} {:?} at {} us",
            event.kind, event.time_us
        );
        assert_decided(&event.kind, &table, row, (key, req), &at);
        checked += 1;
    }
    checked
}

#[test]
fn the_folded_key_table_holds_what_every_lookup_and_claim_found() {
    let mut checked = 0;
    for query in queries() {
        let scenario = codec::decode(&query).unwrap_or_else(|e| panic!("{query}: {e:?}"));
        let (trace, _) = idemlab_lab::run(&scenario.scenario);
        checked += check(&trace, &query);
    }
    assert!(checked > 5_000, "only {checked} key decisions checked");
    eprintln!("{checked} key decisions checked");
}

#[test]
fn a_committed_claim_shows_its_stored_answer_and_its_expiry() {
    let scenario = codec::decode("seed=1&orders=1&dedup=atomic&retention_ms=500").unwrap();
    let (trace, _) = idemlab_lab::run(&scenario.scenario);
    let table = table_at(&trace, trace.events.len());
    assert_eq!(table.len(), 1, "{table:?}");
    let row = table[0];
    assert!(
        matches!(
            row.state,
            KeyState::Done {
                status: 200,
                number: Some(1)
            }
        ),
        "{row:?}"
    );
    assert_eq!(row.expires_us, Some(row.created_us + 500_000));
    // Before anything happened the table is empty.
    assert!(table_at(&trace, 0).is_empty());
}

/// Lesson C's reconciliation step says the key still names the refunded charge: the key table
/// at B's end keeps order 2's stored answer, charge #3, which the job refunded.
#[test]
fn after_reconciliation_the_key_still_names_the_refunded_charge() {
    let query = "seed=7&orders=3&dedup=atomic&loss_provider=0.3&retries=5&reconcile_ms=900";
    let trace = idemlab_core::sim::run(&idemlab_core::scenario::decode(query).unwrap().scenario);
    let view = idemlab_app::key_store(&trace, None);
    let rows: Vec<String> = view
        .rows
        .iter()
        .map(|r| format!("{} {}", r.key, r.response))
        .collect();
    assert!(
        rows.contains(&"case-1/work-2 200, charge #3".to_string()),
        "{rows:?}"
    );
}
