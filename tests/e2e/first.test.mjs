// The first view: with the wasm held back, a lesson link shows its step's heading, setup,
// question and choices, and the bare page run A's picture (an <img> of first/bare.svg), from
// files the build wrote; once the wasm arrives the page paints the same words and the first
// view goes. A step's own text and finished picture tell its answer: neither shows early.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, BASE_URL, launch, openPage } from './lab.mjs';

const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Opens `query` with every .wasm request held until the returned `release()` is called. */
async function openHeld(query, options) {
  const page = await openPage(browser, options);
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  await page.route('**/*.wasm', async (route) => { await released; await route.continue(); });
  await page.goto(`${BASE_URL}?${query}`);
  await page.waitForLoadState('load');
  return { page, release };
}

const box = (page, selector) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect();
  return { top: Math.round(r.top), left: Math.round(r.left) };
});

/** The words a reader sees in `selector`: a term's definition opens only when asked for. */
const words = (page, selector) => page.locator(selector).first().evaluate((el) => {
  const copy = el.cloneNode(true);
  copy.querySelectorAll('.term-def').forEach((def) => def.remove());
  return copy.textContent;
});

async function ready(page) {
  await page.waitForSelector('html[data-state="ready"]', { timeout: 30_000 });
}

for (const [label, options] of [['1366x768', DESKTOP], ['390x844', PHONE]]) {
  test(`lesson=a&step=4 at ${label}: the step's question shows before the wasm, as the page paints it`, async () => {
    const { page, release } = await openHeld('lesson=a&step=4', options);
    await page.locator('#first').waitFor({ state: 'visible', timeout: 10_000 });
    assert.equal(await page.locator('html[data-state="ready"]').count(), 0, 'the wasm was held back');
    const heading = await page.locator('#first-heading').textContent();
    assert.match(heading, /^Step 4 of 7: The race/);
    const setup = await page.locator('#first .predict-setup').textContent();
    assert.match(setup, /^3 orders\. The client gives up after 45 ms/);
    assert.equal(await page.locator('#first .predict-question').textContent(), 'Which run charges an order twice?');
    assert.deepEqual(await page.locator('#first .predict-choices button').allTextContents(), ['only A', 'only B', 'both', 'neither']);
    // The text says "1 race, 1 duplicate": it waits for the answer, as on the page.
    assert.equal(await page.locator('#first-text').isVisible(), false);
    assert.equal(await page.locator('#first-picture').isVisible(), false);
    await page.screenshot({ path: `${ARTIFACTS}/first-${label}.png` });
    const title = await box(page, '.chrome h1');
    // The words stand in the page's own boxes: the wasm takes over without moving them.
    const parts = ['h3', '.step-terms summary', '.predict-question', '.predict-choices button:last-child', '.predict-note'];
    const before = await Promise.all(parts.map((part) => box(page, `#first ${part}`)));

    release();
    await ready(page);
    assert.equal(await page.locator('#lesson-heading').textContent(), heading);
    assert.equal(await words(page, '#lesson-step .predict-setup'), setup);
    assert.equal(await page.locator('#first').isVisible(), false);
    await page.screenshot({ path: `${ARTIFACTS}/first-${label}-ready.png` });
    assert.deepEqual(await box(page, '.chrome h1'), title, "the page's title did not move");
    const after = await Promise.all(parts.map((part) => box(page, `#lesson-step ${part}`)));
    parts.forEach((part, i) => assert.deepEqual(after[i], before[i], `${part} moved when the wasm took over`));
    page.assertClean();
    await page.context().close();
  });
}

test('the bare page shows run A\'s picture before the wasm: the SVG idemlab svg writes', async () => {
  const { page, release } = await openHeld('', DESKTOP);
  const picture = page.locator('#first-picture');
  await picture.waitFor({ state: 'visible', timeout: 10_000 });
  // Shown as soon as its source is set: the file may still be on its way.
  await page.waitForFunction(() => { const img = document.getElementById('first-picture'); return img.complete && img.naturalWidth > 0; }, null, { timeout: 10_000 });
  assert.equal(await picture.evaluate((img) => img.naturalWidth), 1128, 'the picture is the SVG idemlab svg writes');
  assert.equal(await page.locator('#first-heading').isVisible(), false, 'the bare page has no heading of its own');
  await page.screenshot({ path: `${ARTIFACTS}/first-bare.png` });
  release();
  await ready(page);
  assert.equal(await picture.isVisible(), false, 'the canvas takes over');
  page.assertClean();
  await page.context().close();
});

test('a link with a scenario key shows the words at once and no picture until the wasm draws', async () => {
  for (const query of ['lesson=a&step=4&seed=9', 'seed=9']) {
    const { page, release } = await openHeld(query, DESKTOP);
    await page.waitForTimeout(300);
    assert.equal(await page.locator('#first-picture').isVisible(), false, query);
    if (query.startsWith('lesson')) assert.match(await page.locator('#first-heading').textContent(), /^Step 4 of 7/);
    release();
    await ready(page);
    page.assertClean();
    await page.context().close();
  }
});

test('a check link shows its title and introduction; a link in another language shows only the loading note', async () => {
  const { page, release } = await openHeld('lesson=b&quiz=77', DESKTOP);
  await page.locator('#first').waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await page.locator('#first-heading').textContent(), 'Mastery check: Lesson B');
  assert.match(await page.locator('#first-text').textContent(), /Quiz seed 77: the same link gives the same questions\.$/);
  assert.equal(await page.locator('#first-picture').isVisible(), false);
  const title = await box(page, '#first-heading');
  release();
  await ready(page);
  assert.equal(await page.locator('#quiz-title').textContent(), 'Mastery check: Lesson B');
  assert.deepEqual(await box(page, '#quiz-title'), title, "the check's title did not move");
  page.assertClean();
  await page.context().close();

  // With no lesson= the check is Lesson A's, and hides its run: no bare picture for it.
  const bare = await openHeld('quiz=5', DESKTOP);
  await bare.page.locator('#first').waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await bare.page.locator('#first-heading').textContent(), 'Mastery check: Lesson A');
  assert.equal(await bare.page.locator('#first-picture').isVisible(), false);
  bare.release();
  await bare.page.context().close();

  // Another language: the loading note alone, and the page's own markup unseen.
  const other = await openHeld('lesson=a&step=4&lang=qps', DESKTOP);
  await other.page.locator('#first').waitFor({ state: 'visible', timeout: 10_000 });
  assert.equal(await other.page.locator('#first-heading').textContent(), '');
  assert.ok(await other.page.locator('.first-note').isVisible());
  assert.equal(await other.page.locator('#toolbar').isVisible(), false, 'the bare markup waits unseen');
  other.release();
  await other.page.context().close();
});

test('the build precompresses the first views and packs each lesson\'s own into its SCORM package', () => {
  const dist = resolve(process.env.FIRST_DIST ?? 'dist');
  const files = readdirSync(join(dist, 'first')).filter((name) => !/\.(br|gz)$/.test(name)).sort();
  assert.ok(files.includes('bare.json') && files.includes('bare.svg') && files.includes('a-4.json'), files.join(' '));
  for (const name of files) {
    for (const copy of ['.br', '.gz']) assert.ok(existsSync(join(dist, 'first', name + copy)), `${name}${copy}`);
  }
  for (const lesson of ['a', 'b', 'c']) {
    const listing = execFileSync('python3', ['-m', 'zipfile', '-l', join(dist, 'scorm', `idemlab-lesson-${lesson}.zip`)], { encoding: 'utf8' });
    const packed = [...listing.matchAll(/^first\/(\S+)/gm)].map((m) => m[1]).sort();
    // A package's locked lesson never opens another lesson's steps.
    const own = files.filter((name) => !/^[abc]-/.test(name) || name.startsWith(`${lesson}-`));
    assert.deepEqual(packed, own, `lesson ${lesson}'s package`);
    assert.match(listing, /^first\.js /m);
  }
});
