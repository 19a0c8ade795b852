// The first paint's benchmark (run by scripts/bench.sh, not by the test command): on Slow 4G
// with the CPU 4x slower, served precompressed, each entry link's largest contentful paint
// against the end of the wasm's response, the time from that end to data-state=ready, and the
// cumulative layout shift. Prints ratios and orderings, as the machine is slow and shared; it
// never fails. README records the figures with their date.
//   PAGE_URL  the shipped build (dist/), served with its precompressed copies
import { pathToFileURL } from 'node:url';
import { launch, openPage } from './lab.mjs';

const PAGE_URL = process.env.PAGE_URL ?? process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 1.6e6 / 8, uploadThroughput: 0.75e6 / 8 };
export const LINKS = {
  'bare page': '',
  'lesson step': 'lesson=a&step=4',
  'embedded lesson step': 'lesson=b&step=3&embed=1',
  check: 'lesson=a&quiz=2024',
  compare: 'seed=7&preset=race&compare=dedup%3Datomic',
};
const TIMES = Number(process.env.FIRSTPAINT_TIMES ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One load of `query`: LCP, the wasm response's end and ready, in ms from navigation, and CLS. */
async function load(browser, query) {
  const page = await openPage(browser);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    window.__lcp = 0;
    window.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${PAGE_URL}?${query}`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 120_000 });
  // Layout shifts after ready (a late repaint) count too: give them a moment to land.
  await page.waitForTimeout(1000);
  const figures = await page.evaluate(() => {
    const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
    const ready = performance.getEntriesByName('idemlab-ready')[0].startTime;
    // LCP stops at the first input; none here, so the last entry is the largest paint.
    return { lcp: window.__lcp, wasmEnd: wasm.responseEnd, ready, cls: window.__cls };
  });
  await page.context().close();
  return figures;
}

// Run, not imported (lighthouse.mjs takes the links).
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const browser = await launch();
  try {
    console.log(`| link | LCP / wasm end | LCP before the wasm | ready − wasm end | CLS |`);
    console.log(`|---|---|---|---|---|`);
    for (const [label, query] of Object.entries(LINKS)) {
      const loads = [];
      for (let i = 0; i < TIMES; i++) loads.push(await load(browser, query));
      const ratio = median(loads.map((l) => l.lcp / l.wasmEnd));
      const after = median(loads.map((l) => l.ready - l.wasmEnd));
      const cls = median(loads.map((l) => l.cls));
      const before = loads.filter((l) => l.lcp < l.wasmEnd).length;
      console.log(`| ${label} \`${query || '(none)'}\` | ${ratio.toFixed(2)} | ${before} of ${TIMES} | ${(after / 1000).toFixed(2)} s | ${cls.toFixed(3)} |`);
    }
    console.log(`\nMedians of ${TIMES} loads each: Slow 4G (150 ms, 1.6 Mbps down), CPU 4x slower, precompressed.`);
  } finally {
    await browser.close();
  }
}
