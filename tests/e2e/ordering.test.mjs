// The ordering exercise in Lesson A, as a learner meets it: reorder the six steps by keyboard
// and by drag, run the order, and see the verdict, the permalink and the counters agree with
// `idemlab run` on the same URL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, METRICS, cliCounts, counters, launch, openLab } from './lab.mjs';

const TITLE = 'The order of the steps matters';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Opens Lesson A and goes to the ordering step by its title, whatever its number. */
async function openExercise() {
  const page = await openLab(browser, 'lesson=a&step=1&gate=0');
  await page.click(`#lesson-steps button:text-is("${TITLE}")`);
  await page.waitForSelector('[data-exercise="ordering"] #order-list li');
  assert.match(await page.textContent('#lesson-step h3'), new RegExp(TITLE));
  return page;
}

const draft = (page) => page.$$eval('#order-list li', (items) => items.map((li) => li.dataset.orderStep).join(','));

/** Focuses step `name` and presses Alt+`key` `times` times. */
async function nudge(page, name, key, times) {
  await page.focus(`#order-list li[data-order-step="${name}"]`);
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(`Alt+${key}`);
  }
}

async function runOrder(page) {
  const before = await page.getAttribute('#order-verdict', 'data-judge-ms');
  await page.click('#order-run');
  await page.waitForFunction((b) => {
    const ms = document.querySelector('#order-verdict').dataset.judgeMs;
    return ms !== undefined && ms !== b;
  }, before);
  const ms = Number(await page.getAttribute('#order-verdict', 'data-judge-ms'));
  // Reported, not asserted: a wall-clock limit in a test flakes on a loaded machine.
  // scripts/bench.sh measures the verdict against its 200 ms budget.
  console.log(`verdict took ${ms} ms in the browser`);
  assert.ok(Number.isFinite(ms) && ms >= 0, `data-judge-ms is not a time: ${ms}`);
  return (await page.textContent('#order-verdict')).trim();
}

async function assertCountersMatchCli(page, what) {
  const shown = await counters(page);
  const cli = cliCounts(page.url());
  for (const name of METRICS) assert.equal(shown[name], cli[name], `${what}: ${name}`);
}

test('keyboard: an effect before the claim fails, the textbook order is safe', async () => {
  const page = await openExercise();
  // The step opens on its own wrong order: the charge before the claim.
  assert.equal(await draft(page), 'begin,lookup,effect,claim,commit,respond');
  await nudge(page, 'effect', 'ArrowUp', 1);
  assert.equal(await draft(page), 'begin,effect,lookup,claim,commit,respond');
  assert.match(await page.textContent('#order-announce'), /effect moved to position 2 of 6/);
  assert.equal(await page.evaluate(() => document.activeElement.dataset.orderStep), 'effect', 'focus follows the step');

  const failed = await runOrder(page);
  assert.equal(await page.getAttribute('#order-verdict', 'data-verdict'), 'fails');
  assert.match(failed, /^Fails\. The charge ran before the key was claimed/);
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('order'), 'begin,effect,lookup,claim,commit,respond');
  assert.ok((await counters(page)).duplicates > 0, 'the failing run shows its duplicates');
  await assertCountersMatchCli(page, 'failing run');
  await page.screenshot({ path: `${ARTIFACTS}/ordering-fails.png`, fullPage: true });

  await nudge(page, 'effect', 'ArrowDown', 2);
  assert.equal(await draft(page), 'begin,lookup,claim,effect,commit,respond');
  const safe = await runOrder(page);
  assert.equal(await page.getAttribute('#order-verdict', 'data-verdict'), 'safe');
  assert.match(safe, /^Safe in all \d+ runs/);
  // The textbook order is the default, so the canonical permalink leaves `order=` out.
  assert.equal(new URL(page.url()).searchParams.get('order'), null);
  assert.equal((await counters(page)).duplicates, 0);
  await assertCountersMatchCli(page, 'safe run');
  await page.screenshot({ path: `${ARTIFACTS}/ordering-safe.png`, fullPage: true });
  page.assertClean();
  await page.close();
});

test('the up and down buttons move a step and answering before the commit fails on a crash', async () => {
  const page = await openExercise();
  // From begin,lookup,effect,claim,commit,respond to the textbook order, then respond up one.
  await page.click('#order-list li[data-order-step="claim"] button[data-move="up"]');
  await page.click('#order-list li[data-order-step="respond"] button[data-move="up"]');
  assert.equal(await draft(page), 'begin,lookup,claim,effect,respond,commit');
  const failed = await runOrder(page);
  assert.match(failed, /answer went out before the commit.*a crash after respond/);
  assert.equal(new URL(page.url()).searchParams.get('crash'), 'api@after-respond');
  await assertCountersMatchCli(page, 'respond before commit');
  page.assertClean();
  await page.close();
});

test('a claim committed before the transaction (the phased shape) is safe with its lease, and the verdict says so', async () => {
  const page = await openExercise();
  for (let i = 0; i < 3; i++) await page.click('#order-list li[data-order-step="claim"] button[data-move="up"]');
  assert.equal(await draft(page), 'claim,begin,lookup,effect,commit,respond');
  const verdict = await runOrder(page);
  assert.equal(await page.getAttribute('#order-verdict', 'data-verdict'), 'safe');
  assert.match(verdict, /^Safe in all \d+ runs/);
  assert.match(verdict, /ledger's boundary/);
  assert.match(verdict, /300 ms lease/);
  page.assertClean();
  await page.close();
});

test('drag: a step dragged by its handle moves to where it is dropped', async () => {
  const page = await openExercise();
  const grip = await page.$('#order-list li[data-order-step="claim"] .order-grip');
  // Mouse coordinates are the viewport's: bring the list into view first.
  await page.$eval('#order-list', (list) => list.scrollIntoView({ block: 'center' }));
  const target = await page.$('#order-list li[data-order-step="effect"]');
  const from = await grip.boundingBox();
  const to = await target.boundingBox();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, to.y + 4, { steps: 6 });
  await page.mouse.up();
  assert.equal(await draft(page), 'begin,lookup,claim,effect,commit,respond');
  assert.match(await runOrder(page), /^Safe/);
  page.assertClean();
  await page.close();
});

test('a malformed order in a link is reported and the rest of the page loads', async () => {
  const page = await openLab(browser, 'seed=1&order=1123456&lesson=a&step=1&tab=lessons&gate=0');
  assert.match(await page.textContent('#banner'), /order/);
  await page.click(`#lesson-steps button:text-is("${TITLE}")`);
  await page.waitForSelector('#order-list li');
  page.assertClean();
  await page.close();
});

test('axe-core finds no serious or critical problem in the exercise, before and after a verdict', async () => {
  const page = await openExercise();
  for (const when of ['before', 'after']) {
    if (when === 'after') await runOrder(page);
    const results = await new AxeBuilder({ page }).include('[data-exercise="ordering"]').analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`), [], when);
  }
  page.assertClean();
  await page.close();
});
