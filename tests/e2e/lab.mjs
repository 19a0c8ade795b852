// Shared set-up for the Playwright tests: Debian's Chromium driven by playwright-core (it cannot
// download a browser here), a page that fails its test on any page error or console error, and
// the native CLI, so the page's counts can be checked against `idemlab run` on the same URL.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080/';
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const IDEMLAB_BIN = process.env.IDEMLAB_BIN ?? 'target/release/idemlab';
export const ARTIFACTS = 'test-results';

// The same flags as webdriver.json: without the background-networking ones, Chromium keeps
// trying hosts this machine cannot reach.
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];

export async function launch() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

/** A new page whose errors are collected; `assertClean()` fails the test if there were any. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    problems.push(`a dialog opened: ${dialog.message()}`);
    dialog.dismiss();
  });
  page.assertClean = () => {
    if (problems.length > 0) throw new Error(problems.join('\n'));
  };
  return page;
}

/** Records the longest main-thread task over 50 ms (the Long Tasks API) in `window.__longest`,
 * from the page's start. */
export async function watchLongTasks(page) {
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** Opens the lab at `query` and waits until it has mounted. */
export async function openLab(browser, query, options) {
  const page = await openPage(browser, options);
  await page.goto(`${BASE_URL}?${query}`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  return page;
}

export const METRICS = ['orders', 'attempts', 'received', 'effects', 'duplicates', 'lost', 'races', 'unrecorded', 'ok', 'failed', 'unknown', 'in_flight',
  'receipts', 'duplicate_receipts', 'redeliveries', 'dead_letters'];

/** The counters of run `side` ("a" or "b") as numbers, keyed by their data-metric name. */
export async function counters(page, side = 'a') {
  const pairs = await page.$$eval(`#counters-${side} [data-metric]`, (elements) =>
    elements.map((element) => [element.dataset.metric, Number(element.textContent)]));
  return Object.fromEntries(pairs);
}

/** `idemlab run URL` from the native CLI, as the metrics the page shows. */
export function cliCounts(url) {
  const report = JSON.parse(execFileSync(IDEMLAB_BIN, ['run', url], { encoding: 'utf8' }));
  return { ...report, ...report.outcomes };
}

/** Configuration B's URL, for `idemlab run`: A's URL with each `compare=` pair set over it. */
export function compareUrl(url) {
  const b = new URL(url);
  const compare = new URLSearchParams(b.searchParams.get('compare'));
  b.searchParams.delete('compare');
  for (const [key, value] of compare) b.searchParams.set(key, value);
  return b.href;
}

/** `idemlab svg URL` from the native CLI: what the page's "SVG" export must equal byte for byte. */
export function cliSvg(url) {
  return execFileSync(IDEMLAB_BIN, ['svg', url], { encoding: 'utf8' });
}

/** The choice the simulator makes right, from what the page says it asks and the CLI's runs. */
export async function rightChoice(page) {
  const group = await page.$eval('#lesson-step .predict-choices', (g) => ({ ...g.dataset }));
  const choices = await page.$$eval('#lesson-step [data-choice]', (bs) => bs.map((b) => b.textContent));
  const url = page.url();
  const a = cliCounts(url);
  const b = new URL(url).searchParams.has('compare') ? cliCounts(compareUrl(url)) : undefined;
  if (group.ask === 'count') {
    const value = String((group.side === 'b' ? b : a)[group.metric]);
    return choices.indexOf(value);
  }
  const inA = a[group.metric] > 0;
  const inB = b[group.metric] > 0;
  return choices.indexOf(inA && inB ? 'both' : inA ? 'only A' : inB ? 'only B' : 'neither');
}

/** A PDF as pdf.js (npm) reads it in the browser: each page's text and its share of inked
 * pixels, and each page drawn to `${ARTIFACTS}/${name}-pN.png`. */
export async function readPdf(browser, pdf, name) {
  const page = await (await browser.newContext({ viewport: { width: 900, height: 1300 } })).newPage();
  const build = 'node_modules/pdfjs-dist/build/';
  await page.route('http://pdf.test/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/doc.pdf') return route.fulfill({ body: pdf, contentType: 'application/pdf' });
    if (path.startsWith('/build/')) return route.fulfill({ body: readFileSync(build + path.slice(7)), contentType: 'text/javascript' });
    return route.fulfill({ contentType: 'text/html', body: `<!doctype html><body style="margin:0"><script type="module">
import * as pdfjs from '/build/pdf.mjs';
pdfjs.GlobalWorkerOptions.workerSrc = '/build/pdf.worker.mjs';
const doc = await pdfjs.getDocument('/doc.pdf').promise;
const pages = [];
for (let n = 1; n <= doc.numPages; n += 1) {
  const page = await doc.getPage(n);
  const viewport = page.getViewport({ scale: 1 });
  const canvas = Object.assign(document.createElement('canvas'), { width: viewport.width, height: viewport.height });
  document.body.append(canvas);
  const context = canvas.getContext('2d');
  await page.render({ canvasContext: context, viewport }).promise;
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 0; i < pixels.length; i += 4) if (Math.min(pixels[i], pixels[i + 1], pixels[i + 2]) < 200) inked += 1;
  const text = (await page.getTextContent()).items.map((item) => item.str).join(' ');
  pages.push({ ink: inked / (pixels.length / 4), text });
}
window.pages = pages;</script>` });
  });
  await page.goto('http://pdf.test/');
  await page.waitForFunction(() => window.pages, null, { timeout: 30_000 });
  const pages = await page.evaluate(() => window.pages);
  for (const [i, canvas] of (await page.$$('canvas')).entries()) await canvas.screenshot({ path: `${ARTIFACTS}/${name}-p${i + 1}.png` });
  await page.context().close();
  return pages;
}
