//! A set and a map over small dense integers (event indices, request, transaction and charge
//! numbers, queue event ids), kept as vectors. A set is a bit each: the metrics index copies
//! its sets into every checkpoint, a few kilobytes where a `BTreeSet` took tens of bytes a number.
//!
//! The simulator and the views number things from 0 or 1 upwards, so a vector indexed by the
//! number answers in O(1) with no allocation per entry. On the page it also saves code: each
//! `BTreeMap<K, V>` instance compiles to kilobytes of wasm of its own, and these two types
//! replace a dozen of them. Both iterate in key order, as the `BTreeMap`s did, so nothing
//! that depends on order changes.
//!
//! Maps by idempotency key cannot be dense: a key can be a random 64-bit UUID. `KeyMap` keeps
//! them in one `BTreeMap<u128, u32>` from the packed key (`Key::packed`) to a slot in a vector
//! of values, so that every map by key, in the simulator and on the page, shares that one
//! `BTreeMap` instance however many value types there are.

use std::collections::BTreeMap;

use crate::trace::Key;

/// A set of `usize`, one bit per number up to the largest inserted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    pub fn new() -> BitSet {
        BitSet::default()
    }

    /// Adds `n`; true when it was not there yet.
    pub fn insert(&mut self, n: usize) -> bool {
        let (word, bit) = (n / 64, 1u64 << (n % 64));
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        let fresh = self.words[word] & bit == 0;
        self.words[word] |= bit;
        fresh
    }

    pub fn contains(&self, n: usize) -> bool {
        self.words
            .get(n / 64)
            .is_some_and(|word| word & (1u64 << (n % 64)) != 0)
    }

    pub fn clear(&mut self) {
        self.words.clear();
    }

    /// How many numbers are here and not in `other`.
    pub fn count_without(&self, other: &BitSet) -> u32 {
        (self.words.iter().enumerate())
            .map(|(ix, w)| (w & !other.words.get(ix).copied().unwrap_or(0)).count_ones())
            .sum()
    }
}

/// A map from `u32` to `u32`, one slot per key up to the largest inserted. A slot holding
/// `u32::MAX` is empty, so that value cannot be stored (inserting it panics in debug builds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DenseMap {
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl DenseMap {
    pub fn new() -> DenseMap {
        DenseMap::default()
    }

    /// Stores `value` under `key`; returns the value it replaced.
    pub fn insert(&mut self, key: u32, value: u32) -> Option<u32> {
        debug_assert_ne!(value, EMPTY, "u32::MAX marks an empty slot");
        let at = key as usize;
        if at >= self.slots.len() {
            self.slots.resize(at + 1, EMPTY);
        }
        let old = std::mem::replace(&mut self.slots[at], value);
        (old != EMPTY).then_some(old)
    }

    pub fn get(&self, key: u32) -> Option<u32> {
        self.slots
            .get(key as usize)
            .copied()
            .filter(|&v| v != EMPTY)
    }

    pub fn remove(&mut self, key: u32) -> Option<u32> {
        let slot = self.slots.get_mut(key as usize)?;
        let old = std::mem::replace(slot, EMPTY);
        (old != EMPTY).then_some(old)
    }

    /// The values, in the order of their keys. Scans every slot: for the rare whole-map walks
    /// (a crash, the end of a layout), not for a loop over events.
    pub fn values(&self) -> impl Iterator<Item = u32> + '_ {
        self.slots.iter().copied().filter(|&v| v != EMPTY)
    }
}

/// A map from `Key` to `V`, iterating in key order (the order `Key` derives).
#[derive(Clone, Debug)]
pub struct KeyMap<V> {
    /// Packed key → index into `slots`.
    index: BTreeMap<u128, u32>,
    slots: Vec<Option<V>>,
    /// Slots emptied by `remove`, reused before `slots` grows.
    free: Vec<u32>,
}

impl<V> Default for KeyMap<V> {
    fn default() -> KeyMap<V> {
        KeyMap {
            index: BTreeMap::new(),
            slots: Vec::new(),
            free: Vec::new(),
        }
    }
}

impl<V> KeyMap<V> {
    pub fn new() -> KeyMap<V> {
        KeyMap::default()
    }

    pub fn get(&self, key: &Key) -> Option<&V> {
        let slot = *self.index.get(&key.packed())?;
        self.slots[slot as usize].as_ref()
    }

    pub fn get_mut(&mut self, key: &Key) -> Option<&mut V> {
        let slot = *self.index.get(&key.packed())?;
        self.slots[slot as usize].as_mut()
    }

    /// Stores `value` under `key`; returns the value it replaced.
    pub fn insert(&mut self, key: Key, value: V) -> Option<V> {
        if let Some(&slot) = self.index.get(&key.packed()) {
            return self.slots[slot as usize].replace(value);
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots[slot as usize] = Some(value);
                slot
            }
            None => {
                self.slots.push(Some(value));
                u32::try_from(self.slots.len() - 1).expect("fewer than 2^32 keys in a run")
            }
        };
        self.index.insert(key.packed(), slot);
        None
    }

    pub fn remove(&mut self, key: &Key) -> Option<V> {
        let slot = self.index.remove(&key.packed())?;
        self.free.push(slot);
        self.slots[slot as usize].take()
    }

    pub fn clear(&mut self) {
        self.index.clear();
        self.slots.clear();
        self.free.clear();
    }

    /// The values, in the order of their keys.
    pub fn values(&self) -> impl Iterator<Item = &V> + '_ {
        (self.index.values()).filter_map(|&slot| self.slots[slot as usize].as_ref())
    }
}

/// Sorts `items` stably by `key`, which must be below 2^96. Every such sort on the page goes
/// through one unstable sort of `u128` (the key above 32 bits of position), where each
/// `sort_by` with its own closure compiled to kilobytes of wasm of its own.
pub fn sort_stable_by_key<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u128) {
    let mut order: Vec<u128> = (items.iter().enumerate())
        .map(|(at, item)| {
            let key = key(item);
            debug_assert!(key >> 96 == 0, "sort keys fit in 96 bits");
            key << 32 | at as u128
        })
        .collect();
    order.sort_unstable();
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .iter()
            .filter_map(|&k| slots[k as u32 as usize].take()),
    );
}

/// `x` as a number that orders as `f64::total_cmp` does.
pub fn f64_order(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_set_inserts_once() {
        let mut set = BitSet::new();
        assert!(set.insert(130));
        assert!(set.insert(3));
        assert!(!set.insert(130));
        assert!(set.contains(3) && set.contains(130) && !set.contains(4) && !set.contains(9_999));
        set.clear();
        assert!(!set.contains(3) && !set.contains(130));
    }

    #[test]
    fn dense_map_behaves_like_an_ordered_map() {
        let mut map = DenseMap::new();
        let mut model = std::collections::BTreeMap::new();
        // A fixed walk of inserts, replacements and removals, checked against the std map.
        for step in 0u32..2_000 {
            let key = step.wrapping_mul(2_654_435_761) % 97;
            if step % 3 == 0 {
                assert_eq!(map.remove(key), model.remove(&key));
            } else {
                assert_eq!(map.insert(key, step), model.insert(key, step));
            }
            assert_eq!(map.get(key), model.get(&key).copied());
        }
        assert_eq!(
            map.values().collect::<Vec<_>>(),
            model.values().copied().collect::<Vec<_>>()
        );
        assert_eq!(map.remove(10_000), None);
    }

    #[test]
    fn key_map_agrees_with_a_btree_map_and_keeps_key_order() {
        let keys = [
            Key::Constant { tenant: 0 },
            Key::Attempt { uuid: u64::MAX },
            Key::Business { work: 7, tenant: 0 },
            Key::Process {
                process: 1,
                work: 0,
                tenant: 2,
            },
            Key::Business { work: 2, tenant: 0 },
            Key::Business { work: 2, tenant: 1 },
            Key::Attempt { uuid: 3 },
            Key::Process {
                process: 0,
                work: u32::MAX,
                tenant: u16::MAX,
            },
            Key::Constant { tenant: 3 },
        ];
        let mut map = KeyMap::new();
        let mut model = std::collections::BTreeMap::new();
        for round in 0..40u32 {
            let key = keys[(round as usize * 5) % keys.len()];
            if round % 3 == 2 {
                assert_eq!(map.remove(&key), model.remove(&key), "remove {key:?}");
            } else {
                assert_eq!(
                    map.insert(key, round),
                    model.insert(key, round),
                    "insert {key:?}"
                );
            }
            if let Some(v) = map.get_mut(&keys[0]) {
                *v += 1;
                *model.get_mut(&keys[0]).unwrap() += 1;
            }
            assert_eq!(map.get(&key), model.get(&key));
            let ours: Vec<u32> = map.values().copied().collect();
            let theirs: Vec<u32> = model.values().copied().collect();
            assert_eq!(ours, theirs, "after round {round}");
        }
        map.clear();
        assert_eq!(map.values().count(), 0);
    }

    #[test]
    fn sort_stable_by_key_keeps_equal_keys_in_order_and_f64_order_agrees_with_total_cmp() {
        let xs = [
            3.5,
            -0.0,
            0.0,
            -2.25,
            f64::INFINITY,
            1e-300,
            -1e300,
            3.5,
            f64::NEG_INFINITY,
        ];
        for a in xs {
            for b in xs {
                assert_eq!(
                    f64_order(a).cmp(&f64_order(b)),
                    a.total_cmp(&b),
                    "{a} vs {b}"
                );
            }
        }
        let mut items: Vec<(u32, f64, usize)> = (0..40)
            .map(|at| ((at * 7 % 3) as u32, xs[at % xs.len()], at))
            .collect();
        let mut expected = items.clone();
        expected.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        sort_stable_by_key(&mut items, |&(rank, x, _)| {
            u128::from(rank) << 64 | u128::from(f64_order(x))
        });
        assert_eq!(
            items.iter().map(|i| i.2).collect::<Vec<_>>(),
            expected.iter().map(|i| i.2).collect::<Vec<_>>()
        );
    }
}
