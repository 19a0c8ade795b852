//! A bare discrete-event loop of the simulator's shape, compiled into the same binary, so that
//! `bench` can say how close the simulator comes to the cost of its queue and draws alone
//! (the simulator's events per second over the bare loop's, measured in one run).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use idemlab_core::sim::Draw;
use rand::RngCore as _;

/// Entries waiting in each run's heap: the simulator's mean queue length when it pops, over
/// the presets' runs (2.2 to 3.6, measured by counting in `Queue::pop`).
const PENDING: u64 = 3;

/// For each simulated run, as many events as it recorded: a fresh heap of (time, sequence)
/// entries, each event popped, one draw of the core's generator for its successor's delay,
/// and that successor pushed. Returns a sum of the times, so the work cannot be optimised away.
pub fn run(events_per_run: &[u32]) -> u64 {
    let mut sum = 0u64;
    for (run, &events) in events_per_run.iter().enumerate() {
        let mut rng = Draw::new(run as u64, 0xa02b_dbf7_bb3c_0a07);
        let mut heap = BinaryHeap::with_capacity(PENDING as usize + 1);
        heap.extend((0..PENDING).map(|seq| Reverse((0u64, seq))));
        for seq in PENDING..PENDING + u64::from(events) {
            let Some(Reverse((time_us, _))) = heap.pop() else {
                break;
            };
            sum = sum.wrapping_add(time_us);
            let delay_us = u64::from(rng.next_u32() % 100_000);
            heap.push(Reverse((time_us + delay_us, seq)));
        }
    }
    sum
}
