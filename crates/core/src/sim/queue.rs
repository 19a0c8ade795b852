//! The event queue: actions ordered by (time, sequence), so ties break by scheduling order and
//! never by anything the platform decides.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Action;

/// The heap orders plain 128-bit keys, `time_us` above `seq` above the slot of the action in
/// `actions`, where the actions wait; a slot is reused once its action is popped. Moving
/// 32-byte entries of time, sequence and action through the heap, and comparing them field by
/// field, was a fifth of a run's time. The slot never decides an order: `seq` is unique.
#[derive(Default)]
pub struct Queue {
    heap: BinaryHeap<Reverse<u128>>,
    actions: Vec<Action>,
    free: Vec<u32>,
    seq_next: u32,
}

impl Queue {
    pub fn push(&mut self, time_us: u64, action: Action) {
        let slot = match self.free.pop() {
            Some(slot) => {
                self.actions[slot as usize] = action;
                slot
            }
            None => {
                self.actions.push(action);
                u32::try_from(self.actions.len() - 1).expect("pending actions fit in 32 bits")
            }
        };
        // A run stops after `events_max * 8` actions (at most 8 million) and each schedules a
        // handful, so the sequence stays far below 2^32.
        let seq = self.seq_next;
        self.seq_next = seq
            .checked_add(1)
            .expect("a run schedules under 2^32 actions");
        let key = u128::from(time_us) << 64 | u128::from(seq) << 32 | u128::from(slot);
        self.heap.push(Reverse(key));
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn pop(&mut self) -> Option<(u64, Action)> {
        let Reverse(key) = self.heap.pop()?;
        let slot = key as u32;
        self.free.push(slot);
        Some(((key >> 64) as u64, self.actions[slot as usize]))
    }
}
