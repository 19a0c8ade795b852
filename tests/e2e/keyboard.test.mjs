// Issue 14, as a keyboard-only learner meets the lab: from a fresh load, with Tab, arrows,
// Enter and Space alone, reach every tab, walk Lesson A to its end (predictions answered by
// keyboard, the ordering exercise run), answer a mastery-check question, and leave the event
// list forward. Focus never falls to the page's body on the way. A recorder (a
// MutationObserver installed before the page's own script) counts what live regions say.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, launch } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Every write of non-empty text into a live region, as a screen reader would hear it. */
function recorder() {
  window.__spoken = [];
  const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], output:not([aria-live="off"])';
  new MutationObserver((records) => {
    const regions = new Set();
    for (const record of records) {
      const node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      const region = node?.closest(live);
      if (region) regions.add(region);
    }
    for (const region of regions) {
      const text = region.textContent.trim();
      if (text && !region.closest('[hidden]')) window.__spoken.push({ id: region.id || region.className, text });
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** The lab at `query` with the recorder installed before any script of the page. */
async function openRecorded(query) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.assertClean = () => assert.deepEqual(problems, []);
  await page.goto(`${BASE_URL}?${query}`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  return page;
}

const spoken = (page) => page.evaluate(() => window.__spoken.slice());

/** A short description of the focused element; fails on the body. */
async function focused(page) {
  const what = await page.evaluate(() => {
    const e = document.activeElement;
    if (!e || e === document.body || e === document.documentElement) return 'BODY';
    return `${e.tagName.toLowerCase()}#${e.id}|${e.getAttribute('role') ?? ''}|${(e.textContent ?? '').trim().slice(0, 40)}`;
  });
  assert.notEqual(what, 'BODY', 'focus fell to the page body');
  return what;
}

/** Presses Tab until `selector` has the focus; returns the presses it took. */
async function tabTo(page, selector, max = 120) {
  let from = '';
  for (let presses = 1; presses <= max; presses++) {
    // A fresh page's focus is on the body until the first Tab.
    if (presses > 1) from = await focused(page);
    await page.keyboard.press('Tab');
    await focused(page).catch((e) => { throw new Error(`Tab from ${from} towards ${selector}: ${e.message}`); });
    if (await page.evaluate((s) => document.activeElement.matches(s), selector)) return presses;
  }
  throw new Error(`${selector} not reached in ${max} Tab presses (at ${await focused(page)})`);
}

const cursor = (page) => page.evaluate(() => document.querySelector('#scrub').value);

test('keyboard alone: every tab, Lesson A to its end, the ordering verdict, a check answer, past the event list', async () => {
  const page = await openRecorded('');
  // The first Tab stop is the skip link to the timeline.
  await page.keyboard.press('Tab');
  assert.match(await focused(page), /skip-timeline/);
  await page.keyboard.press('Enter');
  assert.match(await focused(page), /canvas#canvas-a/);
  // The tab list: one Tab stop, the arrows move between its tabs and the panel follows.
  await tabTo(page, '[role="tab"]');
  const at = await cursor(page);
  for (const [key, tab] of [['ArrowRight', 'tables'], ['ArrowRight', 'sweep'], ['ArrowRight', 'lessons'],
    ['ArrowRight', 'events'], ['ArrowLeft', 'lessons'], ['Home', 'events'], ['End', 'lessons']]) {
    await page.keyboard.press(key);
    assert.match(await focused(page), new RegExp(`#tab-${tab}\\|tab`), key);
    assert.equal(await page.getAttribute(`#tab-${tab}`, 'aria-selected'), 'true');
    assert.equal(await page.isVisible(`#panel-${tab}`), true, `${tab}'s panel shows`);
    assert.equal(await cursor(page), at, `${key} on a tab moved the playback cursor`);
  }
  // Lessons is open: its first button opens Lesson A, and the focus goes to the step.
  await tabTo(page, '#lesson-picker button');
  assert.match(await focused(page), /Lesson A|idempot|Retries/i);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#lesson-heading');
  assert.match(await focused(page), /#lesson-heading/);
  const steps = await page.$$eval('#lesson-steps button', (b) => b.length);
  let verdict = '';
  for (let step = 1; step <= steps; step++) {
    assert.match(await page.textContent('#lesson-heading'), new RegExp(`Step ${step} of ${steps}`));
    if (await page.$('#lesson-step .predict-choices button:not([aria-disabled="true"])')) {
      await tabTo(page, '.predict-choices button');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('.predict-feedback')?.textContent.trim());
    }
    if (await page.$('#order-list')) {
      await tabTo(page, '#order-list li');
      await page.keyboard.press('Alt+ArrowDown');
      await tabTo(page, '#order-run');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('#order-verdict')?.textContent.trim());
      verdict = (await page.textContent('#order-verdict')).trim();
    }
    if (step === steps) break;
    const presses = await tabTo(page, '#lesson-step [data-next]');
    console.log(`step ${step}: "Next step" ${presses} Tab presses from the focus`);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelector('#lesson-heading')?.textContent.startsWith(`Step ${n} `), step + 1);
    assert.match(await focused(page), /#lesson-heading/);
  }
  assert.ok(verdict, 'the ordering exercise gave a verdict');
  // The mastery check: start it, answer the first question, check the answer.
  await tabTo(page, '[data-quiz-start]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#quiz-form, #quiz-start');
  if (await page.$('#quiz-start')) {
    await tabTo(page, '#quiz-start');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#quiz-form');
  }
  if (await page.$('#quiz-number')) {
    await tabTo(page, '#quiz-number');
    await page.keyboard.type('1');
  } else {
    await tabTo(page, 'input[name="quiz-choice"]');
    await page.keyboard.press('Space');
  }
  await tabTo(page, '#quiz-check');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#quiz-next, #quiz-proof');
  assert.match(await page.textContent('#quiz-feedback'), /right|answer|not/i);
  // The Events tab and its list: one Tab stop, ↓ selects rows, Enter keeps the focus, and the
  // next Tab reaches what follows the list.
  await tabTo(page, '#tab-events');
  await page.keyboard.press('Enter');
  await tabTo(page, '#events');
  await page.keyboard.press('Home');
  for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await page.getAttribute('#events', 'aria-activedescendant'), 'ev-2');
  assert.equal(await page.getAttribute('#ev-2', 'aria-selected'), 'true');
  assert.equal(await cursor(page), '2');
  await page.keyboard.press('Enter');
  assert.match(await focused(page), /table#events/);
  await page.click('#ev-2 td:nth-child(3)');
  assert.match(await focused(page), /table#events/, 'a click on a row keeps the focus on the list');
  await page.keyboard.press('Tab');
  assert.match(await focused(page), /#skip-back/);
  page.assertClean();
});

test('from a lesson link, "Next step" is a few Tab presses from the skip link', async () => {
  const page = await openRecorded('lesson=a&step=1&gate=0');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.match(await focused(page), /skip-lesson/);
  await page.keyboard.press('Enter');
  assert.match(await focused(page), /#lesson-heading/);
  const presses = await tabTo(page, '#lesson-step [data-next]');
  console.log(`lesson=a&step=1: "Next step" is ${presses + 3} key presses from the load (2 Tab, Enter, ${presses} Tab)`);
  assert.ok(presses + 3 <= 25, `${presses + 3} presses`);
  const plain = await openRecorded('lesson=a&step=1&gate=0');
  console.log(`without the skip link: ${await tabTo(plain, '#lesson-step [data-next]')} Tab presses`);
  // "Close lesson" takes its column away: the focus goes to the lesson picker, not the body.
  await page.focus('#lesson-close');
  await page.keyboard.press('Enter');
  assert.match(await focused(page), /^button#\|\|Lesson A/);
});

test('shortcuts act only where the focused control does not use the key, and can be turned off', async () => {
  const page = await openRecorded('seed=5');
  const seed = () => page.inputValue('#seed');
  // Space on a lesson-free button presses it, never plays; N from a text field types.
  await page.focus('#copy-link');
  await page.keyboard.press('ArrowRight');
  assert.equal(await cursor(page), await page.evaluate(() => document.querySelector('#scrub').max), 'an arrow on a button moved the cursor');
  await page.focus('#compare-keys').catch(() => {});
  await page.focus('#seed');
  await page.keyboard.press('n');
  assert.equal(await page.textContent('#play'), '▶ Play');
  // Turned off in the help, the setting is kept with the progress.
  await page.focus('#canvas-a');
  await page.keyboard.press('?');
  await page.waitForSelector('#help-dialog[open]');
  await page.check('#shortcuts-off');
  await page.keyboard.press('Escape');
  const before = await seed();
  await page.focus('#canvas-a');
  await page.keyboard.press('n');
  assert.equal(await seed(), before, 'N with the shortcuts off');
  assert.match(await page.evaluate(() => localStorage.getItem('idemlab.progress')), /shortcuts=off/);
  await page.reload();
  await page.waitForSelector('html[data-state="ready"]');
  assert.equal(await page.isChecked('#shortcuts-off'), true);
  // Escape closes the canvas tooltip that focus opened.
  await page.focus('#canvas-a');
  assert.equal(await page.isVisible('#tooltip-a'), true);
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#tooltip-a'), false);
  page.assertClean();
});

test('live regions speak once: a 3-second playback at most twice, a step change once', async () => {
  const page = await openRecorded('preset=race&seed=3');
  const speed = await page.inputValue('#speed');
  await page.focus('#play');
  const start = (await spoken(page)).length;
  await page.keyboard.press('Space');
  await page.waitForTimeout(3_000);
  if ((await page.textContent('#play')).includes('Pause')) await page.keyboard.press('Space');
  await page.waitForTimeout(300);
  const playback = (await spoken(page)).slice(start);
  console.log(`a 3-second playback at ${speed}/s: ${playback.length} announcements`, playback);
  assert.ok(playback.length >= 1 && playback.length <= 2, JSON.stringify(playback));

  const lesson = await openRecorded('lesson=a&step=1&gate=0');
  const before = (await spoken(lesson)).length;
  await lesson.focus('#lesson-step [data-next]');
  await lesson.keyboard.press('Enter');
  await lesson.waitForFunction(() => document.querySelector('#lesson-heading')?.textContent.startsWith('Step 2 '));
  await lesson.waitForTimeout(1_000);
  const step = (await spoken(lesson)).slice(before);
  console.log('a step change:', step);
  assert.equal(step.length, 1, JSON.stringify(step));
  assert.match(step[0].text, /^Step 2 of \d+: /);
  assert.ok(step[0].text.length < 300, step[0].text);

  // A reorder in the ordering exercise says the move, not the list.
  const ordering = await openRecorded('lesson=a&step=1&gate=0');
  await ordering.click('#lesson-steps button:text-is("The order of the steps matters")');
  await ordering.waitForSelector('#order-list li');
  await ordering.waitForTimeout(500);
  await ordering.focus('#order-list li');
  const moved = (await spoken(ordering)).length;
  await ordering.keyboard.press('Alt+ArrowDown');
  await ordering.waitForTimeout(500);
  const move = (await spoken(ordering)).slice(moved);
  console.log('a reorder:', move);
  assert.equal(move.length, 1, JSON.stringify(move));
  assert.match(move[0].text, /^.{1,60} moved to position 2 of 6\.$/);

  // A new run under the same step: the counters the step names say their new values, once.
  const named = await openRecorded('lesson=a&step=3&gate=0');
  const labels = await named.$$eval('#counters-a [data-named="1"]', (dds) => dds.map((dd) => dd.previousElementSibling.textContent));
  assert.ok(labels.length > 0, 'step 3 names counters');
  const ran = (await spoken(named)).length;
  await named.fill('#seed', '12345');
  await named.press('#seed', 'Enter');
  await named.waitForTimeout(1_000);
  const counts = (await spoken(named)).slice(ran);
  console.log('a new run under step 3:', counts);
  assert.ok(counts.length <= 1, JSON.stringify(counts));
});
