//! Peak heap of one big run, natively: `cargo run --release -p idemlab-lab --example memory [QUERY]`.
//!
//! It times each stage, counts every allocation through a wrapping global allocator and prints the live and peak
//! bytes, and the allocations made, after each stage the page goes through (simulate and fold,
//! lay out, index), in the page's order. The page's
//! wasm memory can only grow, so its size follows these peaks; `scripts/bench.sh` measures the
//! page itself.

// A measurement outside the core, like the CLI's benchmark: it reads a clock.
#![allow(clippy::disallowed_types)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static CALLS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes straight to `System`; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    /// Growing counts both blocks for the moment of the copy; shrinking counts only the smaller
    /// one, as wasm's allocator (dlmalloc) shrinks a block where it stands.
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        CALLS.fetch_add(1, Relaxed);
        let old = layout.size();
        if new_size > old {
            let live = LIVE.fetch_add(new_size, Relaxed) + new_size;
            PEAK.fetch_max(live, Relaxed);
            LIVE.fetch_sub(old, Relaxed);
        } else {
            LIVE.fetch_sub(old - new_size, Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The benchmark's 1M-event run (`tests/e2e/bench.mjs`, the freezing link of issue 10).
const QUERY_DEFAULT: &str = "key=constant&dedup=atomic&provider_ms=60000..60000&timeout_ms=1&backoff_ms=0&latency_ms=0..0&clients=16&orders=10000&retries=20&events_max=1000000&replace_db_ms=7000";

fn mib(bytes: usize) -> String {
    format!("{}.{} MiB", bytes >> 20, ((bytes & 0xf_ffff) * 10) >> 20)
}

fn report(stage: &str, since: std::time::Instant) {
    let ms = since.elapsed().as_millis();
    let (live, peak, calls) = (LIVE.load(Relaxed), PEAK.load(Relaxed), CALLS.load(Relaxed));
    println!(
        "{stage:<10} {ms:>5} ms live {:>12} peak {:>12} allocations {calls:>10}",
        mib(live),
        mib(peak)
    );
}

fn main() {
    let query = std::env::args().nth(1).unwrap_or(QUERY_DEFAULT.into());
    let scenario = match idemlab_core::scenario::decode(&query) {
        Ok(decoded) => decoded.scenario,
        Err(errors) => {
            errors.iter().for_each(|error| eprintln!("{error}"));
            std::process::exit(2);
        }
    };
    println!("{query}");
    println!(
        "event record {} bytes, mark {} bytes",
        std::mem::size_of::<idemlab_core::trace::Event>(),
        std::mem::size_of::<idemlab_lab::view::Mark>()
    );
    // What the page does (`web::Run::of`): run and fold, lay out, then index.
    // Each stage's wall time too: the page cuts its work into slices by stage.
    let t = std::time::Instant::now();
    let (trace, metrics) = idemlab_lab::run(&scenario);
    println!("{} events", trace.events.len());
    report("simulate", t);
    let t = std::time::Instant::now();
    let timeline = idemlab_lab::view::layout(&trace);
    println!("{} marks", timeline.marks().len());
    report("layout", t);
    let t = std::time::Instant::now();
    let index = idemlab_lab::metrics::MetricsIndex::new(&trace);
    report("index", t);
    let t = std::time::Instant::now();
    drop((metrics, index, timeline, trace));
    report("dropped", t);
}
