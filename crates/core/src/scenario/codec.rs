//! The one codec for scenarios: URL query, CLI argument and presets all go through here.
//!
//! `decode` turns `seed=7&preset=race&dedup=atomic` (or a whole page URL) into a `Scenario`;
//! `encode` gives the canonical string back: the seed, the preset, then only the keys that differ
//! from what the preset (or the defaults) already say, in table order. Decoding the canonical
//! string gives the same scenario. Every problem is a `CodecError` naming the key and what is
//! allowed; nothing here panics on any input.

use std::fmt;

use serde::Serialize;

use super::contracts::Contract;
use super::presets::Preset;
use super::Store;
use super::{bounds, Concurrent, Consumer, ConsumerCrash, Crash, Dedup, KeyStrategy, Mail, Op};
use super::{Expired, Handler, Lookup, Provider, Relay, Replay, Scope};
use super::{Ppm, PPM_ONE};
use super::{RangeMs, Scenario, Step};

/// Longer input is refused before any parsing, so a hostile link costs nothing.
pub const QUERY_LEN_MAX: usize = 8 * 1024;
/// More pairs than this is refused for the same reason; the real key count is far below it.
pub const PAIRS_MAX: usize = 64;
/// Values are quoted back in messages at most this long.
const QUOTE_LEN_MAX: usize = 40;

/// Keys that belong to the page's view (cursor, compare, embed...), not to the run. The codec
/// accepts and returns them untouched so that a page URL pasted into the CLI still decodes.
pub const VIEW_KEYS: [&str; 22] = [
    "cursor", "compare", "embed", "controls", "lesson", "step", "quiz", "theme", "zoom", "speed",
    "sweep", "tab", "focus", "keys", "gate", "report", "hide", "height", "steps", "v", "lang",
    "build",
];

/// Keys that link trackers append (`utm_*` and the click ids below). They say nothing about the
/// run or the view, so every decoder skips them without a word: a shared link that picked one
/// up loads as it was written.
const TRACKERS: [&str; 16] = [
    "fbclid",
    "gclid",
    "gbraid",
    "wbraid",
    "dclid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "yclid",
    "igshid",
    "twclid",
    "ttclid",
    "li_fat_id",
    "_ga",
    "_gl",
    "srsltid",
];

/// Whether a key is a link tracker's (`utm_source`, `fbclid`...), skipped by `decode_lenient`.
pub fn is_tracker(key: &str) -> bool {
    key.starts_with("utm_") || TRACKERS.contains(&key)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    pub scenario: Scenario,
    /// View keys in the order given, already percent-decoded.
    pub view: Vec<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Problem {
    /// The key is neither a scenario key nor a view key.
    UnknownKey,
    /// The key appears twice; which one to believe is not ours to guess.
    Repeated,
    /// The value is not of the right form.
    Malformed { allowed: String },
    /// The value has the right form but lies outside the bounds.
    OutOfBounds { allowed: String },
    /// The whole query is longer than `QUERY_LEN_MAX` or has more than `PAIRS_MAX` pairs.
    TooLong { allowed: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CodecError {
    pub key: String,
    /// The offending value, shortened and with control characters escaped, safe to show as text.
    pub value: String,
    pub problem: Problem,
}

/// Every codec error's sentence, by problem (`CodecError::template`).
pub const ERROR_TEMPLATES: [&str; 5] = [
    "unknown key `{}`; scenario keys are {}; view keys are {}",
    "key `{}` is given more than once; give it once",
    "`{}={}` is not valid: expected {}",
    "`{}={}` is out of bounds: allowed {}",
    "the {} is too long: allowed {}",
];

impl CodecError {
    /// The sentence for this problem with `{}` holes, in English: the one text of each codec
    /// error. The CLI fills it as it is (`Display`); the page fills its translation
    /// (`lab::i18n`'s table holds these templates).
    pub fn template(&self) -> &'static str {
        ERROR_TEMPLATES[match self.problem {
            Problem::UnknownKey => 0,
            Problem::Repeated => 1,
            Problem::Malformed { .. } => 2,
            Problem::OutOfBounds { .. } => 3,
            Problem::TooLong { .. } => 4,
        }]
    }

    /// What fills the template's holes, in order: the codec's own vocabulary (keys, values,
    /// what is allowed), never translated.
    pub fn holes(&self) -> Vec<String> {
        let (key, value) = (self.key.clone(), self.value.clone());
        match &self.problem {
            Problem::UnknownKey => vec![
                key,
                key_names().collect::<Vec<_>>().join(", "),
                VIEW_KEYS.join(", "),
            ],
            Problem::Repeated => vec![key],
            Problem::Malformed { allowed } | Problem::OutOfBounds { allowed } => {
                vec![key, value, allowed.to_string()]
            }
            Problem::TooLong { allowed } => vec![key, allowed.to_string()],
        }
    }
}

/// The template with each `{}` filled in order.
impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let holes = self.holes();
        let mut holes = holes.iter();
        let mut parts = self.template().split("{}");
        if let Some(first) = parts.next() {
            f.write_str(first)?;
        }
        for part in parts {
            f.write_str(holes.next().map_or("", String::as_str))?;
            f.write_str(part)?;
        }
        Ok(())
    }
}

impl std::error::Error for CodecError {}

/// Where a key's control sits on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Group {
    Run,
    Client,
    Network,
    Server,
    Faults,
    Key,
    Queue,
}

impl Group {
    pub const ALL: [Group; 7] = [
        Group::Run,
        Group::Client,
        Group::Network,
        Group::Server,
        Group::Faults,
        Group::Key,
        Group::Queue,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Group::Run => "Run",
            Group::Client => "Client",
            Group::Network => "Network",
            Group::Server => "Server & store",
            Group::Faults => "Faults",
            Group::Key => "Key",
            Group::Queue => "Queue & consumer",
        }
    }
}

/// What kind of control edits a key; the codec still validates whatever it produces.
#[derive(Clone, Copy)]
pub enum Input {
    Choice(fn() -> Vec<&'static str>),
    Number {
        lo: u32,
        hi: u32,
    },
    Probability,
    /// Free text in the codec's syntax, with examples to pick from.
    Text {
        examples: &'static [&'static str],
    },
    Toggle,
}

/// One scenario key: its name, what it does, what it allows, and how to read and write it.
pub struct KeySpec {
    pub name: &'static str,
    pub group: Group,
    pub input: Input,
    pub help: &'static str,
    pub allowed: fn() -> String,
    get: fn(&Scenario) -> String,
    set: fn(&mut Scenario, &str) -> Result<(), Problem>,
}

impl KeySpec {
    /// The canonical text of this key's value in `scenario`.
    pub fn value(&self, scenario: &Scenario) -> String {
        (self.get)(scenario)
    }
}

/// Decodes strictly: any problem fails the whole query, with every problem listed.
pub fn decode(input: &str) -> Result<Decoded, Vec<CodecError>> {
    let (decoded, errors) = decode_lenient(input);
    if errors.is_empty() {
        Ok(decoded)
    } else {
        Err(errors)
    }
}

/// Decodes what it can: a bad key is reported and skipped, and the rest still applies. The page
/// uses this so that one bad key in a link shows a banner instead of losing the whole state.
pub fn decode_lenient(input: &str) -> (Decoded, Vec<CodecError>) {
    decode_with(input, None)
}

/// Decodes strictly as `decode` does, but under `contract` (or none) whatever the query's own
/// `contract=` says: `idemlab contracts` runs one query under each contract this way.
pub fn decode_under(input: &str, contract: Option<Contract>) -> Result<Decoded, Vec<CodecError>> {
    let (decoded, errors) = decode_with(input, Some(contract));
    if errors.is_empty() {
        Ok(decoded)
    } else {
        Err(errors)
    }
}

/// The decoder. The preset applies first, then the contract, then the explicit keys, wherever
/// each stands in the query; `contract_override` replaces the query's own contract.
fn decode_with(
    input: &str,
    contract_override: Option<Option<Contract>>,
) -> (Decoded, Vec<CodecError>) {
    let mut errors = Vec::new();
    let mut decoded = Decoded {
        scenario: Scenario::default(),
        view: Vec::new(),
    };
    let pairs = match split_pairs(input) {
        Ok(pairs) => pairs,
        Err(error) => return (decoded, vec![error]),
    };
    let mut seen: Vec<&str> = Vec::new();
    let mut explicit: Vec<(&'static KeySpec, String)> = Vec::new();
    let (mut preset, mut contract) = (None, None);
    for (key, value) in &pairs {
        if is_tracker(key) {
            continue;
        }
        if seen.contains(&key.as_str()) {
            errors.push(error(key, value, Problem::Repeated));
            continue;
        }
        seen.push(key.as_str());
        if let Some(view_key) = VIEW_KEYS.iter().find(|name| **name == key) {
            decoded.view.push((view_key.to_string(), value.clone()));
        } else if key == "preset" {
            match Preset::from_name(value) {
                Some(found) => preset = Some(found),
                None => errors.push(error(key, value, malformed(preset_allowed()))),
            }
        } else if key == "contract" {
            match Contract::from_name(value) {
                Some(found) => contract = Some(found),
                None => errors.push(error(key, value, malformed(contract_allowed()))),
            }
        } else if let Some(spec) = KEYS.iter().find(|spec| spec.name == key) {
            explicit.push((spec, value.clone()));
        } else {
            errors.push(error(key, value, Problem::UnknownKey));
        }
    }
    if let Some(preset) = preset {
        apply_preset(&mut decoded.scenario, preset);
    }
    if let Some(contract) = contract_override.unwrap_or(contract) {
        apply_contract(&mut decoded.scenario, contract);
    }
    // Explicit keys override the preset and the contract wherever they stand in the query.
    for (spec, value) in explicit {
        if let Err(problem) = (spec.set)(&mut decoded.scenario, &value) {
            errors.push(error(spec.name, &value, problem));
        }
    }
    (decoded, errors)
}

/// Sets one scenario key from its text, as a control does: the same parser and bounds as a
/// query, with no other key touched.
pub fn set_key(scenario: &mut Scenario, name: &str, value: &str) -> Result<(), CodecError> {
    let Some(spec) = KEYS.iter().find(|spec| spec.name == name) else {
        return Err(error(name, value, Problem::UnknownKey));
    };
    let mut changed = scenario.clone();
    (spec.set)(&mut changed, value).map_err(|problem| error(name, value, problem))?;
    *scenario = changed;
    Ok(())
}

/// The canonical query: `seed`, then `preset` and `contract` if any, then each key whose value
/// differs from what they (over the defaults) give, in the order of `KEYS`.
pub fn encode(scenario: &Scenario) -> String {
    let mut baseline = Scenario::default();
    let mut out = format!("seed={}", scenario.seed);
    if let Some(preset) = scenario.preset {
        apply_preset(&mut baseline, preset);
        out.push_str("&preset=");
        out.push_str(preset.name());
    }
    if let Some(contract) = scenario.contract {
        apply_contract(&mut baseline, contract);
        out.push_str("&contract=");
        out.push_str(contract.name());
    }
    for spec in KEYS.iter().skip(1) {
        let value = (spec.get)(scenario);
        if value != (spec.get)(&baseline) {
            out.push('&');
            out.push_str(spec.name);
            out.push('=');
            out.push_str(&percent_encode(&value));
        }
    }
    out
}

/// Every scenario key, in canonical order (`seed` first; `preset` is handled apart).
pub fn keys() -> &'static [KeySpec] {
    &KEYS
}

pub fn key_names() -> impl Iterator<Item = &'static str> {
    std::iter::once("seed")
        .chain(["preset", "contract"])
        .chain(KEYS.iter().skip(1).map(|spec| spec.name))
}

/// The key reference as a Markdown table; README embeds it and a test keeps the two equal.
pub fn markdown_table() -> String {
    let cell = |text: &str| text.replace('|', "\\|");
    let defaults = Scenario::default();
    let mut out = String::from("| key | default | allowed | what it does |\n|---|---|---|---|\n");
    out.push_str(&format!(
        "| `preset` | | {} | Start from a named scenario; explicit keys override it. |\n",
        cell(&preset_allowed())
    ));
    out.push_str(&format!(
        "| `contract` | | {} | Apply a real API's (or queue's) documented idempotency rule as keys (see Contracts), after the preset; explicit keys override it. |\n",
        cell(&contract_allowed())
    ));
    for spec in KEYS.iter() {
        let default = spec.value(&defaults);
        let allowed = cell(&(spec.allowed)());
        out.push_str(&format!(
            "| `{}` | `{default}` | {allowed} | {} |\n",
            spec.name, spec.help
        ));
    }
    out
}

pub fn preset_allowed() -> String {
    format!("one of {}", Preset::names().collect::<Vec<_>>().join("|"))
}

pub fn contract_allowed() -> String {
    format!("one of {}", Contract::names().collect::<Vec<_>>().join("|"))
}

fn apply_contract(scenario: &mut Scenario, contract: Contract) {
    scenario.contract = Some(contract);
    apply_keys(scenario, contract.keys());
}

fn apply_preset(scenario: &mut Scenario, preset: Preset) {
    scenario.preset = Some(preset);
    apply_keys(scenario, preset.spec().keys);
}

/// Sets a preset's or a contract's keys: fixed text that the codec tests decode.
fn apply_keys(scenario: &mut Scenario, keys: &str) {
    let pairs = split_pairs(keys)
        .unwrap_or_else(|_| panic!("preset and contract keys are short and well formed"));
    for (key, value) in pairs {
        let spec = KEYS
            .iter()
            .find(|spec| spec.name == key)
            .expect("preset and contract keys are scenario keys");
        (spec.set)(scenario, &value)
            .unwrap_or_else(|_| panic!("preset and contract values are in bounds"));
    }
}

fn error(key: &str, value: &str, problem: Problem) -> CodecError {
    CodecError {
        key: quote(key),
        value: quote(value),
        problem,
    }
}

/// Shortens a value and escapes control characters so it can be echoed safely as plain text.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    for (count, ch) in text.chars().enumerate() {
        if count == QUOTE_LEN_MAX {
            out.push('…');
            break;
        }
        if ch.is_control() || is_invisible(ch) {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out
}

/// Unicode's format characters (category Cf) and the line and paragraph separators: they are
/// invisible or reorder the text around them (U+202E turns the rest of a line around), so an
/// echo of a hostile value could say something other than what was typed.
pub fn is_invisible(ch: char) -> bool {
    const RANGES: [(u32, u32); 24] = [
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x2028, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
        // Not Cf, but just as invisible where they follow nothing: variation selectors.
        (0xFE00, 0xFE0F),
        (0xE0100, 0xE01EF),
        (0x034F, 0x034F),
    ];
    let code = u32::from(ch);
    RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&code))
}

/// Splits a query (or a whole URL) into percent-decoded pairs. A bare `key` means `key=`.
fn split_pairs(input: &str) -> Result<Vec<(String, String)>, CodecError> {
    if input.len() > QUERY_LEN_MAX {
        let allowed = format!("at most {QUERY_LEN_MAX} bytes");
        return Err(error("query", "", Problem::TooLong { allowed }));
    }
    let query = extract_query(input.trim());
    let mut pairs = Vec::new();
    for part in query.split('&').filter(|part| !part.is_empty()) {
        if pairs.len() == PAIRS_MAX {
            let allowed = format!("at most {PAIRS_MAX} key=value pairs");
            return Err(error("query", "", Problem::TooLong { allowed }));
        }
        let (key, value) = part.split_once('=').unwrap_or((part, ""));
        pairs.push((percent_decode(key), percent_decode(value)));
    }
    Ok(pairs)
}

fn extract_query(input: &str) -> &str {
    let without_fragment = input.split('#').next().unwrap_or("");
    match without_fragment.split_once('?') {
        Some((_, query)) => query,
        None if without_fragment.contains("://") => "",
        None => without_fragment,
    }
}

pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        let hex = bytes.get(index + 1..index + 3).and_then(hex_pair);
        match (byte, hex) {
            (b'%', Some(decoded)) => {
                out.push(decoded);
                index += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                index += 1;
            }
            _ => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_pair(pair: &[u8]) -> Option<u8> {
    let text = std::str::from_utf8(pair).ok()?;
    u8::from_str_radix(text, 16).ok()
}

/// Percent-encodes a query value, keeping the characters the codec's own values use.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.~,@".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Value parsers. Each returns a `Problem` that says what is allowed.

fn malformed(allowed: String) -> Problem {
    Problem::Malformed { allowed }
}

fn parse_u64(value: &str, allowed: impl Fn() -> String) -> Result<u64, Problem> {
    let digits_ok =
        !value.is_empty() && value.len() <= 20 && value.bytes().all(|b| b.is_ascii_digit());
    if !digits_ok {
        return Err(malformed(allowed()));
    }
    value
        .parse::<u64>()
        .map_err(|_| Problem::OutOfBounds { allowed: allowed() })
}

fn parse_u32_in(value: &str, (lo, hi): (u32, u32)) -> Result<u32, Problem> {
    let allowed = || format!("a whole number {lo}..={hi}");
    let number = parse_u64(value, allowed)?;
    match u32::try_from(number) {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(Problem::OutOfBounds { allowed: allowed() }),
    }
}

fn parse_opt_u32_in(value: &str, range: (u32, u32)) -> Result<Option<u32>, Problem> {
    if value == "none" {
        return Ok(None);
    }
    parse_u32_in(value, range)
        .map(Some)
        .map_err(|problem| match problem {
            Problem::Malformed { allowed } => malformed(format!("{allowed}, or none")),
            other => other,
        })
}

/// A probability in [0, 1] with at most six decimals, read without floats: `0.25` is 250000 ppm.
fn parse_ppm(value: &str) -> Result<Ppm, Problem> {
    let allowed = || "a probability 0..=1 with at most 6 decimals, like 0.25".to_string();
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return Err(malformed(allowed()));
    }
    if fraction.len() > 6 || whole.len() > 7 {
        return Err(Problem::OutOfBounds { allowed: allowed() });
    }
    let whole_ppm = if whole.is_empty() {
        0
    } else {
        whole.parse::<u32>().unwrap_or(u32::MAX)
    };
    let fraction_ppm = format!("{fraction:0<6}").parse::<u32>().unwrap_or(0);
    let ppm = whole_ppm
        .saturating_mul(PPM_ONE)
        .saturating_add(fraction_ppm);
    if ppm > PPM_ONE {
        return Err(Problem::OutOfBounds { allowed: allowed() });
    }
    Ok(ppm)
}

/// A probability as the codec writes it: `0.2`, `0`, `1`.
pub fn format_ppm(ppm: Ppm) -> String {
    match ppm {
        0 => "0".into(),
        PPM_ONE => "1".into(),
        _ => format!("0.{ppm:06}").trim_end_matches('0').to_string(),
    }
}

/// `lo..hi` in milliseconds, or a single number for a fixed value.
fn parse_range(value: &str, (lo, hi): (u32, u32)) -> Result<RangeMs, Problem> {
    let allowed = || format!("a range lo..hi of whole milliseconds within {lo}..={hi}, lo <= hi");
    let (first, second) = value.split_once("..").unwrap_or((value, value));
    let bound = |text: &str| parse_u32_in(text, (lo, hi));
    match (bound(first), bound(second)) {
        (Ok(a), Ok(b)) if a <= b => Ok(RangeMs { lo: a, hi: b }),
        (Ok(_), Ok(_))
        | (Err(Problem::OutOfBounds { .. }), _)
        | (_, Err(Problem::OutOfBounds { .. })) => Err(Problem::OutOfBounds { allowed: allowed() }),
        _ => Err(malformed(allowed())),
    }
}

fn drop_allowed() -> String {
    format!(
        "none, or up to {} message ids 0..={} separated by commas",
        bounds::DROPS_MAX,
        bounds::MESSAGE_ID_MAX
    )
}

/// `none` or ids separated by commas; kept ascending without repeats, so one set of drops has
/// one canonical form.
fn parse_drop(value: &str) -> Result<Vec<u32>, Problem> {
    if value == "none" {
        return Ok(Vec::new());
    }
    let mut ids = Vec::new();
    for part in value.split(',') {
        if ids.len() == bounds::DROPS_MAX {
            return Err(Problem::OutOfBounds {
                allowed: drop_allowed(),
            });
        }
        let id = parse_u64(part, drop_allowed)?;
        let id = u32::try_from(id)
            .ok()
            .filter(|&id| id <= bounds::MESSAGE_ID_MAX)
            .ok_or_else(|| Problem::OutOfBounds {
                allowed: drop_allowed(),
            })?;
        ids.push(id);
    }
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

fn format_drop(ids: &[u32]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    let texts: Vec<String> = ids.iter().map(u32::to_string).collect();
    texts.join(",")
}

fn parse_opt_range(value: &str, range: (u32, u32)) -> Result<Option<RangeMs>, Problem> {
    if value == "none" {
        return Ok(None);
    }
    parse_range(value, range).map(Some)
}

fn format_range(range: RangeMs) -> String {
    format!("{}..{}", range.lo, range.hi)
}

fn format_opt<T>(value: Option<T>, format: impl Fn(T) -> String) -> String {
    value.map(format).unwrap_or_else(|| "none".into())
}

fn parse_bool(value: &str) -> Result<bool, Problem> {
    match value {
        // An empty value is refused like any other unknown one: `body_change=` says nothing.
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(malformed("1 or 0 (also true/false, yes/no, on/off)".into())),
    }
}

/// Enumerations with fixed names in the codec.
trait Choice: Copy + PartialEq + 'static {
    const CHOICES: &'static [(&'static str, Self)];
}

fn choice_name<T: Choice>(value: T) -> String {
    let found = T::CHOICES.iter().find(|(_, choice)| *choice == value);
    found.map(|(name, _)| *name).unwrap_or("?").to_string()
}

fn choice_names<T: Choice>() -> Vec<&'static str> {
    T::CHOICES.iter().map(|(name, _)| *name).collect()
}

/// What a probability key allows, for its error and the key table.
fn probability_allowed() -> String {
    "a probability 0..=1 with at most 6 decimals".into()
}

fn choice_allowed<T: Choice>() -> String {
    let names: Vec<&str> = T::CHOICES.iter().map(|(name, _)| *name).collect();
    format!("one of {}", names.join("|"))
}

fn parse_choice<T: Choice>(value: &str) -> Result<T, Problem> {
    let found = T::CHOICES.iter().find(|(name, _)| *name == value);
    found
        .map(|(_, choice)| *choice)
        .ok_or_else(|| malformed(choice_allowed::<T>()))
}

impl Choice for Op {
    const CHOICES: &'static [(&'static str, Self)] = &[("charge", Op::Charge), ("set", Op::Set)];
}
impl Choice for KeyStrategy {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("business", KeyStrategy::Business),
        ("attempt", KeyStrategy::Attempt),
        ("process", KeyStrategy::Process),
        ("constant", KeyStrategy::Constant),
        ("none", KeyStrategy::None),
    ];
}
impl Choice for Dedup {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("none", Dedup::None),
        ("naive", Dedup::Naive),
        ("atomic", Dedup::Atomic),
    ];
}
impl Choice for Store {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("memory", Store::Memory),
        ("pod", Store::Pod),
        ("durable", Store::Durable),
    ];
}
impl Choice for Provider {
    const CHOICES: &'static [(&'static str, Self)] =
        &[("plain", Provider::Plain), ("keyed", Provider::Keyed)];
}
impl Choice for Replay {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("all", Replay::All),
        ("final", Replay::Final),
        ("success", Replay::Success),
    ];
}
impl Choice for Expired {
    const CHOICES: &'static [(&'static str, Self)] =
        &[("new", Expired::New), ("reject", Expired::Reject)];
}
impl Choice for Lookup {
    const CHOICES: &'static [(&'static str, Self)] = &[("off", Lookup::Off), ("on", Lookup::On)];
}
impl Choice for Scope {
    const CHOICES: &'static [(&'static str, Self)] =
        &[("tenant", Scope::Tenant), ("global", Scope::Global)];
}
impl Choice for Relay {
    const CHOICES: &'static [(&'static str, Self)] =
        &[("outbox", Relay::Outbox), ("direct", Relay::Direct)];
}
impl Choice for Handler {
    const CHOICES: &'static [(&'static str, Self)] =
        &[("txn", Handler::Txn), ("phased", Handler::Phased)];
}
impl Choice for Concurrent {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("wait", Concurrent::Wait),
        ("conflict", Concurrent::Conflict),
    ];
}
impl Choice for Consumer {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("off", Consumer::Off),
        ("plain", Consumer::Plain),
        ("inbox", Consumer::Inbox),
    ];
}
impl Choice for ConsumerCrash {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("none", ConsumerCrash::None),
        ("after-mail", ConsumerCrash::AfterMail),
    ];
}
impl Choice for Mail {
    const CHOICES: &'static [(&'static str, Self)] =
        &[("plain", Mail::Plain), ("keyed", Mail::Keyed)];
}
impl Choice for Step {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("begin", Step::Begin),
        ("lookup", Step::Lookup),
        ("claim", Step::Claim),
        ("effect", Step::Effect),
        ("commit", Step::Commit),
        ("respond", Step::Respond),
    ];
}

fn crash_allowed() -> String {
    let steps: Vec<&str> = Step::ALL.iter().map(|step| step.name()).collect();
    format!(
        "api@MS (0..={}), api@after-STEP with STEP one of {} (after-charge means after-effect), or none",
        bounds::FAULT_MS.1,
        steps.join("|")
    )
}

fn parse_crash(value: &str) -> Result<Option<Crash>, Problem> {
    if value == "none" {
        return Ok(None);
    }
    let Some(when) = value.strip_prefix("api@") else {
        return Err(malformed(crash_allowed()));
    };
    if let Some(step) = when.strip_prefix("after-") {
        let step = if step == "charge" { "effect" } else { step };
        return parse_choice::<Step>(step)
            .map(|step| Some(Crash::AfterStep(step)))
            .map_err(|_| malformed(crash_allowed()));
    }
    match parse_u32_in(when, bounds::FAULT_MS) {
        Ok(ms) => Ok(Some(Crash::AtMs(ms))),
        Err(Problem::OutOfBounds { .. }) => Err(Problem::OutOfBounds {
            allowed: crash_allowed(),
        }),
        Err(_) => Err(malformed(crash_allowed())),
    }
}

fn format_crash(crash: Option<Crash>) -> String {
    match crash {
        None => "none".into(),
        Some(Crash::AtMs(ms)) => format!("api@{ms}"),
        Some(Crash::AfterStep(step)) => format!("api@after-{}", step.name()),
    }
}

fn order_allowed() -> String {
    "the six steps begin,lookup,claim,effect,commit,respond each once, comma-separated in any order (or as digits, like 123456)".into()
}

fn parse_order(value: &str) -> Result<[Step; 6], Problem> {
    let names: Vec<&str> = if value.contains(',') {
        value.split(',').collect()
    } else {
        value.split_terminator("").skip(1).collect()
    };
    let mut order = Vec::with_capacity(6);
    for name in names {
        // Digits only: `parse` would also take `+1`, which is not a step.
        let digits = !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit());
        let by_digit = (digits.then(|| name.parse::<usize>().ok()).flatten())
            .and_then(|d| d.checked_sub(1))
            .and_then(|i| Step::ALL.get(i));
        let step = match by_digit {
            Some(step) => *step,
            None => parse_choice::<Step>(name).map_err(|_| malformed(order_allowed()))?,
        };
        if order.contains(&step) || order.len() == 6 {
            return Err(malformed(order_allowed()));
        }
        order.push(step);
    }
    order.try_into().map_err(|_| malformed(order_allowed()))
}

fn format_order(order: [Step; 6]) -> String {
    order
        .iter()
        .map(|step| step.name())
        .collect::<Vec<_>>()
        .join(",")
}

fn range_allowed((lo, hi): (u32, u32)) -> String {
    format!("a whole number {lo}..={hi}")
}

macro_rules! key {
    ($name:literal, $group:ident, $input:expr, $help:literal, $allowed:expr, |$s:ident| $get:expr, |$t:ident, $v:ident| $set:expr) => {
        KeySpec {
            name: $name,
            group: Group::$group,
            input: $input,
            help: $help,
            allowed: $allowed,
            get: |$s: &Scenario| $get,
            set: |$t: &mut Scenario, $v: &str| $set,
        }
    };
}

/// The scenario keys in canonical order. `seed` comes first; `preset` is not a field of this
/// table because it expands into the others.
static KEYS: [KeySpec; 46] = [
    key!("seed", Run, Input::Text { examples: &["1", "7", "42"] },
        "Seed for every random choice: the same seed gives the same run.",
        || "a whole number 0..=18446744073709551615".into(),
        |s| s.seed.to_string(),
        |s, v| { s.seed = parse_u64(v, || "a whole number 0..=18446744073709551615".into())?; Ok(()) }),
    key!("orders", Client, Input::Number { lo: bounds::ORDERS.0, hi: bounds::ORDERS.1 },
        "How many business operations the clients send, each with its own case_id/work_id.",
        || range_allowed(bounds::ORDERS),
        |s| s.orders.to_string(),
        |s, v| { s.orders = parse_u32_in(v, bounds::ORDERS)?; Ok(()) }),
    key!("clients", Client, Input::Number { lo: bounds::CLIENTS.0, hi: bounds::CLIENTS.1 },
        "How many client pods share the orders (round robin); each works through its share in turn.",
        || range_allowed(bounds::CLIENTS),
        |s| s.clients.to_string(),
        |s, v| { s.clients = parse_u32_in(v, bounds::CLIENTS)?; Ok(()) }),
    key!("op", Client, Input::Choice(choice_names::<Op>),
        "charge adds money again on every repeat; set writes a value, so a repeat changes nothing.",
        choice_allowed::<Op>,
        |s| choice_name(s.op),
        |s, v| { s.op = parse_choice(v)?; Ok(()) }),
    key!("key", Key, Input::Choice(choice_names::<KeyStrategy>),
        "How the client makes the idempotency key: business, from the work (case_id and work_id), the same on every try and from any pod; attempt, a fresh UUID per try; process, from the pod's UID, so a rerun's new pod makes new keys; constant, one key for every order; none, no key. A key minted once before the first try and stored with the work is as good as business (the lab does not offer one).",
        choice_allowed::<KeyStrategy>,
        |s| choice_name(s.key),
        |s, v| { s.key = parse_choice(v)?; Ok(()) }),
    key!("dedup", Server, Input::Choice(choice_names::<Dedup>),
        "How the API spots a repeat: not at all, check-then-insert, or an atomic claim committed with the ledger row.",
        choice_allowed::<Dedup>,
        |s| choice_name(s.dedup),
        |s, v| { s.dedup = parse_choice(v)?; Ok(()) }),
    key!("store", Server, Input::Choice(choice_names::<Store>),
        "Where the key records live: API memory, the ledger pod's own disk, or a durable database, which no fault here loses (on its own, durable gives no high availability or disaster recovery).",
        choice_allowed::<Store>,
        |s| choice_name(s.store),
        |s, v| { s.store = parse_choice(v)?; Ok(()) }),
    key!("timeout_ms", Client, Input::Number { lo: bounds::TIMEOUT_MS.0, hi: bounds::TIMEOUT_MS.1 },
        "How long a client waits for each attempt's response before it gives up on it.",
        || range_allowed(bounds::TIMEOUT_MS),
        |s| s.timeout_ms.to_string(),
        |s, v| { s.timeout_ms = parse_u32_in(v, bounds::TIMEOUT_MS)?; Ok(()) }),
    key!("retries", Client, Input::Number { lo: bounds::RETRIES.0, hi: bounds::RETRIES.1 },
        "How many times a client retries an order after the first attempt.",
        || range_allowed(bounds::RETRIES),
        |s| s.retries.to_string(),
        |s, v| { s.retries = parse_u32_in(v, bounds::RETRIES)?; Ok(()) }),
    key!("backoff_ms", Client, Input::Number { lo: bounds::BACKOFF_MS.0, hi: bounds::BACKOFF_MS.1 },
        "Base wait before a retry; it doubles per retry (up to 1024x) plus seeded jitter of up to half.",
        || range_allowed(bounds::BACKOFF_MS),
        |s| s.backoff_ms.to_string(),
        |s, v| { s.backoff_ms = parse_u32_in(v, bounds::BACKOFF_MS)?; Ok(()) }),
    key!("latency_ms", Network, Input::Text { examples: &["5..20", "1..5", "10"] },
        "One-way delay of every network hop, drawn uniformly from lo..hi.",
        || format!("a range lo..hi within {}..={}", bounds::LATENCY_MS.0, bounds::LATENCY_MS.1),
        |s| format_range(s.latency_ms),
        |s, v| { s.latency_ms = parse_range(v, bounds::LATENCY_MS)?; Ok(()) }),
    key!("provider_ms", Network, Input::Text { examples: &["20..60", "5..10", "100..300"] },
        "How long the payment service works on one charge, drawn uniformly from lo..hi.",
        || format!("a range lo..hi within {}..={}", bounds::PROVIDER_MS.0, bounds::PROVIDER_MS.1),
        |s| format_range(s.provider_ms),
        |s, v| { s.provider_ms = parse_range(v, bounds::PROVIDER_MS)?; Ok(()) }),
    key!("loss_req", Network, Input::Probability,
        "Chance that a request from a client to the API is lost.",
        probability_allowed,
        |s| format_ppm(s.loss_req),
        |s, v| { s.loss_req = parse_ppm(v)?; Ok(()) }),
    key!("loss_resp", Network, Input::Probability,
        "Chance that a response from the API to a client is lost.",
        probability_allowed,
        |s| format_ppm(s.loss_resp),
        |s, v| { s.loss_resp = parse_ppm(v)?; Ok(()) }),
    key!("partition", Network, Input::Text { examples: &["none", "0..400", "100..300"] },
        "A one-way partition: responses from the API to clients are dropped during lo..hi ms.",
        || format!("a range lo..hi within {}..={}, or none", bounds::WINDOW_MS.0, bounds::WINDOW_MS.1),
        |s| format_opt(s.partition, format_range),
        |s, v| { s.partition = parse_opt_range(v, bounds::WINDOW_MS)?; Ok(()) }),
    key!("drop", Network, Input::Text { examples: &["none", "5", "5,12"] },
        "Drop these messages by hand, by id (m5 is the sixth message this run sends; the page adds one when you click an arrow). Ids count sends in the run with the earlier drops applied.",
        drop_allowed,
        |s| format_drop(&s.drop),
        |s, v| { s.drop = parse_drop(v)?; Ok(()) }),
    key!("crash", Faults, Input::Text { examples: &["none", "api@after-effect", "api@after-commit", "api@after-claim", "api@250"] },
        "Crash the API once, at a time or right after a handler step; it restarts restart_ms later.",
        crash_allowed,
        |s| format_crash(s.crash),
        |s, v| { s.crash = parse_crash(v)?; Ok(()) }),
    key!("restart_ms", Faults, Input::Number { lo: bounds::RESTART_MS.0, hi: bounds::RESTART_MS.1 },
        "How long the crashed API (or consumer) stays down before it restarts.",
        || range_allowed(bounds::RESTART_MS),
        |s| s.restart_ms.to_string(),
        |s, v| { s.restart_ms = parse_u32_in(v, bounds::RESTART_MS)?; Ok(()) }),
    key!("replace_db_ms", Faults, Input::Text { examples: &["none", "350"] },
        "Replace the ledger pod at this time: open transactions abort, and a pod store loses everything.",
        || format!("{}, or none", range_allowed(bounds::FAULT_MS)),
        |s| format_opt(s.replace_db_ms, |ms| ms.to_string()),
        |s, v| { s.replace_db_ms = parse_opt_u32_in(v, bounds::FAULT_MS)?; Ok(()) }),
    key!("restart_db_ms", Faults, Input::Text { examples: &["none", "350"] },
        "Restart the ledger's container at this time: its process boot id changes while the pod UID and its emptyDir stay, so open transactions abort (answered 503) and a pod store keeps every committed key and row. A replacement (replace_db_ms) changes the pod UID too and loses a pod store. The restart takes no time in the model.",
        || format!("{}, or none", range_allowed(bounds::FAULT_MS)),
        |s| format_opt(s.restart_db_ms, |ms| ms.to_string()),
        |s, v| { s.restart_db_ms = parse_opt_u32_in(v, bounds::FAULT_MS)?; Ok(()) }),
    key!("rerun_ms", Faults, Input::Text { examples: &["none", "400"] },
        "An operator reruns the job at this time: a new pod with a new UID sends the same orders again.",
        || format!("{}, or none", range_allowed(bounds::FAULT_MS)),
        |s| format_opt(s.rerun_ms, |ms| ms.to_string()),
        |s, v| { s.rerun_ms = parse_opt_u32_in(v, bounds::FAULT_MS)?; Ok(()) }),
    key!("provider", Server, Input::Choice(choice_names::<Provider>),
        "Whether the payment service honours the idempotency key the API forwards to it.",
        choice_allowed::<Provider>,
        |s| choice_name(s.provider),
        |s, v| { s.provider = parse_choice(v)?; Ok(()) }),
    key!("retention_ms", Server, Input::Number { lo: bounds::RETENTION_MS.0, hi: bounds::RETENTION_MS.1 },
        "How long a key is kept: the API's store counts from when it last stored the key's row (a claim left in progress expires too), a keyed payment service from its first charge under the key, a keyed mail provider from its last send.",
        || range_allowed(bounds::RETENTION_MS),
        |s| s.retention_ms.to_string(),
        |s, v| { s.retention_ms = parse_u32_in(v, bounds::RETENTION_MS)?; Ok(()) }),
    key!("body_change", Key, Input::Toggle,
        "Retries carry a different body under the same key (a different amount or value).",
        || "1 or 0".into(),
        |s| if s.body_change { "1".into() } else { "0".into() },
        |s, v| { s.body_change = parse_bool(v)?; Ok(()) }),
    key!("tenants", Key, Input::Number { lo: bounds::TENANTS.0, hi: bounds::TENANTS.1 },
        "How many tenants (accounts) the orders belong to, in turn: with 2, orders 1, 3, 5... are tenant 1's and 2, 4, 6... tenant 2's. Each tenant numbers its own work from 1, so two tenants' business keys can read alike (case-1/work-1).",
        || range_allowed(bounds::TENANTS),
        |s| s.tenants.to_string(),
        |s, v| { s.tenants = parse_u32_in(v, bounds::TENANTS)?; Ok(()) }),
    key!("scope", Key, Input::Choice(choice_names::<Scope>),
        "Where a key is unique: tenant, per tenant (the API scopes every key with the caller's tenant, as the Agentic Commerce Protocol scopes keys to the authenticated identity); global, across tenants, so two tenants' orders with equal keys share one: the second gets the first's stored answer (every order's body is the same amount, so nothing tells them apart) and its own work is lost. With one tenant the two are the same.",
        choice_allowed::<Scope>,
        |s| choice_name(s.scope),
        |s, v| { s.scope = parse_choice(v)?; Ok(()) }),
    key!("order", Server, Input::Text { examples: &["123456", "143256", "132456"] },
        "The order in which an atomic handler runs its six steps (for the ordering exercise).",
        order_allowed,
        |s| format_order(s.order),
        |s, v| { s.order = parse_order(v)?; Ok(()) }),
    key!("handler", Server, Input::Choice(choice_names::<Handler>),
        "With dedup=atomic: txn puts the claim, the charge's ledger row and the stored response in one transaction, so the claim's lock is held across the payment call; phased (atomic phases) commits the claim first as in progress (recovery point started), calls the provider outside any transaction (forwarding the key when provider=keyed), then records the ledger row and completes the key in a second transaction (recovery point finished). order= applies to txn only; under phased, crash=api@after-commit means after the claim's commit.",
        choice_allowed::<Handler>,
        |s| choice_name(s.handler),
        |s, v| { s.handler = parse_choice(v)?; Ok(()) }),
    key!("lease_ms", Server, Input::Text { examples: &["none", "100", "1000"] },
        "How long a committed in-progress claim holds, from its claim or its last takeover, before a copy that finds it takes it over (one conditional update) and goes on: under handler=phased from the recovery point started, calling the provider again. none: the claim holds until retention_ms. The claim carries no fencing token, so a first copy still at work goes on and records as well.",
        || format!("{}, or none", range_allowed(bounds::LEASE_MS)),
        |s| format_opt(s.lease_ms, |ms| ms.to_string()),
        |s, v| { s.lease_ms = parse_opt_u32_in(v, bounds::LEASE_MS)?; Ok(()) }),
    key!("concurrent", Server, Input::Choice(choice_names::<Concurrent>),
        "What a copy that finds its key claimed by another copy still at work gets: wait, its insert waits on the unique index until the other transaction ends (a committed in-progress claim gets 409 with no Retry-After); conflict, 409 at once with a Retry-After its client takes as its next delay (the time left on the claim's lease, or else the worst fault-free round trip; in ms, where HTTP counts whole seconds).",
        choice_allowed::<Concurrent>,
        |s| choice_name(s.concurrent),
        |s, v| { s.concurrent = parse_choice(v)?; Ok(()) }),
    key!("provider_fail", Faults, Input::Probability,
        "Chance that the payment service answers 500 to a call and charges nothing (a call with a key it has already charged under returns that charge).",
        probability_allowed,
        |s| format_ppm(s.provider_fail),
        |s, v| { s.provider_fail = parse_ppm(v)?; Ok(()) }),
    key!("decline", Faults, Input::Probability,
        "Chance that the payment service declines a call (402, a final business failure: the client does not retry it) and charges nothing.",
        probability_allowed,
        |s| format_ppm(s.decline),
        |s, v| { s.decline = parse_ppm(v)?; Ok(()) }),
    key!("replay", Server, Input::Choice(choice_names::<Replay>),
        "Which outcomes the key keeps for a repeat once the provider failed or declined: all, every answer, 500s included (Stripe v1); final, 2xx and 4xx, while a 500 deletes the key so a repeat runs again (OASIS); success, only successes, any failure deleting the key (Powertools, where the failure is an unhandled exception). The model fails only at the provider.",
        choice_allowed::<Replay>,
        |s| choice_name(s.replay),
        |s, v| { s.replay = parse_choice(v)?; Ok(()) }),
    key!("expired", Server, Input::Choice(choice_names::<Expired>),
        "What a request gets when its key row has outlived retention_ms: new, the row is removed and the request runs as new work (as a pruned Stripe key does); reject, 412 and the row stays (OASIS past its window, the Ad Context Protocol's (AdCP) IDEMPOTENCY_EXPIRED), and the client looks the order up by its business key (one read of the ledger's committed rows): an effect found ends the order as done; none found, it sends its next retry under a newly minted key (a fresh UUID). The lookup sees the ledger only, so a charge the ledger never recorded is made again.",
        choice_allowed::<Expired>,
        |s| choice_name(s.expired),
        |s, v| { s.expired = parse_choice(v)?; Ok(()) }),
    key!("loss_provider", Network, Input::Probability,
        "Chance that the hop between the API and the payment service loses a message, each way: a lost call charges nothing; a lost answer leaves a charge the API does not know of. The API waits as long as an answer can take (2 x latency_ms's hi + provider_ms's hi, and 1 ms), then gives the call up: it answers its client 504 and stores nothing under the key; txn rolls its claim back, phased leaves its claim in progress at recovery point started.",
        probability_allowed,
        |s| format_ppm(s.loss_provider),
        |s, v| { s.loss_provider = parse_ppm(v)?; Ok(()) }),
    key!("lookup", Server, Input::Choice(choice_names::<Lookup>),
        "Result lookup: on, before each charge call that carries a key the API asks the payment service for a charge made under that key (the key goes with every charge as a searchable tag, also to a plain provider) and, if there is one, records it instead of calling (the model answers a lookup without the provider's work time). It asks before a first call too, since a retry after a rollback cannot tell it made one; the question and its answer can be lost like a call.",
        choice_allowed::<Lookup>,
        |s| choice_name(s.lookup),
        |s, v| { s.lookup = parse_choice(v)?; Ok(()) }),
    key!("reconcile_ms", Faults, Input::Text { examples: &["none", "1000", "3000"] },
        "Reconciliation, once at this time: a job reads every charge the payment service made (each names its order) and the ledger's committed rows, writes a ledger row for each charge the ledger lacks, and refunds each charge after an order's first. It runs once: charges made later stay as they are, and a charge whose ledger row is still uncommitted at that moment is booked twice (by the job, then by its commit), so run it once the work has settled. duplicates still counts the extra charges it refunds.",
        || format!("{}, or none", range_allowed(bounds::FAULT_MS)),
        |s| format_opt(s.reconcile_ms, |ms| ms.to_string()),
        |s, v| { s.reconcile_ms = parse_opt_u32_in(v, bounds::FAULT_MS)?; Ok(()) }),
    key!("consumer", Queue, Input::Choice(choice_names::<Consumer>),
        "Feed each booked charge to an at-least-once queue whose consumer mails a receipt: off, plain, or with an inbox table.",
        choice_allowed::<Consumer>,
        |s| choice_name(s.consumer),
        |s, v| { s.consumer = parse_choice(v)?; Ok(()) }),
    key!("ack_loss", Queue, Input::Probability,
        "Chance that the consumer's acknowledgement is lost (or it dies before sending it), so the queue delivers again.",
        probability_allowed,
        |s| format_ppm(s.ack_loss),
        |s, v| { s.ack_loss = parse_ppm(v)?; Ok(()) }),
    key!("visibility_ms", Queue, Input::Number { lo: bounds::VISIBILITY_MS.0, hi: bounds::VISIBILITY_MS.1 },
        "How long the queue waits for an acknowledgement before it delivers the event again.",
        || range_allowed(bounds::VISIBILITY_MS),
        |s| s.visibility_ms.to_string(),
        |s, v| { s.visibility_ms = parse_u32_in(v, bounds::VISIBILITY_MS)?; Ok(()) }),
    key!("deliveries_max", Queue, Input::Number { lo: bounds::DELIVERIES_MAX.0, hi: bounds::DELIVERIES_MAX.1 },
        "Deliveries of one event before the queue moves it to the dead-letter queue.",
        || range_allowed(bounds::DELIVERIES_MAX),
        |s| s.deliveries_max.to_string(),
        |s, v| { s.deliveries_max = parse_u32_in(v, bounds::DELIVERIES_MAX)?; Ok(()) }),
    key!("consumer_crash", Queue, Input::Choice(choice_names::<ConsumerCrash>),
        "Crash the consumer once, right after its first mail and before it commits its inbox row and acks; it restarts restart_ms later.",
        choice_allowed::<ConsumerCrash>,
        |s| choice_name(s.consumer_crash),
        |s, v| { s.consumer_crash = parse_choice(v)?; Ok(()) }),
    key!("mail", Queue, Input::Choice(choice_names::<Mail>),
        "Whether the mail provider takes the event id as an idempotency key and answers a repeat with the first send instead of mailing again.",
        choice_allowed::<Mail>,
        |s| choice_name(s.mail),
        |s, v| { s.mail = parse_choice(v)?; Ok(()) }),
    key!("relay", Queue, Input::Choice(choice_names::<Relay>),
        "How a committed ledger row's event reaches the queue: outbox, the event is a row written in the ledger row's own transaction and a relay publishes it once that commits (the model's relay never fails between publishing and marking the row sent, so it publishes each event once); direct, the API publishes it itself one statement after the commit, with nothing durable between, so an API crash there loses the event (lost_events counts them).",
        choice_allowed::<Relay>,
        |s| choice_name(s.relay),
        |s, v| { s.relay = parse_choice(v)?; Ok(()) }),
    key!("broker_dedup_ms", Queue, Input::Text { examples: &["none", "300000", "1000"] },
        "A deduplication window at the queue (SQS FIFO's is 5 minutes): a published event whose deduplication id, here the charge it carries, the queue accepted within this many ms is accepted and not delivered again, as when a ledger books one charge twice. none: every event is delivered.",
        || format!("{}, or none", range_allowed(bounds::BROKER_DEDUP_MS)),
        |s| format_opt(s.broker_dedup_ms, |ms| ms.to_string()),
        |s, v| { s.broker_dedup_ms = parse_opt_u32_in(v, bounds::BROKER_DEDUP_MS)?; Ok(()) }),
    key!("events_max", Run, Input::Number { lo: bounds::EVENTS_MAX.0, hi: bounds::EVENTS_MAX.1 },
        "The event cap: a run that reaches it stops and says so.",
        || range_allowed(bounds::EVENTS_MAX),
        |s| s.events_max.to_string(),
        |s, v| { s.events_max = parse_u32_in(v, bounds::EVENTS_MAX)?; Ok(()) }),
];
