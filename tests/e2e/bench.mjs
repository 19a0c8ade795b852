// The page's benchmark (run by scripts/bench.sh, not by the test command): prints figures, and
// never fails on a slow machine; README records them with their date.
//   BASE_URL        the benchmark build (dist-bench/, with the `bench_*` exports)
//   PAGE_URL        the shipped build (dist/), served with its precompressed copies
//   PLAIN_URL       the shipped build served without them (a host that does not compress)
//   PAGE_DIR        the shipped build's directory, for its weight (default dist)
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { BASE_URL, launch, openLab, openPage, watchLongTasks } from './lab.mjs';

const PAGE_URL = process.env.PAGE_URL ?? BASE_URL;
const PLAIN_URL = process.env.PLAIN_URL;
const PAGE_DIR = process.env.PAGE_DIR ?? 'dist';
// The heaviest corner the CLI knows (crates/cli/src/cli.rs), and the link that froze the page for 32 s
//: each is loaded and its longest main-thread task measured.
const WORST_QUERY = readFileSync('crates/lab/src/heaviest.rs', 'utf8').match(/WORST_QUERY: &str = "([^"]*)"/)[1];
const FREEZING_QUERY = 'key=constant&dedup=atomic&provider_ms=60000..60000&timeout_ms=1&backoff_ms=0&latency_ms=0..0&clients=16&orders=10000&retries=20&events_max=1000000&replace_db_ms=7000';
// Chrome DevTools' own "Slow 4G" is close to this; the issue fixes these numbers.
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };
const MIB = 1024 * 1024;

const SEEDS = Number(process.env.BENCH_SEEDS ?? 2000);
const PRESETS = ['lost-ack', 'race', 'restart', 'pod-rerun', 'ledger-replaced', 'key-expiry', 'outside-boundary', 'naive-vs-atomic'];
const SIZES = { '1k': 50, '10k': 500, '100k': 5000 }; // orders of lost-ack without its partition
const big = (orders) => `seed=1&preset=lost-ack&orders=${orders}&partition=none&events_max=1000000`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const rows = [];
const row = (what, figure, target, met) => rows.push({ what, figure, target, met: met === undefined ? '' : met ? 'met' : 'MISSED' });

// The native events/s over the presets, and the simulator's rate over the bare event loop's
// (`crates/cli/src/bare.rs`), both from one `idemlab bench`.
function nativeRate() {
  const out = execFileSync(process.env.IDEMLAB_BIN ?? 'target/release/idemlab', ['bench', '--seeds', String(SEEDS)], { encoding: 'utf8' });
  const lines = out.split('\n');
  const line = lines.find((l) => l.startsWith('all presets'));
  const bare = lines.find((l) => l.startsWith('simulator / bare event loop:'));
  return { rate: Number(line.trim().split(/\s+/).at(-1)), bare: Number(bare.split(/\s+/)[5]) };
}

// The first pass over a freshly loaded page lasts about 0.2 s, and much of it runs before V8 has
// tiered the simulator up from its baseline compiler, so it follows the load on the machine more
// than the code: one build gave 10.2 M events/s idle and 8.0 with one of two cores busy, while
// the passes after it run at 13-15. So the first pass is reported apart (cold), and the
// simulation rate is the median of the PASSES passes that follow it.
const PASSES = 5;

async function wasmRate(browser) {
  const page = await openLab(browser, 'seed=1');
  const rates = await page.evaluate(({ presets, seeds, passes }) => {
    const out = [];
    for (let pass = 0; pass <= passes; pass++) {
      let events = 0, ms = 0;
      for (const name of presets) {
        const started = performance.now();
        events += window.wasmBindings.bench_events(`preset=${name}`, 0, seeds);
        ms += performance.now() - started;
      }
      out.push(events / (ms / 1000));
    }
    return out;
  }, { presets: PRESETS, seeds: SEEDS, passes: PASSES });
  await page.close();
  return { cold: rates[0], warm: median(rates.slice(1)) };
}

async function pageFigures(browser) {
  const page = await openLab(browser, 'seed=0&preset=lost-ack');
  const sweepMs = await page.evaluate(() => window.wasmBindings.bench_sweep_ms('seed=0&preset=lost-ack', 100000));
  await page.close();
  const draw = {};
  let scrub = [];
  for (const [label, orders] of Object.entries(SIZES)) {
    const lab = await openLab(browser, big(orders));
    const events = Number(await lab.getAttribute('#timeline-a', 'data-events'));
    draw[label] = { events, ms: median(await lab.evaluate(() => window.wasmBindings.bench_draw_ms(15))) };
    if (label === '100k') scrub = await lab.evaluate(() => window.wasmBindings.bench_scrub_ms(120));
    await lab.close();
  }
  return { sweepMs, draw, scrub };
}

async function lessonFigures(browser) {
  const page = await openLab(browser, 'seed=1');
  const judge = await page.evaluate(() => window.wasmBindings.bench_judge_ms(15));
  const quiz = await page.evaluate(() => [...window.wasmBindings.bench_quiz_ms('a', 200), ...window.wasmBindings.bench_quiz_ms('b', 200)]);
  await page.close();
  return { judge, quiz };
}

async function loadToInteractive(browser) {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const page = await openPage(browser);
    await page.goto(`${PAGE_URL}?seed=7&preset=lost-ack`);
    await page.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
    times.push(await page.evaluate(() => performance.getEntriesByName('idemlab-ready')[0].startTime));
    await page.close();
  }
  return median(times);
}

// The shipped files, without the .gz and .br copies the build writes beside them.
function pageBytes() {
  const files = readdirSync(PAGE_DIR).filter((name) => !/\.(gz|br)$/.test(name)).map((name) => {
    const bytes = readFileSync(`${PAGE_DIR}/${name}`);
    const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli };
  });
  const sum = (key) => files.reduce((total, f) => total + f[key], 0);
  return { files, total: sum('gzip'), brotli: sum('brotli') };
}

/** A page that records every main-thread task over 50 ms (the Long Tasks API) from the start,
 * and keeps the wasm instance's memory from Trunk's start event, before the lab's script runs. */
async function openWatched(browser, url) {
  const page = await openPage(browser);
  await watchLongTasks(page);
  await page.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (event) => { window.__memory = event.detail.wasm.memory; });
  });
  await page.goto(url);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 600_000 });
  // Long-task entries arrive after the task ends: let the observer hear about the last one.
  await page.waitForTimeout(500);
  return page;
}

const wasmBytes = (page) => page.evaluate(() => window.__memory.buffer.byteLength);

/** Peak wasm memory with a 1M-event run on the page: loaded from its link, then run twice
 * more (Same seed again), since a rerun must not add a second copy of the run. */
async function memoryFigures(browser) {
  const page = await openWatched(browser, `${PAGE_URL}?${FREEZING_QUERY}`);
  const events = Number(await page.getAttribute('#timeline-a', 'data-events'));
  const first = await wasmBytes(page);
  for (let i = 0; i < 2; i++) {
    // Clicked from inside the page: evaluate returns when the handler does, however long
    // the rerun blocks (Playwright's own click gives up after 30 s).
    await page.evaluate(() => document.getElementById('seed-same').click());
    // A run computed in slices marks the page busy until it is done.
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 600_000 });
  }
  const after = await wasmBytes(page);
  await page.close();
  return { events, first, after };
}

async function longestTask(browser, query) {
  const page = await openWatched(browser, `${PAGE_URL}?${query}`);
  const longest = await page.evaluate(() => window.__longest);
  await page.close();
  return longest;
}

/** The longest task while the freezing link's trace is written as JSON (Trace JSON), from the
 * click to the download; the tasks of loading it are left out. */
async function longestExport(browser) {
  const page = await openWatched(browser, `${PAGE_URL}?${FREEZING_QUERY}`);
  await page.evaluate(() => { window.__longest = 0; });
  const download = page.waitForEvent('download', { timeout: 600_000 });
  await page.evaluate(() => document.getElementById('export-json').click());
  await (await download).cancel();
  await page.waitForTimeout(500);
  const longest = await page.evaluate(() => window.__longest);
  await page.close();
  return longest;
}

// Issue 27's link that no check had acted on: the Tables tab held its page for 12 s.
const ISSUE_QUERY = 'seed=3&orders=10000&clients=16&retries=20&timeout_ms=1&backoff_ms=0&loss_req=0.5&loss_resp=0.5&dedup=atomic&rerun_ms=0&provider_ms=0..60000&events_max=1000000&compare=seed%3D4';
// What a learner does on a loaded link, each by its control's id.
const ACTIONS = ['tab-tables', 'tab-events', 'zoom-in', 'zoom-out', 'zoom-fit', 'tab-sweep', 'tab-events', 'seed-same'];

/** On a loaded heavy link, each action in turn: the longest task it caused and the peak wasm
 * memory (the memory only grows, so its size after the last is the peak). */
async function actionFigures(browser, query) {
  const page = await openWatched(browser, `${PAGE_URL}?${query}`);
  let longest = 0, worst = '';
  for (const id of ACTIONS) {
    await page.evaluate(() => { window.__longest = 0; });
    await page.evaluate((id) => document.getElementById(id).click(), id);
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 600_000 });
    await page.waitForTimeout(500);
    const task = await page.evaluate(() => window.__longest);
    if (task > longest) [longest, worst] = [task, id];
  }
  const memory = await wasmBytes(page);
  await page.close();
  return { longest, worst, memory };
}

/** Milliseconds from navigation to the page's `idemlab-ready` mark on emulated slow 4G, with
 * the browser's cache empty (a fresh context each time); the median of `times` loads. */
async function slowLoad(browser, url, times = 3) {
  const loads = [];
  for (let i = 0; i < times; i++) {
    const page = await openPage(browser);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await page.goto(`${url}?seed=7&preset=lost-ack`);
    await page.waitForSelector('html[data-state="ready"]', { timeout: 120_000 });
    loads.push(await page.evaluate(() => performance.getEntriesByName('idemlab-ready')[0].startTime));
    await page.context().close();
  }
  return median(loads);
}

// BENCH_PART=heavy: only the heavy links' actions and memory, minutes rather than the whole run.
const HEAVY_ONLY = process.env.BENCH_PART === 'heavy';

const browser = await launch();
try {
  if (!HEAVY_ONLY) {
    const { rate: native, bare } = nativeRate();
    const { cold, warm: wasm } = await wasmRate(browser);
    row('native simulation', `${(native / 1e6).toFixed(1)} M events/s`, '>= 10 M events/s', native >= 10e6);
    row(`wasm simulation (headless Chromium, median of ${PASSES} passes after the first)`, `${(wasm / 1e6).toFixed(1)} M events/s`, '', undefined);
    row('wasm simulation, first pass on a fresh page (cold)', `${(cold / 1e6).toFixed(1)} M events/s`, '', undefined);
    row('wasm / native', (wasm / native).toFixed(2), '>= 0.6', wasm / native >= 0.6);
    row('native simulation / bare event loop (events/s, CPU time)', bare.toFixed(2), '>= 0.8', bare >= 0.8);
    const { sweepMs, draw, scrub } = await pageFigures(browser);
    row('browser sweep, 100,000 seeds of lost-ack', `${(sweepMs / 1000).toFixed(2)} s`, '< 2 s', sweepMs < 2000);
    for (const [label, d] of Object.entries(draw)) row(`timeline draw, ${label} (${d.events} events)`, `${d.ms.toFixed(2)} ms`, '', undefined);
    const ratio = draw['100k'].ms / draw['10k'].ms;
    row('draw time 100k / 10k', ratio.toFixed(2), '<= 12', ratio <= 12);
    row('scrub frame p95 at 100k events', `${p95(scrub).toFixed(2)} ms`, '< 16 ms', p95(scrub) < 16);
    const { judge, quiz } = await lessonFigures(browser);
    row('ordering verdict, textbook order (9 probes x 200 seeds)', `${median(judge).toFixed(1)} ms median, ${Math.max(...judge).toFixed(1)} ms max`, '< 200 ms', Math.max(...judge) < 200);
    row('mastery check drawn, 400 quiz seeds', `${(quiz.reduce((a, b) => a + b, 0) / quiz.length).toFixed(2)} ms mean, ${Math.max(...quiz).toFixed(1)} ms max`, '< 200 ms', Math.max(...quiz) < 200);
    const bytes = pageBytes();
    for (const f of bytes.files) row(`${PAGE_DIR}/${f.name}`, `${(f.gzip / 1024).toFixed(1)} KB gzipped, ${(f.brotli / 1024).toFixed(1)} KB brotli (${(f.raw / 1024).toFixed(1)} KB raw)`, '', undefined);
    row('whole page, gzip', `${(bytes.total / 1024).toFixed(1)} KB gzipped`, '<= 140 KB (goal 120)', bytes.total <= 140 * 1024);
    row('whole page, brotli', `${(bytes.brotli / 1024).toFixed(1)} KB`, '', undefined);
    const load = await loadToInteractive(browser);
    row('load to interactive (lost-ack, localhost)', `${load.toFixed(0)} ms`, '< 300 ms', load < 300);
    const slow = await slowLoad(browser, PAGE_URL);
    row('load to interactive on slow 4G (1.6 Mbps, 150 ms RTT), precompressed files', `${slow.toFixed(0)} ms`, '', undefined);
    if (PLAIN_URL) {
      const plain = await slowLoad(browser, PLAIN_URL);
      row('load to interactive on slow 4G, no compression', `${plain.toFixed(0)} ms`, '', undefined);
    }
    const worst = await longestTask(browser, WORST_QUERY);
    row('longest main-thread task, loading WORST_QUERY', `${worst.toFixed(0)} ms`, '<= 200 ms', worst <= 200);
    const freezing = await longestTask(browser, FREEZING_QUERY);
    row('longest main-thread task, loading the freezing link', `${freezing.toFixed(0)} ms`, '<= 200 ms', freezing <= 200);
    const compared = await longestTask(browser, `${FREEZING_QUERY}&compare=seed%3D2`);
    row('longest main-thread task, loading the freezing link with compare=seed%3D2', `${compared.toFixed(0)} ms`, '<= 200 ms', compared <= 200);
    const exported = await longestExport(browser);
    row('longest main-thread task, the JSON export of its 1,000,000 events', `${exported.toFixed(0)} ms`, '<= 200 ms', exported <= 200);
  }
  for (const [name, query] of [['WORST_QUERY', WORST_QUERY], ['the freezing link', FREEZING_QUERY],
    ['the freezing link with compare=seed%3D2', `${FREEZING_QUERY}&compare=seed%3D2`], ["issue 27's link", ISSUE_QUERY]]) {
    const acted = await actionFigures(browser, query);
    row(`longest task of ${ACTIONS.length} actions on ${name} (the longest: ${acted.worst})`, `${acted.longest.toFixed(0)} ms`, '<= 200 ms', acted.longest <= 200);
    row(`peak wasm memory after them`, `${(acted.memory / MIB).toFixed(0)} MiB`, '<= 150 MiB', acted.memory <= 150 * MIB);
  }
  const memory = await memoryFigures(browser);
  row(`peak wasm memory, the freezing link loaded (${memory.events} events)`, `${(memory.first / MIB).toFixed(0)} MiB`, '<= 150 MiB', memory.first <= 150 * MIB);
  row('peak wasm memory after two reruns of it', `${(memory.after / MIB).toFixed(0)} MiB`, '<= 150 MiB', memory.after <= 150 * MIB);
} finally {
  await browser.close();
}
const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).join(' ');
console.log(`idemlab benchmark, ${new Date().toISOString().slice(0, 10)}, ${SEEDS} seeds per preset, load average at the end ${load}`);
console.log('| what | figure | target | |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.what} | ${r.figure} | ${r.target} | ${r.met} |`);
