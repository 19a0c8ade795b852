// Listeners are registered once, at mount: opening and leaving the ordering step (whose
// markup is rebuilt each time) must not add any. Issue 9 found 6 more per visit.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, launch, openPage } from './lab.mjs';

const TITLE = 'The order of the steps matters';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Counts every addEventListener call minus every removeEventListener, page-wide. */
function countListeners() {
  window.__listeners = 0;
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (...args) {
    window.__listeners += 1;
    return add.apply(this, args);
  };
  EventTarget.prototype.removeEventListener = function (...args) {
    window.__listeners -= 1;
    return remove.apply(this, args);
  };
}

test('opening and leaving the ordering step 50 times registers no listener', async () => {
  const page = await openPage(browser);
  await page.addInitScript(countListeners);
  await page.goto(`${BASE_URL}?lesson=a&step=1&gate=0`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  const visit = async () => {
    await page.click(`#lesson-steps button:text-is("${TITLE}")`);
    await page.waitForSelector('[data-exercise="ordering"] #order-list li');
    await page.click('#lesson-steps li:first-child button');
    await page.waitForSelector('[data-exercise="ordering"]', { state: 'detached' });
  };
  await visit();
  const first = await page.evaluate(() => window.__listeners);
  assert.ok(first > 0, 'the counter sees the page register its listeners');
  for (let i = 0; i < 50; i++) await visit();
  assert.equal(await page.evaluate(() => window.__listeners), first);
  page.assertClean();
  await page.close();
});
