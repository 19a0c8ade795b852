//! `idemlab sweep` on every core: threads take chunks of seeds in order and fold each chunk on
//! its own, and the chunks are merged by index. Totals are sums and counts of integers, so the
//! result does not depend on how many threads there were or which finished first.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use idemlab_core::scenario::Scenario;
use idemlab_lab::sweep::Sweep;

/// Threads a sweep may ask for: past this, threads only cost memory (one trace each).
pub const THREADS_MAX: u32 = 256;

/// One sweep: seeds `first..first + count` of `scenario` on `threads` threads.
pub struct Job<'a> {
    pub scenario: &'a Scenario,
    pub first: u64,
    pub count: u64,
    pub threads: u32,
    /// Print progress to stderr about once a second.
    pub progress: bool,
}

/// What a sweep folded: the totals for seeds `first..first + done`, the seeds that finished
/// without a gap from the first. `done < count` only when the sweep was stopped; then
/// `finished` also counts the seeds that finished past the gap, which the totals leave out.
pub struct Folded {
    pub totals: Sweep,
    pub done: u64,
    pub finished: u64,
}

/// The chunk of the seeds one thread takes at a time: small enough that every thread stays
/// busy to the end and that a stop leaves out few seeds past the gap, large enough that
/// taking one is rare next to running its seeds.
fn chunk_seeds(count: u64, threads: u32) -> u64 {
    (count / (u64::from(threads) * 16)).clamp(1, 64)
}

/// Chunks merged in order so far, and the ones that came back early or cut short.
#[derive(Default)]
struct Merged {
    totals: Sweep,
    done: u64,
    /// The index of the next chunk the totals need.
    next: u64,
    /// Chunk index → its totals, how many of its seeds finished and whether all did; a
    /// handful at a time.
    pending: BTreeMap<u64, (Sweep, u64, bool)>,
}

impl Merged {
    /// Files a chunk and merges every complete chunk that now follows the totals without a gap.
    fn file(&mut self, index: u64, part: Sweep, done: u64, complete: bool) {
        self.pending.insert(index, (part, done, complete));
        while let Some((part, done, complete)) = self.pending.remove(&self.next) {
            self.totals.merge(&part);
            self.done += done;
            self.next += 1;
            if !complete {
                // Cut short by a stop: nothing after it follows without a gap.
                self.next = u64::MAX;
                break;
            }
        }
    }
}

/// State the threads share.
struct Shared<'a> {
    job: &'a Job<'a>,
    chunk: u64,
    chunks: u64,
    next: AtomicU64,
    /// Seeds finished, for the progress line.
    seeds_done: AtomicU64,
    merged: Mutex<Merged>,
    workers_left: AtomicU64,
}

/// Runs the sweep; `stop` (set by Ctrl-C) makes every thread end after the seed in hand.
pub fn sweep(job: &Job, stop: &AtomicBool) -> Folded {
    let chunk = chunk_seeds(job.count, job.threads);
    let shared = Shared {
        job,
        chunk,
        chunks: job.count.div_ceil(chunk),
        next: AtomicU64::new(0),
        seeds_done: AtomicU64::new(0),
        merged: Mutex::new(Merged::default()),
        workers_left: AtomicU64::new(u64::from(job.threads)),
    };
    std::thread::scope(|scope| {
        for _ in 0..job.threads {
            scope.spawn(|| {
                work(&shared, stop);
                shared.workers_left.fetch_sub(1, Ordering::AcqRel);
            });
        }
        watch(&shared);
    });
    let finished = shared.seeds_done.load(Ordering::Relaxed);
    let merged = shared.merged.into_inner().expect("no thread panicked");
    Folded {
        totals: merged.totals,
        done: merged.done,
        finished,
    }
}

fn work(shared: &Shared, stop: &AtomicBool) {
    let job = shared.job;
    let mut scenario = job.scenario.clone();
    loop {
        let index = shared.next.fetch_add(1, Ordering::Relaxed);
        if index >= shared.chunks || stop.load(Ordering::Relaxed) {
            return;
        }
        let start = index * shared.chunk;
        let end = (start + shared.chunk).min(job.count);
        let mut totals = Sweep::default();
        let mut done = 0;
        for offset in start..end {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            scenario.seed = job.first + offset;
            totals.add(&idemlab_lab::run(&scenario).1);
            done += 1;
            shared.seeds_done.fetch_add(1, Ordering::Relaxed);
        }
        let mut merged = shared.merged.lock().expect("no thread panicked");
        merged.file(index, totals, done, done == end - start);
    }
}

/// Prints progress about once a second until every worker has ended.
#[allow(clippy::disallowed_types)] // the CLI may read a clock; the seeds' results never see it
fn watch(shared: &Shared) {
    let started = std::time::Instant::now();
    let mut printed = started;
    while shared.workers_left.load(Ordering::Acquire) > 0 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        if shared.job.progress && printed.elapsed().as_millis() >= 900 {
            printed = std::time::Instant::now();
            progress_line(shared, started.elapsed().as_secs_f64());
        }
    }
    if shared.job.progress {
        progress_line(shared, started.elapsed().as_secs_f64());
    }
}

fn progress_line(shared: &Shared, secs: f64) {
    let done = shared.seeds_done.load(Ordering::Relaxed);
    let (count, threads) = (shared.job.count, shared.job.threads);
    let rate = done as f64 / secs.max(1e-9);
    // A closed stderr must not end the sweep: the totals still go to stdout.
    let _ = writeln!(
        std::io::stderr(),
        "sweep: {done}/{count} seeds, {rate:.0} seeds/s on {threads} threads"
    );
}
