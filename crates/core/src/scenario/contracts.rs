//! Named contracts: each one a real API's or queue's documented idempotency rule, written as
//! scenario keys in the codec's own form, like a preset. The codec applies the preset first,
//! then the contract, then the query's explicit keys, so an explicit key always wins.
//!
//! A contract sets the API's idempotency layer (or, for `sqs-fifo`, the queue); the fault and
//! the payment service (`provider=`) stay as the query sets them. Where a source's rule is
//! something the model cannot say, `outside` says so instead of pretending.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Contract {
    StripeV1,
    IetfDraft,
    Powertools,
    Oasis,
    SqsFifo,
}

impl Contract {
    pub const ALL: [Contract; 5] = [
        Contract::StripeV1,
        Contract::IetfDraft,
        Contract::Powertools,
        Contract::Oasis,
        Contract::SqsFifo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Contract::StripeV1 => "stripe-v1",
            Contract::IetfDraft => "ietf-draft",
            Contract::Powertools => "powertools",
            Contract::Oasis => "oasis",
            Contract::SqsFifo => "sqs-fifo",
        }
    }

    /// The keys it sets over the preset (or the defaults), in codec form.
    pub fn keys(self) -> &'static str {
        match self {
            Contract::StripeV1 => {
                "dedup=atomic&concurrent=conflict&replay=all&expired=new&retention_ms=86400000"
            }
            Contract::IetfDraft => "dedup=atomic&concurrent=conflict&replay=all&expired=new",
            Contract::Powertools => {
                "dedup=atomic&handler=phased&lease_ms=200&concurrent=wait&replay=success\
                 &expired=new&retention_ms=3600000"
            }
            Contract::Oasis => {
                "dedup=atomic&concurrent=conflict&replay=final&expired=reject&retention_ms=300000"
            }
            Contract::SqsFifo => {
                "consumer=plain&relay=outbox&broker_dedup_ms=300000&visibility_ms=30000"
            }
        }
    }

    pub fn from_name(name: &str) -> Option<Contract> {
        Contract::ALL.into_iter().find(|c| c.name() == name)
    }

    pub fn names() -> impl Iterator<Item = &'static str> {
        Contract::ALL.into_iter().map(Contract::name)
    }

    /// Where the rule is documented.
    pub fn source(self) -> &'static str {
        match self {
            Contract::StripeV1 => "Stripe API v1, docs.stripe.com \"Idempotent requests\"",
            Contract::IetfDraft => {
                "IETF draft-ietf-httpapi-idempotency-key-header-07 (15 Oct 2025)"
            }
            Contract::Powertools => "AWS Lambda Powertools, Idempotency utility",
            Contract::Oasis => {
                "OASIS Repeatable Requests 1.0, as run by Azure Communication Services"
            }
            Contract::SqsFifo => "Amazon SQS FIFO queues, message deduplication",
        }
    }

    /// The one-line rule the keys encode.
    pub fn rule(self) -> &'static str {
        match self {
            Contract::StripeV1 => {
                "The result is saved once execution begins and replayed, 500s included; a \
                 concurrent request is answered 409; keys are pruned after 24 h."
            }
            Contract::IetfDraft => {
                "A request without a key is answered 400; a retry while the first is \
                 processing, 409; after completion the stored result is returned, success or \
                 error."
            }
            Contract::Powertools => {
                "The in-progress record is committed first and runs again once its \
                 in-progress expiry passes; an unhandled exception deletes the record; completed \
                 records expire after 3,600 s by default."
            }
            Contract::Oasis => {
                "In progress → 409; an earlier 2xx or 4xx is replayed, an earlier 5xx runs \
                 again; past the 5-minute window → 412."
            }
            Contract::SqsFifo => {
                "A message whose deduplication id was accepted in the last 5 minutes is \
                 accepted and not delivered again; an unacknowledged message is delivered \
                 again after the visibility timeout (30 s by default)."
            }
        }
    }

    /// What the source says that the lab's keys cannot express.
    pub fn outside(self) -> &'static str {
        match self {
            Contract::StripeV1 => {
                "A body mismatch is 400 at Stripe, 422 here; the rate limiter and \
                 authentication (429, 401) are not modelled; Stripe prunes a key when it is \
                 at least 24 h old, the lab at exactly `retention_ms`; the lab's 409 carries a \
                 `Retry-After`."
            }
            Contract::IetfDraft => {
                "The same keys as `stripe-v1` but `retention_ms`, which stays as the query sets \
                 it (the draft leaves expiry to the resource's published policy); the lab's 409 \
                 carries a `Retry-After`, which the draft does not require."
            }
            Contract::Powertools => {
                "`lease_ms=200` stands for the invocation's remaining time: Lambda stops the \
                 invocation then, the lab's handler is never stopped, so a lease shorter than \
                 the work is taken from a live copy; the lab deletes the key on every failure, \
                 a decline included, as if each were an unhandled exception; a changed body \
                 gets 422 here, where Powertools raises a validation error only when payload \
                 validation is configured and otherwise returns the stored result silently."
            }
            Contract::Oasis => {
                "The window runs from the key row's creation, not from \
                 `Repeatability-First-Sent`; a differing duplicate is 400 there, 422 here; \
                 the lab's 409 carries a `Retry-After`; after a 412 the lab's client looks the \
                 order up by its business key, the rule the Ad Context Protocol (AdCP) states."
            }
            Contract::SqsFifo => {
                "The deduplication id is the charge the event carries (content-based \
                 deduplication hashes the body); the API's keys stay as the query sets them; \
                 add `consumer=inbox` for the consumer's own check."
            }
        }
    }
}

/// The contract reference as a Markdown table; README embeds it and a test keeps the two equal.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| contract | source | rule | sets | outside the model |\n|---|---|---|---|---|\n",
    );
    for c in Contract::ALL {
        out.push_str(&format!(
            "| `{}` | {} | {} | `{}` | {} |\n",
            c.name(),
            c.source(),
            c.rule(),
            c.keys(),
            c.outside()
        ));
    }
    out
}
