//! Seeded randomness, derived per decision rather than drawn from one shared stream.
//!
//! Each random choice (a hop's latency and loss, a retry's jitter, a pod's UID) seeds its own
//! PCG generator from the scenario seed and the identity of the thing deciding: "the response
//! to attempt 2 of order 3 from pod 0". So changing `dedup` leaves every network fate of the
//! same attempt unchanged, and "same seed, other configuration" compares like with like.

use rand::Rng;
use rand_pcg::Pcg32;

/// The generator behind every decision. PCG32 keeps its state in 64 bits, which wasm32 has
/// natively; a 128-bit generator needs emulated multiplies there (measured: no faster or
/// slower in the page either way, so the smaller state wins).
pub type Draw = Pcg32;

/// Which kind of decision a draw is for; part of the identity that seeds it.
#[derive(Clone, Copy, Debug)]
#[repr(u64)]
pub enum Stream {
    Request = 1,
    Response = 2,
    ProviderCall = 3,
    ProviderReply = 4,
    Jitter = 5,
    PodUid = 6,
    AttemptUuid = 7,
    ReplaceDb = 8,
    ProviderWork = 9,
    Queue = 10,
    ProviderOutcome = 11,
    /// The key a client mints for an order after a 412 (`expired=reject`).
    Remint = 12,
    /// The client's lookup of an order by business key, and its answer.
    Find = 13,
    Found = 14,
    /// The API's lookup of a charge by key at the payment service, and its answer.
    ChargeLookup = 15,
    ChargeLookupReply = 16,
}

/// The run seed mixed with each stream's number, once per run: a decision then mixes in only
/// its own three parts, two mixes fewer each (the streams' numbers run 1..=16).
pub struct Seeds([u64; 17]);

impl Seeds {
    pub fn new(seed: u64) -> Seeds {
        let run = mix(seed ^ 0x6964_656d_6c61_6221); // "idemlab!"
        Seeds(std::array::from_fn(|stream| mix(run ^ stream as u64)))
    }
}

/// A generator for one decision, seeded from the run seed (through `seeds`) and the decision's
/// identity: a hash of seed, stream, `a`, `b` and `c`, each mixed in turn.
pub fn for_decision(seeds: &Seeds, stream: Stream, a: u64, b: u64, c: u64) -> Draw {
    let mut h = seeds.0[stream as usize];
    for part in [a, b, c] {
        h = mix(h ^ part);
    }
    // The mixed hash is already well spread, so it seeds the state and picks the stream
    // directly; `seed_from_u64` would run four more PCG steps, which showed up as a seventh
    // of the page's simulation time in a profile.
    Pcg32::new(h, h.rotate_left(32))
}

/// True with probability `ppm` parts per million.
pub fn chance(rng: &mut Draw, ppm: u32) -> bool {
    ppm > 0 && rng.random_range(0..crate::scenario::PPM_ONE) < ppm
}

/// A uniform draw from `lo..=hi`, in u64 so the values match on 32- and 64-bit targets.
pub fn between(rng: &mut Draw, lo: u64, hi: u64) -> u64 {
    if lo >= hi {
        lo
    } else {
        rng.random_range(lo..=hi)
    }
}

/// SplitMix64's finaliser: a cheap, well-spread bijection of u64.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
