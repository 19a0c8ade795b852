//! A set and a map over small dense integers (event indices, request, transaction and charge
//! numbers, queue event ids), kept as vectors. A set is a bit each: the metrics index copies
//! its sets into every checkpoint, a few kilobytes where a `BTreeSet` took tens of bytes a number.
//!
//! The simulator and the views number things from 0 or 1 upwards, so a vector indexed by the
//! number answers in O(1) with no allocation per entry. On the page it also saves code: each
//! `BTreeMap<K, V>` instance compiles to kilobytes of wasm of its own, and these two types
//! replace a dozen of them. Both iterate in key order, as the `BTreeMap`s did, so nothing
//! that depends on order changes.

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
}
