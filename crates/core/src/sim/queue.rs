//! The event queue: actions ordered by (time, sequence), so ties break by scheduling order and
//! never by anything the platform decides.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Action;

struct Scheduled {
    time_us: u64,
    seq: u64,
    action: Action,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        (self.time_us, self.seq) == (other.time_us, other.seq)
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time_us, other.seq).cmp(&(self.time_us, self.seq))
    }
}

#[derive(Default)]
pub struct Queue {
    heap: BinaryHeap<Scheduled>,
    seq_next: u64,
}

impl Queue {
    pub fn push(&mut self, time_us: u64, action: Action) {
        let seq = self.seq_next;
        self.seq_next += 1;
        self.heap.push(Scheduled {
            time_us,
            seq,
            action,
        });
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    pub fn pop(&mut self) -> Option<(u64, Action)> {
        self.heap.pop().map(|s| (s.time_us, s.action))
    }
}
