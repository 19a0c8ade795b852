// Issue 10: a run too long for one task is computed in slices, with a progress line, aria-busy
// and Cancel, and ends with the counts the CLI gives for the same link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, openPage, counters, cliCounts, BASE_URL, METRICS } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

// About 300,000 events: several slices on any machine, a couple of seconds at most.
const HEAVY = 'orders=5000&clients=16&timeout_ms=1&backoff_ms=0&retries=20&latency_ms=0..5&events_max=300000';

test('a heavy link computes in slices behind a progress line, then shows the CLI\'s counts', async () => {
  const page = await openPage(browser);
  await page.goto(`${BASE_URL}?${HEAVY}`);
  // One look at the page while it computes: the progress line and Cancel show, and no counts
  // (zeros would read as a result).
  const busy = await page.waitForFunction(() => {
    if (document.querySelector('#runs').getAttribute('aria-busy') !== 'true') return null;
    const shown = (id) => document.getElementById(id).checkVisibility();
    return { text: document.getElementById('computing-text').textContent, cancel: shown('cancel-run'), counters: shown('counters-a') };
  }, null, { timeout: 15_000, polling: 10 });
  const seen = await busy.jsonValue();
  assert.match(seen.text, /^Computing run A: /);
  assert.equal(seen.cancel, true);
  assert.equal(seen.counters, false);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 60_000 });
  assert.equal(await page.getAttribute('#runs', 'aria-busy'), null, 'no longer busy');
  assert.equal(await page.isHidden('#computing'), true);
  assert.equal(await page.getAttribute('#timeline-a', 'data-events'), '300000');
  const cli = cliCounts(page.url());
  const shown = await counters(page, 'a');
  for (const metric of METRICS.filter((m) => m in shown && m in cli)) {
    assert.equal(shown[metric], cli[metric], metric);
  }
  page.assertClean();
  await page.close();
});

// Issue 10's freezing link: a million events, seconds of work even in slices.
const HEAVIEST = 'key=constant&dedup=atomic&provider_ms=60000..60000&timeout_ms=1&backoff_ms=0&latency_ms=0..0&clients=16&orders=10000&retries=20&events_max=1000000&replace_db_ms=7000';

test('Cancel stops a run, says so, and Back returns to the cancelled link', async () => {
  const page = await openPage(browser);
  await page.goto(`${BASE_URL}?${HEAVIEST}`);
  await page.waitForSelector('#runs[aria-busy="true"]', { timeout: 15_000 });
  // The run now takes about 0.35 s in all: a Playwright click, which waits for the layout to
  // settle, came after it had finished. Pressed from inside the page, between two slices.
  const pressed = await page.evaluate(() => {
    const button = document.getElementById('cancel-run');
    if (button.closest('[hidden]')) return false;
    button.click();
    return true;
  });
  assert.ok(pressed, 'Cancel was on screen while the run computed');
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.textContent('#banner'), /The run was cancelled\..*Run A was cancelled while/s);
  await page.waitForSelector('html[data-state="ready"]');
  assert.equal(await page.getAttribute('#runs', 'aria-busy'), null);
  // A link whose run never finished falls back to the default scenario.
  assert.equal(new URL(page.url()).searchParams.get('orders'), null);
  await page.goBack();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('orders') === '10000');
  await page.waitForSelector('#runs[aria-busy="true"]', { timeout: 15_000 });
  page.assertClean();
  await page.close();
});

test('a sweep of a heavy scenario steps inside each seed: no long task, and the CLI\'s totals', async () => {
  // Issue 10: the sweep ran a whole seed per step, so a million-event seed (the freezing link
  // above) held the page for the whole run. Two such seeds, long tasks watched from the start.
  const page = await openPage(browser);
  await page.addInitScript(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(`${BASE_URL}?seed=0&${HEAVIEST}&tab=sweep`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 60_000 });
  await page.fill('#sweep-seeds', '2');
  await page.waitForTimeout(300);
  await page.evaluate(() => { window.__longest = 0; });
  await page.click('#sweep-run');
  await page.waitForFunction(() => /^2 of 2 seeds/.test(document.getElementById('sweep-summary').textContent), null, { timeout: 120_000 });
  await page.waitForTimeout(300);
  const longest = await page.evaluate(() => window.__longest);
  assert.ok(longest < 200, `a ${longest} ms task while the sweep ran`);
  const { execFileSync } = await import('node:child_process');
  const cli = JSON.parse(execFileSync(process.env.IDEMLAB_BIN ?? 'target/release/idemlab',
    ['sweep', '--quiet', '--seeds', '0..2', `seed=0&${HEAVIEST}`], { encoding: 'utf8' }));
  const summary = await page.textContent('#sweep-summary');
  assert.match(summary, new RegExp(`: ${cli.duplicates_total} duplicates, in ${cli.runs_with_duplicates} runs that had any, ${cli.lost_total} lost orders, ${cli.races_total} races;`));
  page.assertClean();
  await page.close();
});
