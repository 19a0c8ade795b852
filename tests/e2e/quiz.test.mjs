// The mastery check as a learner takes it: every answer is read off the simulator on the page
// (the counters, the Tables tab, or each choice shown as B), never taken from the quiz's code.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, cliCounts, counters, launch, openLab } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const param = (page, key) => new URL(page.url()).searchParams.get(key);

/** The stored progress record, as the page wrote it (see src/quiz/progress.rs for the format). */
const stored = (page) => page.evaluate(() => {
  const [header, ...lines] = (localStorage.getItem('idemlab.progress') ?? '').split('\n');
  const lessons = {};
  for (const line of lines.filter(Boolean)) {
    const f = Object.fromEntries(line.split(' ').map((field) => field.split('=')));
    const answers = f.answers ? f.answers.split(',').map((a) => (a === '-' ? null : Number(a))) : [];
    lessons[f.lesson] = { mastered: f.mastered === '1', best: Number(f.best), quiz: f.quiz, answers };
  }
  return { version: Number(header.split(' ')[1]), lessons };
});

/** Charges of `order` in the Tables tab (the run at its end), then back to the check. */
async function chargesInTable(page, order) {
  await page.click('#tab-tables');
  const orders = await page.$$eval('#panel-tables table.data', (tables) => {
    const charges = tables.find((t) => t.caption.textContent.startsWith('Charges'));
    return [...charges.tBodies[0].rows].map((row) => row.cells[1].textContent);
  });
  await page.click('#tab-lessons');
  return orders.filter((o) => o === String(order)).length;
}

/** Shows each choice as B and returns the indices whose run ends with 0 duplicates, 0 lost. */
async function safeChoices(page) {
  const keys = await page.$$eval('#quiz-form label[data-keys]', (labels) => labels.map((l) => l.dataset.keys));
  const safe = [];
  for (const [index, choice] of keys.entries()) {
    await page.check(`#quiz-form input[value="${index}"]`);
    await page.click('#quiz-try');
    await page.waitForFunction((k) => new URL(location.href).searchParams.get('compare') === k, choice);
    const b = await counters(page, 'b');
    if (b.duplicates === 0 && b.lost === 0) safe.push(index);
  }
  return safe;
}

/** Reads the answer to the question on screen off the run the page shows. */
async function readAnswer(page) {
  const form = await page.$('#quiz-form');
  const kind = await form.getAttribute('data-kind');
  if (await page.$('#quiz-form input[name="quiz-choice"]')) {
    const safe = await safeChoices(page);
    assert.equal(safe.length, 1, `${kind}: exactly one safe choice, got ${safe}`);
    return { kind, choice: safe[0] };
  }
  if (kind === 'charges-for-order') {
    return { kind, number: await chargesInTable(page, await form.getAttribute('data-order')) };
  }
  const metric = { 'duplicates-after-expiry': 'duplicates', 'lost-with-one-key': 'lost', 'receipts-without-inbox': 'receipts' }[kind];
  assert.ok(metric, `a number question of unknown kind ${kind}`);
  return { kind, number: (await counters(page))[metric] };
}

async function give(page, answer) {
  if (answer.choice !== undefined) await page.check(`#quiz-form input[value="${answer.choice}"]`);
  else await page.fill('#quiz-number', String(answer.number));
  await page.click('#quiz-check');
  await page.waitForSelector('#quiz-feedback[data-result]');
}

/** Takes the whole check on screen; `answerFor(n, readAnswer)` may replace the read answer. */
async function takeCheck(page, answerFor = (n, read) => read) {
  const prompts = [];
  for (let n = 1; n <= 4; n++) {
    await page.waitForSelector(`#quiz-form[data-question="${n}"]`);
    prompts.push(await page.textContent('#quiz-form legend'));
    const answer = answerFor(n, await readAnswer(page));
    await give(page, answer);
    // The explanation points at the timeline: the cursor sits on the proving event (the URL
    // follows the cursor within 250 ms).
    await page.waitForFunction(() => new URL(location.href).searchParams.has('cursor'));
    assert.match(await page.textContent('#quiz-feedback'), /cursor/);
    await page.click('#quiz-next');
  }
  await page.waitForSelector('#quiz-score');
  return prompts;
}

test('Lesson A: reading every answer off the sim masters the lesson, and a reload keeps it', async () => {
  const page = await openLab(browser, 'lesson=a&quiz=2024');
  assert.match(await page.textContent('#quiz'), /Quiz seed 2024/);
  console.log(`quiz generated in the page in ${await page.getAttribute('#quiz', 'data-generate-ms')} ms`);
  await page.click('#quiz-start');
  await page.waitForSelector('#quiz-form[data-question="1"]');
  // The question's run is the one on the page: its counters are `idemlab run` on this URL.
  const shown = await counters(page);
  assert.equal(shown.effects, cliCounts(page.url()).effects);
  await takeCheck(page);
  await page.screenshot({ path: `${ARTIFACTS}/quiz-score.png`, fullPage: true });
  assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'true');
  await page.reload();
  await page.waitForSelector('html[data-state="ready"]');
  assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'true');
  const record = await stored(page);
  assert.equal(record.version, 3);
  assert.deepEqual([record.lessons.a.mastered, record.lessons.a.best, record.lessons.a.quiz], [true, 4, '2024']);
  page.assertClean();
  await page.close();
});

test('the same quiz= seed gives the same questions in two page loads', async () => {
  const runs = [];
  for (let load = 0; load < 2; load++) {
    const page = await openLab(browser, 'lesson=b&quiz=99');
    await page.click('#quiz-start');
    const prompts = await takeCheck(page);
    runs.push({ prompts, query: param(page, 'seed') });
    assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'true');
    page.assertClean();
    await page.close();
  }
  assert.deepEqual(runs[0], runs[1]);
});

test('an answer is locked after one attempt, even a wrong one, and across a reload', async () => {
  const page = await openLab(browser, 'lesson=a&quiz=5');
  await page.click('#quiz-start');
  await page.waitForSelector('#quiz-form[data-question="1"]');
  const read = await readAnswer(page);
  await give(page, { number: read.number + 1 });
  await page.screenshot({ path: `${ARTIFACTS}/quiz-wrong.png`, fullPage: true });
  assert.equal(await page.getAttribute('#quiz-feedback', 'data-result'), 'wrong');
  assert.equal(await page.isDisabled('#quiz-number'), true);
  assert.equal(await page.isDisabled('#quiz-check'), true);
  // Submitting the form another way changes nothing either.
  await page.$eval('#quiz-form', (form) => form.requestSubmit());
  assert.equal(await page.getAttribute('#quiz-feedback', 'data-result'), 'wrong');
  await page.reload();
  await page.waitForSelector('html[data-state="ready"]');
  await page.waitForSelector('#quiz-form[data-question="2"]');
  assert.equal((await stored(page)).lessons.a.answers[0], read.number + 1);
  page.assertClean();
  await page.close();
});

test('three of four right is not mastery', async () => {
  const page = await openLab(browser, 'lesson=a&quiz=31');
  await page.click('#quiz-start');
  await takeCheck(page, (n, read) => (n === 4 ? wrong(read) : read));
  assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'false');
  assert.match(await page.textContent('#quiz-score'), /3 of 4 right \(75%\): not mastered/);
  assert.equal((await stored(page)).lessons.a.mastered, false);
  page.assertClean();
  await page.close();
});

function wrong(read) {
  return read.choice !== undefined ? { choice: (read.choice + 1) % 3 } : { number: read.number + 1 };
}

test('a bad quiz seed and corrupt progress are explained, never a crash', async () => {
  const page = await openLab(browser, 'lesson=a&quiz=banana');
  assert.match(await page.textContent('#banner'), /quiz=banana.*quiz seed/s);
  await page.evaluate(() => localStorage.setItem('idemlab.progress', '{oops'));
  await page.goto(new URL('?lesson=a&step=10', page.url()).href);
  await page.waitForSelector('html[data-state="ready"]');
  assert.match(await page.textContent('#lesson-step'), /Mastery check:/);
  await page.click('text=Take the mastery check');
  await page.waitForSelector('#quiz-form[data-question="1"]');
  assert.match(param(page, 'quiz'), /^\d+$/);
  assert.match(await page.textContent('#quiz'), /could not be read, so it starts afresh/);
  page.assertClean();
  await page.close();
});

test('axe-core finds no serious or critical violations in a question, before and after answering', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await openLab(browser, 'lesson=b&quiz=8', { colorScheme: scheme });
    await page.click('#quiz-start');
    await page.waitForSelector('#quiz-form[data-question="1"]');
    for (const moment of ['before', 'after']) {
      if (moment === 'after') await give(page, await readAnswer(page));
      const results = await new AxeBuilder({ page }).include('#panel-lessons').analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`), [], `${scheme}, ${moment}`);
    }
    page.assertClean();
    await page.close();
  }
});
