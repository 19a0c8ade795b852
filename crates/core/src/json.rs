//! The trace's JSON, written by hand: the page's export and the CLI's `--trace` share
//! `Trace::json`, byte for byte the text `serde_json::to_string_pretty` makes of the trace's
//! derived `Serialize` (`tests/json.rs` compares the two over every event kind and the presets).
//! The page carries this writer instead of serde's machinery for the event's flattened,
//! internally tagged enums, which cost it several times the bytes.

use std::fmt::Write as _;

use crate::trace::{
    ClaimResult, DropCause, Event, EventKind, Found, Key, Node, Outcome, Payload, Recovery,
    RollbackCause, Trace,
};

/// A pretty printer with serde_json's layout: two spaces a level, `": "` after a key, an empty
/// object or list as `{}` or `[]`. Its methods are kept out of line: the core is built for
/// speed (`opt-level = 3`), which would otherwise copy each of them into every field written.
pub struct Pretty<'a> {
    out: &'a mut String,
    depth: u32,
    /// No item yet in the object or list last opened.
    first: bool,
}

impl<'a> Pretty<'a> {
    /// A writer appending to `out`, whose text starts `depth` levels in (an event inside the
    /// trace's `events` list is two).
    pub fn new(out: &'a mut String, depth: u32) -> Pretty<'a> {
        Pretty {
            out,
            depth,
            first: true,
        }
    }

    fn open(&mut self, bracket: char) {
        self.out.push(bracket);
        self.depth += 1;
        self.first = true;
    }

    #[inline(never)]
    fn close(&mut self, bracket: char) {
        self.depth -= 1;
        if !self.first {
            self.newline();
        }
        self.out.push(bracket);
        self.first = false;
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    /// Starts the next item of a list.
    fn item(&mut self) {
        if !self.first {
            self.out.push(',');
        }
        self.newline();
        self.first = false;
    }

    #[inline(never)]
    fn key(&mut self, key: &str) {
        self.item();
        self.string(key);
        self.out.push_str(": ");
    }

    fn string(&mut self, text: &str) {
        string(self.out, text);
    }

    #[inline(never)]
    fn number(&mut self, key: &str, value: u64) {
        self.key(key);
        let _ = write!(self.out, "{value}");
    }

    #[inline(never)]
    fn maybe(&mut self, key: &str, value: Option<u64>) {
        match value {
            Some(value) => self.number(key, value),
            None => {
                self.key(key);
                self.out.push_str("null");
            }
        }
    }

    #[inline(never)]
    fn flag(&mut self, key: &str, value: bool) {
        self.key(key);
        self.out.push_str(if value { "true" } else { "false" });
    }

    #[inline(never)]
    fn text(&mut self, key: &str, value: &str) {
        self.key(key);
        self.string(value);
    }

    #[inline(never)]
    fn hex32(&mut self, key: &str, value: u32) {
        self.text(key, &format!("{value:08x}"));
    }

    /// `{"kind": NAME` …: an internally tagged variant, closed by `close('}')`.
    #[inline(never)]
    fn tagged(&mut self, key: &str, tag: &str, name: &str) {
        self.key(key);
        self.open('{');
        self.text(tag, name);
    }
}

/// `text` as a JSON string, with serde_json's escapes: `"`, `\` and the control characters
/// (the page's messages to a course page use it too).
pub fn string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The whole trace, as `Trace::json` returns it.
pub fn trace(trace: &Trace) -> String {
    let mut out = String::new();
    let mut w = Pretty::new(&mut out, 0);
    w.open('{');
    w.text("scenario", &trace.query());
    w.number("seed", trace.seed);
    w.key("pods");
    w.open('[');
    for pod in &trace.pods {
        w.item();
        w.open('{');
        w.hex32("uid", pod.uid);
        w.number("client", pod.client.into());
        w.flag("rerun", pod.rerun);
        w.close('}');
    }
    w.close(']');
    w.key("events");
    w.open('[');
    for event in trace.events.iter() {
        w.item();
        event_fields(&mut w, event);
    }
    w.close(']');
    w.flag("truncated", trace.truncated);
    w.close('}');
    out
}

/// One event at `depth` levels in, from its opening brace to its closing one.
pub fn event(out: &mut String, depth: u32, event: &Event) {
    event_fields(&mut Pretty::new(out, depth), event);
}

fn event_fields(w: &mut Pretty, event: &Event) {
    w.open('{');
    w.number("time_us", event.time_us);
    node(w, "node", event.node);
    w.maybe("order", event.order().map(u64::from));
    w.maybe("attempt", event.attempt().map(u64::from));
    w.maybe("pod", event.pod().map(u64::from));
    w.maybe("req", event.req().map(u64::from));
    match event.key {
        Some(k) => key(w, k),
        None => w.maybe("key", None),
    }
    w.text("type", kind_name(&event.kind));
    kind_fields(w, &event.kind);
    w.close('}');
}

fn node(w: &mut Pretty, key: &str, node: Node) {
    let name = match node {
        Node::Client(_) => "client",
        Node::Api => "api",
        Node::Payment => "payment",
        Node::Db => "db",
        Node::Queue => "queue",
        Node::Consumer => "consumer",
    };
    w.tagged(key, "kind", name);
    if let Node::Client(pod) = node {
        w.number("pod", pod.into());
    }
    w.close('}');
}

fn key(w: &mut Pretty, key: Key) {
    let tenant = |w: &mut Pretty, tenant: u16| {
        if tenant != 0 {
            w.number("tenant", tenant.into());
        }
    };
    match key {
        Key::Business { work, tenant: t } => {
            w.tagged("key", "kind", "business");
            w.number("work", work.into());
            tenant(w, t);
        }
        Key::Process {
            process,
            work,
            tenant: t,
        } => {
            w.tagged("key", "kind", "process");
            w.hex32("process", process);
            w.number("work", work.into());
            tenant(w, t);
        }
        Key::Attempt { uuid } => {
            w.tagged("key", "kind", "attempt");
            w.text("uuid", &format!("{uuid:016x}"));
        }
        Key::Constant { tenant: t } => {
            w.tagged("key", "kind", "constant");
            tenant(w, t);
        }
    }
    w.close('}');
}

fn payload(w: &mut Pretty, payload: Payload) {
    use Payload as P;
    let name = match payload {
        P::Request { .. } => "request",
        P::Response { .. } => "response",
        P::Charge { .. } => "charge",
        P::Charged { .. } => "charged",
        P::ChargeFailed { .. } => "charge-failed",
        P::FindCharge => "find-charge",
        P::ChargeFound { .. } => "charge-found",
        P::Find => "find",
        P::Found { .. } => "found",
        P::Publish { .. } => "publish",
        P::Delivery { .. } => "delivery",
        P::Ack { .. } => "ack",
    };
    w.tagged("payload", "kind", name);
    match payload {
        P::Request { body } => w.number("body", body.into()),
        P::Response {
            status,
            number,
            replay,
            retry_after_ms,
        } => {
            w.number("status", status.into());
            w.maybe("number", number.map(u64::from));
            w.flag("replay", replay);
            if let Some(ms) = retry_after_ms {
                w.number("retry_after_ms", ms.get().into());
            }
        }
        P::Charge { keyed } => w.flag("keyed", keyed),
        P::Charged { number } => w.number("number", number.into()),
        P::ChargeFailed { status } => w.number("status", status.into()),
        P::ChargeFound { number } | P::Found { number } => w.maybe("number", number.map(u64::from)),
        P::Publish { event } => w.number("event", event.into()),
        P::Delivery { event, delivery } | P::Ack { event, delivery } => {
            w.number("event", event.into());
            w.number("delivery", delivery.into());
        }
        P::FindCharge | P::Find => {}
    }
    w.close('}');
}

/// An event kind's `type`, kebab-case as serde's `rename_all` writes it.
fn kind_name(kind: &EventKind) -> &'static str {
    use EventKind as K;
    match kind {
        K::PodStart { .. } => "pod-start",
        K::OrderStart => "order-start",
        K::Send { .. } => "send",
        K::Deliver { .. } => "deliver",
        K::Drop { .. } => "drop",
        K::Timeout => "timeout",
        K::Retry { .. } => "retry",
        K::OrderDone { .. } => "order-done",
        K::AttemptRow { .. } => "attempt-row",
        K::TxBegin { .. } => "tx-begin",
        K::Lookup { .. } => "lookup",
        K::Claim { .. } => "claim",
        K::KeyExpired => "key-expired",
        K::RecoveryPoint { .. } => "recovery-point",
        K::Takeover { .. } => "takeover",
        K::Charge { .. } => "charge",
        K::ChargeFailed { .. } => "charge-failed",
        K::ChargeLookup { .. } => "charge-lookup",
        K::CallTimeout => "call-timeout",
        K::KeyDeleted { .. } => "key-deleted",
        K::WorkLookup { .. } => "work-lookup",
        K::LedgerRow { .. } => "ledger-row",
        K::Refund { .. } => "refund",
        K::Write { .. } => "write",
        K::Applied { .. } => "applied",
        K::Store { .. } => "store",
        K::Commit { .. } => "commit",
        K::Rollback { .. } => "rollback",
        K::Reply { .. } => "reply",
        K::Crash => "crash",
        K::Restart => "restart",
        K::Replace { .. } => "replace",
        K::DbRestart { .. } => "db-restart",
        K::Inbox { .. } => "inbox",
        K::Receipt { .. } => "receipt",
        K::MailReplay { .. } => "mail-replay",
        K::ConsumerCrash { .. } => "consumer-crash",
        K::ConsumerRestart => "consumer-restart",
        K::Redeliver { .. } => "redeliver",
        K::EventLost { .. } => "event-lost",
        K::BrokerDedup { .. } => "broker-dedup",
        K::DeadLetter { .. } => "dead-letter",
        K::CapReached => "cap-reached",
    }
}

fn kind_fields(w: &mut Pretty, kind: &EventKind) {
    use EventKind as K;
    match *kind {
        K::PodStart { uid, rerun } => {
            w.hex32("uid", uid);
            w.flag("rerun", rerun);
        }
        K::Send {
            msg,
            to,
            payload: p,
        } => {
            w.number("msg", msg.into());
            node(w, "to", to);
            payload(w, p);
        }
        K::Deliver { msg } => w.number("msg", msg.into()),
        K::Drop { msg, cause } => {
            w.number("msg", msg.into());
            w.text("cause", drop_cause(cause));
        }
        K::Retry { delay_us } => w.number("delay_us", delay_us),
        K::OrderDone { outcome, status } => {
            w.text("outcome", outcome_name(outcome));
            w.maybe("status", status.map(u64::from));
        }
        K::AttemptRow { row } => w.number("row", row.into()),
        K::TxBegin { txn } | K::Commit { txn } => w.number("txn", txn.into()),
        K::Lookup { found } => w.text("found", found_name(found)),
        K::Claim { result } => w.text("result", claim_name(result)),
        K::RecoveryPoint { point } | K::Takeover { point } => w.text("point", recovery_name(point)),
        K::Charge { number, replay } => {
            w.number("number", number.into());
            w.flag("replay", replay);
        }
        K::ChargeFailed { status } | K::KeyDeleted { status } | K::Store { status } => {
            w.number("status", status.into())
        }
        K::ChargeLookup { number } | K::WorkLookup { number } => {
            w.maybe("number", number.map(u64::from))
        }
        K::LedgerRow {
            number,
            txn,
            reconciled,
        } => {
            w.number("number", number.into());
            w.maybe("txn", txn.map(u64::from));
            if reconciled {
                w.flag("reconciled", true);
            }
        }
        K::Refund { number } | K::EventLost { number } => w.number("number", number.into()),
        K::Write { value, txn } => {
            w.number("value", value.into());
            w.maybe("txn", txn.map(u64::from));
        }
        K::Applied { value } => w.number("value", value.into()),
        K::Rollback { txn, cause } => {
            w.number("txn", txn.into());
            w.text("cause", rollback_name(cause));
        }
        K::Reply { status, replay } => {
            w.number("status", status.into());
            w.flag("replay", replay);
        }
        K::Replace { uid, boot, wiped } => {
            w.hex32("uid", uid);
            w.number("boot", boot.into());
            w.flag("wiped", wiped);
        }
        K::DbRestart { uid, boot } => {
            w.hex32("uid", uid);
            w.number("boot", boot.into());
        }
        K::Inbox { event, fresh } => {
            w.number("event", event.into());
            w.flag("fresh", fresh);
        }
        K::Receipt { event, number }
        | K::MailReplay { event, number }
        | K::BrokerDedup { event, number } => {
            w.number("event", event.into());
            w.number("number", number.into());
        }
        K::ConsumerCrash { event, inbox } => {
            w.number("event", event.into());
            w.flag("inbox", inbox);
        }
        K::Redeliver { event, delivery } => {
            w.number("event", event.into());
            w.number("delivery", delivery.into());
        }
        K::DeadLetter { event } => w.number("event", event.into()),
        K::OrderStart
        | K::Timeout
        | K::KeyExpired
        | K::CallTimeout
        | K::Crash
        | K::Restart
        | K::ConsumerRestart
        | K::CapReached => {}
    }
}

fn drop_cause(cause: DropCause) -> &'static str {
    match cause {
        DropCause::Loss => "loss",
        DropCause::Partition => "partition",
        DropCause::ApiDown => "api-down",
        DropCause::CallerGone => "caller-gone",
        DropCause::Late => "late",
        DropCause::Chosen => "chosen",
        DropCause::ConsumerDown => "consumer-down",
    }
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Ok => "ok",
        Outcome::Failed => "failed",
        Outcome::Unknown => "unknown",
    }
}

fn found_name(found: Found) -> &'static str {
    match found {
        Found::NotFound => "not-found",
        Found::Completed => "completed",
        Found::InProgress => "in-progress",
        Found::Mismatch => "mismatch",
        Found::Expired => "expired",
    }
}

fn claim_name(result: ClaimResult) -> &'static str {
    match result {
        ClaimResult::Ok => "ok",
        ClaimResult::Blocked => "blocked",
        ClaimResult::Conflict => "conflict",
        ClaimResult::InUse => "in-use",
    }
}

fn recovery_name(point: Recovery) -> &'static str {
    match point {
        Recovery::Started => "started",
        Recovery::Finished => "finished",
    }
}

fn rollback_name(cause: RollbackCause) -> &'static str {
    match cause {
        RollbackCause::Crash => "crash",
        RollbackCause::DbReplaced => "db-replaced",
        RollbackCause::DbRestarted => "db-restarted",
        RollbackCause::Conflict => "conflict",
        RollbackCause::ReadOnly => "read-only",
        RollbackCause::NoCommit => "no-commit",
    }
}
