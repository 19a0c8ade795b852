// Issue 11's key-store panel and classification exercise, as a learner meets them: a step about
// the key table opens the panel beside the timeline, its rows follow the cursor and agree with
// `idemlab run --text` on the same URL; the operations lock on answering, the score adds
// up, and "Show me" loads a run whose counters equal `idemlab run` on the new URL.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, METRICS, cliCounts, counters, launch, openLab } from './lab.mjs';

const IDEMLAB_BIN = process.env.IDEMLAB_BIN ?? 'target/release/idemlab';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The trace's event lines from `idemlab run --text URL` (the first line is the scenario). */
function cliEvents(url) {
  const text = execFileSync(IDEMLAB_BIN, ['run', '--text', url], { encoding: 'utf8' });
  return text.split('\n').filter((line) => line.length > 0 && !line.startsWith('#'));
}

/** The panel's rows for run `side`: [key, state] per row. */
const rows = (page, side = 'a') => page.$$eval(`#keystore-body-${side} tr`, (trs) =>
  trs.map((tr) => [tr.cells[0].textContent, tr.dataset.state, tr.cells[2].textContent]));

/** Moves the cursor through the scrubber, as dragging it does. */
async function scrubTo(page, index) {
  await page.$eval('#scrub', (input, value) => {
    input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, index);
}

/** A's scenario with B's compare keys on top: the URL `idemlab run` reads for run B. */
function urlOfB(url) {
  const params = new URL(url).searchParams;
  const compare = params.get('compare');
  for (const key of ['compare', 'lesson', 'step', 'keys', 'tab', 'cursor']) params.delete(key);
  for (const pair of compare.split('&')) {
    const [key, value] = pair.split('=');
    params.set(key, value);
  }
  return params.toString();
}

test('a step about the key table opens the panel, and its rows follow the cursor', async () => {
  const step3 = await openLab(browser, 'lesson=a&step=3&gate=0');
  assert.equal(await step3.isVisible('#keystore-b'), true, 'step 3 opens the key store');
  assert.equal(await step3.getAttribute('#keystore-toggle', 'aria-pressed'), 'true');
  assert.equal(new URL(step3.url()).searchParams.get('keys'), '1');
  await step3.close();
  // Lesson A step 4, with the store opened by hand: check-then-insert without a transaction,
  // so a key's row appears at its "store response" event and holds its latest answer.
  const page = await openLab(browser, 'lesson=a&step=4&gate=0&keys=1');
  assert.equal(await page.isVisible('#keystore-a'), true);
  const panel = await page.$eval('#keystore-a', (el) => el.getBoundingClientRect().toJSON());
  const timeline = await page.$eval('#timeline-a', (el) => el.getBoundingClientRect().toJSON());
  assert.ok(panel.left >= timeline.right - 1 && panel.top < timeline.bottom, 'the panel is beside the timeline');

  const events = cliEvents(page.url());
  assert.equal(Number(await page.getAttribute('#timeline-a', 'data-events')), events.length);
  const quarters = [0, 1, 2, 3].map((q) => Math.floor((events.length * q) / 4));
  for (const cursor of [...quarters, events.length - 2]) {
    await scrubTo(page, cursor);
    const stored = new Map();
    for (const line of events.slice(0, cursor + 1)) {
      const found = line.match(/key=(\S+) store response (\d+)/);
      if (found) stored.set(found[1], found[2]);
    }
    const shown = await rows(page);
    assert.deepEqual(shown.map(([key]) => key).sort(), [...stored.keys()].sort(), `keys at event ${cursor}`);
    for (const [key, state, response] of shown) {
      assert.equal(state, 'done', `${key} at event ${cursor}`);
      assert.ok(response.startsWith(`${stored.get(key)}, charge #`), `${key}: ${response}`);
    }
  }
  await page.keyboard.press('End');
  const orders = cliCounts(page.url()).orders;
  assert.equal((await rows(page)).filter(([, state]) => state === 'done').length, orders);
  await page.screenshot({ path: `${ARTIFACTS}/panels-keystore.png` });

  const results = await new AxeBuilder({ page }).include('#run-a').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`), []);
  page.assertClean();
  await page.close();
});

test('compare mode: B has its own key table; the toggle closes both and the link says so', async () => {
  // Step 5: B claims the key in its transaction, so at the end every order has a done key.
  const page = await openLab(browser, 'lesson=a&step=5&gate=0');
  await page.keyboard.press('End');
  assert.equal(await page.isVisible('#keystore-b'), true);
  const b = cliCounts(urlOfB(page.url()));
  const doneB = (await rows(page, 'b')).filter(([, state]) => state === 'done');
  assert.equal(doneB.length, b.orders, 'a done key per order in the atomic run');
  // Somewhere in B a claim is held by an open transaction: the panel names it.
  const total = Number(await page.getAttribute('#timeline-a', 'data-events'));
  let claimed = false;
  for (let cursor = 0; cursor < total && !claimed; cursor += 1) {
    await scrubTo(page, cursor);
    claimed = (await rows(page, 'b')).some(([, state]) => state === 'claimed');
  }
  assert.ok(claimed, 'no cursor showed a claimed key in B');

  await page.click('#keystore-toggle');
  assert.equal(await page.isVisible('#keystore-a'), false);
  assert.equal(await page.isVisible('#keystore-b'), false);
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('keys'));
  await page.click('#keystore-toggle');
  assert.equal(await page.isVisible('#keystore-a'), true);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('keys') === '1');
  page.assertClean();
  await page.close();
});

test('classification: the answers lock, the score adds up, and "Show me" runs the shape', async () => {
  const page = await openLab(browser, 'lesson=a&step=2&gate=0');
  const items = await page.$$('#classify [data-op]');
  assert.equal(items.length, 3);
  for (let index = 0; index < 3; index += 1) {
    await page.click(`#classify [data-op="${index}"] [data-classify="natural"]`);
  }
  // A second answer changes nothing: the first stands.
  // force: the locked buttons are aria-disabled, which Playwright will not click otherwise.
  await page.click('#classify [data-op="0"] [data-classify="not"]', { force: true });
  assert.equal(await page.getAttribute('#classify [data-op="0"] [data-classify="natural"]', 'aria-pressed'), 'true');
  const right = await page.$$eval('#classify [data-op] [data-right]', (buttons) => buttons.map((b) => b.dataset.classify));
  assert.equal(right.length, 3, 'every answered operation shows its right class');
  const score = right.filter((name) => name === 'natural').length;
  assert.match((await page.textContent('#classify-score')).trim(), new RegExp(`Score: ${score} of 3\\.$`));
  const whys = await page.$$eval('#classify .classify-why', (ps) => ps.map((p) => p.textContent.length));
  assert.ok(whys.every((n) => n > 20), 'every answer says why');
  await page.screenshot({ path: `${ARTIFACTS}/panels-classify.png`, fullPage: true });
  const results = await new AxeBuilder({ page }).include('#classify').analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`), []);

  const shows = await page.$$('#classify [data-classify-show]:not([hidden])');
  assert.ok(shows.length >= 1, 'some operation has a run of the same shape');
  for (const index of [0, shows.length - 1]) {
    const before = page.url();
    await (await page.$$('#classify [data-classify-show]:not([hidden])'))[index].click();
    await page.waitForFunction((b) => location.href !== b, before);
    assert.equal(await page.isVisible('#run-b'), false, 'the operation runs alone, as A');
    const shown = await counters(page);
    const cli = cliCounts(page.url());
    for (const name of METRICS) assert.equal(shown[name], cli[name], `${page.url()}: ${name}`);
  }
  assert.match((await page.textContent('#classify-score')).trim(), new RegExp(`Score: ${score} of 3\\.$`), 'the answers stay');
  page.assertClean();
  await page.close();
});
