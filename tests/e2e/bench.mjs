// The page's benchmark (run by scripts/bench.sh, not by the test command): prints figures, and
// never fails on a slow machine; README records them with their date.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { BASE_URL, launch, openLab } from './lab.mjs';

const SEEDS = Number(process.env.BENCH_SEEDS ?? 2000);
const PRESETS = ['lost-ack', 'race', 'restart', 'pod-rerun', 'ledger-replaced', 'key-expiry', 'outside-boundary', 'naive-vs-atomic'];
const SIZES = { '1k': 50, '10k': 500, '100k': 5000 }; // orders of lost-ack without its partition
const big = (orders) => `seed=1&preset=lost-ack&orders=${orders}&partition=none&events_max=1000000`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)];
const rows = [];
const row = (what, figure, target, met) => rows.push({ what, figure, target, met: met === undefined ? '' : met ? 'met' : 'MISSED' });

function nativeRate() {
  const out = execFileSync(process.env.IDEMLAB_BIN ?? 'target/release/idemlab', ['bench', '--seeds', String(SEEDS)], { encoding: 'utf8' });
  const line = out.split('\n').find((l) => l.startsWith('all presets'));
  return Number(line.trim().split(/\s+/).at(-1));
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
    const page = await openLab(browser, 'seed=7&preset=lost-ack');
    times.push(await page.evaluate(() => performance.getEntriesByName('idemlab-ready')[0].startTime));
    await page.close();
  }
  return median(times);
}

function pageBytes() {
  const files = readdirSync('dist').map((name) => {
    const bytes = readFileSync(`dist/${name}`);
    return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  return { files, total: files.reduce((sum, f) => sum + f.gzip, 0) };
}

const browser = await launch();
try {
  const native = nativeRate();
  const { cold, warm: wasm } = await wasmRate(browser);
  row('native simulation', `${(native / 1e6).toFixed(1)} M events/s`, '>= 10 M events/s', native >= 10e6);
  row(`wasm simulation (headless Chromium, median of ${PASSES} passes after the first)`, `${(wasm / 1e6).toFixed(1)} M events/s`, '', undefined);
  row('wasm simulation, first pass on a fresh page (cold)', `${(cold / 1e6).toFixed(1)} M events/s`, '', undefined);
  row('wasm / native', (wasm / native).toFixed(2), '>= 0.6', wasm / native >= 0.6);
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
  for (const f of bytes.files) row(`dist/${f.name}`, `${(f.gzip / 1024).toFixed(1)} KB gzipped (${(f.raw / 1024).toFixed(1)} KB raw)`, '', undefined);
  row('whole page', `${(bytes.total / 1024).toFixed(1)} KB gzipped`, '<= 120 KB', bytes.total <= 120 * 1024);
  const load = await loadToInteractive(browser);
  row('load to interactive (lost-ack, localhost)', `${load.toFixed(0)} ms`, '< 300 ms', load < 300);
} finally {
  await browser.close();
}
console.log(`idemlab benchmark, ${new Date().toISOString().slice(0, 10)}, ${BASE_URL}, ${SEEDS} seeds per preset`);
console.log('| what | figure | target | |\n|---|---|---|---|');
for (const r of rows) console.log(`| ${r.what} | ${r.figure} | ${r.target} | ${r.met} |`);
