// The finale's task as a learner does it: from Lesson A's last step to an empty sandbox, each
// part added with its button, the faults and the fix set in the Controls drawer, and the
// result's link, which `idemlab run` reproduces run for run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ARTIFACTS, BASE_URL, cliCounts, compareUrl, launch, openLab } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const done = (page) => page.$$eval('.build-stages li', (items) => items.map((li) => li.dataset.done === '1'));

/** Sets a scenario key in the drawer, as a learner types it, and closes the drawer again. */
async function set(page, key, value) {
  const before = new URL(page.url()).searchParams.get(key);
  await page.click('#controls-toggle');
  const control = `#key-${key}`;
  if (await page.$eval(control, (e) => e.tagName === 'SELECT')) await page.selectOption(control, value);
  else {
    await page.fill(control, value);
    await page.press(control, 'Enter');
  }
  // The link changes; a default value leaves it (store=durable is the default).
  await page.waitForFunction(([k, was]) => new URL(location.href).searchParams.get(k) !== was, [key, before]);
  await page.click('#controls-close');
}

test('the finale: build, break with a one-way partition, fix with an atomic durable store, and the CLI agrees', async () => {
  const page = await openLab(browser, 'lesson=a&step=7&gate=0', { viewport: { width: 1366, height: 768 } });
  await page.click('#lesson-step [data-build]');
  await page.waitForSelector('.build-stages');
  assert.equal(await page.isVisible('#timeline-a'), false, 'no timeline while only the client is in');
  assert.deepEqual(await done(page), [false, false, false, false, false]);
  for (const part of ['api', 'payment', 'db']) await page.click(`[data-part="${part}"]`);
  await page.waitForSelector('#timeline-a', { state: 'visible' });
  assert.equal(new URL(page.url()).searchParams.get('build'), 'client,api,payment,db');
  await set(page, 'timeout_ms', '300');
  await set(page, 'retries', '1');
  await set(page, 'partition', '0..400');
  await page.waitForFunction(() => document.querySelectorAll('.build-stages li[data-done="1"]').length === 3);
  const broken = cliCounts(page.url());
  assert.ok(broken.duplicates > 0, 'the CLI sees the duplicate the page marks');
  assert.equal(await page.textContent('#counters-a [data-metric="duplicates"]'), String(broken.duplicates));
  await set(page, 'dedup', 'atomic');
  await set(page, 'store', 'durable');
  await page.waitForSelector('.build-result a[href]');
  assert.deepEqual(await done(page), [true, true, true, true, true]);
  await page.screenshot({ path: `${ARTIFACTS}/build-done.png` });
  const result = new URL(await page.getAttribute('.build-result a', 'href'), BASE_URL).href;
  assert.equal(cliCounts(result).duplicates, broken.duplicates, 'A of the result is the broken run');
  assert.equal(cliCounts(compareUrl(result)).duplicates, 0, 'B of the result is the fix');
  await page.click('.build-result a');
  await page.waitForSelector('html[data-state="ready"]');
  await page.waitForSelector('.build-result a[href]');
  assert.deepEqual(await done(page), [true, true, true, true, true], 'the link loads back done');
  page.assertClean();
  await page.close();
});

test('a bad build= names itself in the banner and the page still loads', async () => {
  const page = await openLab(browser, 'build=api');
  assert.match(await page.textContent('#banner'), /build=api.*client/s);
  page.assertClean();
  await page.close();
});
