//! The SQL listing (`idemlab run --sql`): which steps it lists, and that its expectations pair
//! up the way a database's would. `tests/pg/conformance.test.mjs` replays it on PostgreSQL.

use idemlab_core::scenario::codec;
use idemlab_core::trace::{EventKind, Node};
use idemlab_lab::sql::{statements, Expect};

fn listing(query: &str) -> (idemlab_core::trace::Trace, Vec<idemlab_lab::sql::Statement>) {
    let scenario = codec::decode(query).expect("a valid query").scenario;
    let trace = idemlab_core::sim::run(&scenario);
    let list = statements(&trace);
    (trace, list)
}

#[test]
fn every_database_step_of_a_request_is_listed_once_in_trace_order() {
    for seed in 0..40 {
        let query = format!("preset=race&seed={seed}&dedup=atomic&store=durable");
        let (trace, list) = listing(&query);
        let db_steps = (trace.events.iter())
            .filter(|e| e.node == Node::Db && e.req().is_some())
            .filter(|e| !matches!(e.kind, EventKind::Applied { .. }))
            .count();
        assert_eq!(list.len(), db_steps, "{query}");
        assert!(list.windows(2).all(|w| w[0].event < w[1].event), "{query}");
    }
}

#[test]
fn a_blocked_insert_returns_once_with_the_same_statement_or_its_transaction_ends() {
    for seed in 0..60 {
        for extra in [
            "",
            "&provider_fail=0.5&replay=success",
            "&crash=api@after-claim",
        ] {
            let query = format!("preset=race&seed={seed}&dedup=atomic&store=durable{extra}");
            let (_, list) = listing(&query);
            for (at, s) in list.iter().enumerate() {
                if s.expect != Expect::Blocks {
                    continue;
                }
                let next = list[at + 1..].iter().find(|later| later.req == s.req);
                let next =
                    next.unwrap_or_else(|| panic!("{query}: request {} blocks for ever", s.req));
                match next.expect {
                    Expect::Resumes { .. } => assert_eq!(next.sql, s.sql, "{query}"),
                    // Its process crashed while it waited: the transaction ends.
                    _ => assert_eq!(next.sql, "ROLLBACK", "{query}"),
                }
            }
        }
    }
}

#[test]
fn keys_in_the_api_memory_are_not_sql_and_a_409_without_waiting_is_a_lock_timeout() {
    let (_, list) = listing("preset=race&seed=1&dedup=atomic&store=memory");
    assert!(list.iter().all(|s| !s.sql.contains("idempotency_keys")));
    assert!(list.iter().any(|s| s.sql.starts_with("INSERT INTO ledger")));

    let (_, list) = listing("preset=race&seed=1&dedup=atomic&concurrent=conflict");
    let timeouts: Vec<_> = list
        .iter()
        .filter(|s| s.expect == Expect::LockNotAvailable)
        .collect();
    assert!(!timeouts.is_empty());
    for s in timeouts {
        let begin = list
            .iter()
            .find(|b| b.req == s.req && b.sql.starts_with("BEGIN"));
        assert_eq!(
            begin.map(|b| b.sql.as_str()),
            Some("BEGIN; SET LOCAL lock_timeout = '1ms'")
        );
    }
}

#[test]
fn a_replayed_lookup_names_the_status_the_api_answers_with() {
    let (trace, list) = listing("preset=race&seed=1&dedup=atomic");
    let replays = list.iter().filter(|s| {
        matches!(
            s.expect,
            Expect::Found {
                status: Some(_),
                ..
            }
        )
    });
    let mut seen = 0;
    for s in replays {
        let Expect::Found {
            status: Some(status),
            ..
        } = s.expect
        else {
            unreachable!()
        };
        let reply = trace.events[s.event as usize..].iter().find(|e| {
            e.req() == Some(s.req) && matches!(e.kind, EventKind::Reply { replay: true, .. })
        });
        assert!(
            matches!(reply.map(|e| e.kind), Some(EventKind::Reply { status: st, .. }) if st == status)
        );
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn one_event_s_statement_is_the_one_in_the_whole_listing() {
    for query in [
        "preset=race&seed=3&dedup=atomic",
        "preset=race&seed=1&dedup=atomic&provider_fail=0.5&replay=success",
        "preset=race&seed=2&dedup=atomic&handler=phased&lease_ms=20",
        "preset=restart&seed=1&store=durable&dedup=atomic",
    ] {
        let (trace, list) = listing(query);
        let mut listed = list.iter().peekable();
        for ix in 0..trace.events.len() {
            let alone = idemlab_lab::sql::statement_at(&trace, ix);
            let expected = listed.next_if(|s| s.event as usize == ix);
            assert_eq!(alone.as_ref(), expected, "{query}, event {ix}");
        }
    }
}

#[test]
fn the_last_statements_at_a_cursor_are_the_listing_s_tail_up_to_it() {
    let (trace, list) = listing("preset=race&seed=3&dedup=atomic&store=durable");
    for to in [
        0,
        5,
        40,
        trace.events.len() / 2,
        trace.events.len() - 1,
        trace.events.len() + 9,
    ] {
        for max in [0, 1, 4, 1_000] {
            let up_to: Vec<_> = list.iter().filter(|s| (s.event as usize) <= to).collect();
            let tail = &up_to[up_to.len().saturating_sub(max)..];
            let got = idemlab_lab::sql::last_statements(&trace, to, max);
            assert_eq!(got.iter().collect::<Vec<_>>(), tail, "to {to}, max {max}");
        }
    }
}

#[test]
fn the_page_shows_a_database_step_s_sql_in_its_details_and_the_last_ones_in_the_tables_tab() {
    let (trace, list) = listing("preset=race&seed=1&dedup=atomic");
    let blocked = list.iter().find(|s| s.expect == Expect::Blocks).unwrap();
    let tooltip = idemlab_app::cursor_tooltip(&trace, blocked.event as usize).unwrap();
    assert!(
        tooltip.contains(&format!("SQL: {}; waits on the unique index", blocked.sql)),
        "{tooltip}"
    );
    let client_event = trace
        .events
        .iter()
        .position(|e| e.node != Node::Db)
        .unwrap();
    assert!(!idemlab_app::cursor_tooltip(&trace, client_event)
        .unwrap()
        .contains("SQL:"));

    let rows = idemlab_app::sql_rows(&trace, blocked.event as usize);
    assert_eq!(
        rows.len(),
        idemlab_app::SQL_ROWS_MAX.min(list.iter().filter(|s| s.event <= blocked.event).count())
    );
    let last = rows.last().unwrap();
    assert_eq!(last[3], blocked.sql);
    assert!(last[4].starts_with("waits on the unique index"));
}
