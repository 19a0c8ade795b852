//! Peak heap of one big run, natively: `cargo run --release --example memory [QUERY]`.
//!
//! It counts every allocation through a wrapping global allocator and prints the live and peak
//! bytes after each stage the page goes through (simulate, fold, index, lay out). The page's
//! wasm memory can only grow, so its size follows these peaks; `scripts/bench.sh` measures the
//! page itself.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call goes straight to `System`; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const QUERY_DEFAULT: &str = "seed=1&preset=lost-ack&orders=50000&partition=none&events_max=1000000";

fn mib(bytes: usize) -> String {
    format!("{}.{} MiB", bytes >> 20, ((bytes & 0xf_ffff) * 10) >> 20)
}

fn report(stage: &str) {
    let (live, peak) = (LIVE.load(Relaxed), PEAK.load(Relaxed));
    println!("{stage:<10} live {:>12} peak {:>12}", mib(live), mib(peak));
}

fn main() {
    let query = std::env::args().nth(1).unwrap_or(QUERY_DEFAULT.into());
    let scenario = match idemlab::scenario::decode(&query) {
        Ok(decoded) => decoded.scenario,
        Err(errors) => {
            errors.iter().for_each(|error| eprintln!("{error}"));
            std::process::exit(2);
        }
    };
    println!("{query}");
    println!(
        "event record {} bytes, mark {} bytes",
        std::mem::size_of::<idemlab::trace::Event>(),
        std::mem::size_of::<idemlab::view::Mark>()
    );
    let trace = idemlab::sim::run(&scenario);
    println!("{} events", trace.events.len());
    report("simulate");
    let metrics = idemlab::Metrics::of(&trace);
    report("fold");
    let index = idemlab::metrics::MetricsIndex::new(&trace);
    report("index");
    let timeline = idemlab::view::layout(&trace);
    println!("{} marks", timeline.marks().len());
    report("layout");
    drop((metrics, index, timeline, trace));
    report("dropped");
}
