// History: a scenario change adds an entry, so Back undoes it; a cursor move rewrites the
// current entry; after Back, or a hash change and Back, the URL and the page agree.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { METRICS, cliCounts, counters, launch, openLab } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const param = (page, key) => new URL(page.url()).searchParams.get(key);

async function assertPageMatchesUrl(page, what) {
  const shown = await counters(page);
  const cli = cliCounts(page.url().split('#')[0]);
  for (const name of METRICS) assert.equal(shown[name], cli[name], `${what}: ${name}`);
}

test('Back undoes one scenario change, and cursor moves add no entry', async () => {
  const page = await openLab(browser, 'seed=7&preset=lost-ack');
  const entries = await page.evaluate(() => history.length);
  await page.selectOption('#key-dedup', 'atomic');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('dedup') === 'atomic');
  assert.equal(await page.evaluate(() => history.length), entries + 1, 'a scenario change pushes');
  await page.click('#to-start');
  await page.click('#step-fwd');
  await page.waitForFunction(() => new URL(location.href).searchParams.has('cursor'));
  assert.equal(await page.evaluate(() => history.length), entries + 1, 'a cursor move replaces');
  await page.goBack();
  await page.waitForFunction(() => new URL(location.href).searchParams.get('dedup') === null);
  await page.waitForFunction(() => document.querySelector('#key-dedup').value === 'none');
  assert.ok((await counters(page)).duplicates > 0, 'the run without dedup is back');
  await assertPageMatchesUrl(page, 'after Back');
  page.assertClean();
  await page.close();
});

test('after a hash change and Back, the URL and the page agree', async () => {
  const page = await openLab(browser, 'seed=7&preset=lost-ack');
  await page.evaluate(() => { location.hash = 'notes'; });
  await page.selectOption('#key-dedup', 'atomic');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('dedup') === 'atomic');
  await page.goBack();
  await page.waitForFunction(() => location.hash === '#notes');
  await page.waitForFunction(() => document.querySelector('#key-dedup').value === 'none');
  assert.equal(param(page, 'dedup'), null);
  await assertPageMatchesUrl(page, 'after the hash entry');
  await page.goBack();
  await page.waitForFunction(() => location.hash === '');
  assert.equal(await page.inputValue('#key-dedup'), 'none');
  await assertPageMatchesUrl(page, 'at the first entry');
  page.assertClean();
  await page.close();
});
