//! Named starting points. Each preset is a query fragment over the defaults, written in the
//! same codec the URL uses, so a preset can never mean something the codec cannot say.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    LostAck,
    Race,
    Restart,
    PodRerun,
    LedgerReplaced,
    KeyExpiry,
    OutsideBoundary,
    NaiveVsAtomic,
}

/// What a preset sets, what it shows, and what configuration B the page compares it with.
pub struct PresetSpec {
    pub preset: Preset,
    pub name: &'static str,
    pub summary: &'static str,
    /// Keys over `Scenario::default()`, in codec form. Explicit keys in a query override them.
    pub keys: &'static str,
    /// Keys that turn this scenario into its fix, for the page's compare view.
    pub fix: &'static str,
    /// Whether picking the preset on the page turns the compare view on with the fix.
    pub compare: bool,
}

// A static, not a const: a const would be copied into the binary at every place that uses it.
pub static PRESETS: [PresetSpec; 8] = [
    PresetSpec {
        preset: Preset::LostAck,
        name: "lost-ack",
        summary: "Responses are lost on the way back; the client retries and every retry charges again.",
        keys: "orders=4&partition=0..400&loss_resp=0.2&retries=3&backoff_ms=40",
        fix: "dedup=atomic",
        compare: false,
    },
    PresetSpec {
        preset: Preset::Race,
        name: "race",
        summary: "The client times out while the first attempt is still charging; with check-then-insert both copies read \"not found\".",
        keys: "orders=3&dedup=naive&timeout_ms=45&retries=3&backoff_ms=5&latency_ms=5..15",
        fix: "dedup=atomic",
        compare: false,
    },
    PresetSpec {
        preset: Preset::Restart,
        name: "restart",
        summary: "The API crashes after committing and before answering; its in-memory keys die with it, so the retry charges again.",
        keys: "orders=3&dedup=atomic&store=memory&crash=api@after-commit&restart_ms=60&backoff_ms=40",
        fix: "store=durable",
        compare: false,
    },
    PresetSpec {
        preset: Preset::PodRerun,
        name: "pod-rerun",
        summary: "An operator reruns the job in a new pod; keys made from the pod's UID miss the earlier work.",
        keys: "orders=3&dedup=atomic&key=process&rerun_ms=400",
        fix: "key=business",
        compare: false,
    },
    PresetSpec {
        preset: Preset::LedgerReplaced,
        name: "ledger-replaced",
        summary: "The ledger pod is replaced and its emptyDir goes with it; a rerun afterwards is not recognised.",
        keys: "orders=3&dedup=atomic&store=pod&replace_db_ms=350&rerun_ms=400",
        fix: "store=durable",
        compare: false,
    },
    PresetSpec {
        preset: Preset::KeyExpiry,
        name: "key-expiry",
        summary: "Keys are kept for 150 ms, but the client is still retrying after that; the late retry is treated as new.",
        keys: "orders=2&dedup=atomic&partition=0..700&retention_ms=150&retries=4&backoff_ms=60",
        fix: "retention_ms=86400000",
        compare: false,
    },
    PresetSpec {
        preset: Preset::OutsideBoundary,
        name: "outside-boundary",
        summary: "The API crashes after the charge and before the commit; the ledger rolls back, the payment service does not.",
        keys: "orders=3&dedup=atomic&crash=api@after-effect&restart_ms=40&backoff_ms=40",
        fix: "provider=keyed",
        compare: false,
    },
    PresetSpec {
        preset: Preset::NaiveVsAtomic,
        name: "naive-vs-atomic",
        summary: "Eight orders whose retries overlap in flight: check-then-insert against a unique claim in one transaction.",
        keys: "orders=8&dedup=naive&timeout_ms=45&retries=3&backoff_ms=5&latency_ms=5..15&loss_resp=0.1",
        fix: "dedup=atomic",
        compare: true,
    },
];

/// The preset reference as a Markdown table; README embeds it and a test keeps the two equal.
pub fn markdown_table() -> String {
    let mut out =
        String::from("| preset | sets | fix (for compare) | what it shows |\n|---|---|---|---|\n");
    for spec in PRESETS.iter() {
        out.push_str(&format!(
            "| `{}` | `{}` | `{}` | {} |\n",
            spec.name, spec.keys, spec.fix, spec.summary
        ));
    }
    out
}

impl Preset {
    pub fn spec(self) -> &'static PresetSpec {
        PRESETS
            .iter()
            .find(|spec| spec.preset == self)
            .expect("every preset has a spec")
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        PRESETS
            .iter()
            .find(|spec| spec.name == name)
            .map(|spec| spec.preset)
    }

    pub fn names() -> impl Iterator<Item = &'static str> {
        PRESETS.iter().map(|spec| spec.name)
    }
}
