// The mastery check as a learner takes it: each answer is worked out before the question's run
// is shown, so the oracle here is the native simulator (`idemlab run` on the question's
// scenario, drawn by `idemlab quiz`), never the screen; the page must keep the run, its
// counters, its scenario and the choices' runs closed until the answer is locked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, counters, launch, openLab } from './lab.mjs';
import { give, oracle, question, simulate, withKeys } from './oracle.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const param = (page, key) => new URL(page.url()).searchParams.get(key);

/** The stored progress record, as the page wrote it (see crates/course/src/quiz/progress.rs for the format). */
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

/** Where the page shows the question's scenario (its `seed=N`, or the whole query): in the
 * URL, any text (hidden included), any attribute or any field's value. Empty while hidden. */
function leaks(page, q) {
  const seed = new URLSearchParams(q.query).get('seed');
  return page.evaluate(([seed, query]) => {
    const re = new RegExp(`seed=${seed}(?!\\d)`);
    const has = (text) => typeof text === 'string' && (re.test(text) || text.includes(query));
    const found = [];
    if (has(decodeURIComponent(location.href))) found.push('the URL');
    if (has(document.title)) found.push('the document title');
    if (has(document.body.textContent)) found.push('the text');
    for (const el of document.querySelectorAll('*')) {
      for (const attr of el.attributes) if (has(attr.value)) found.push(`${el.tagName}#${el.id} [${attr.name}]`);
      if (has(el.value)) found.push(`${el.tagName}#${el.id} value`);
    }
    return found;
  }, [seed, q.query]);
}

/** While the question is open nothing of its run is on screen: no events on the timeline, "–"
 * on every counter, no B, and no "Show my choice as B". */
async function assertRunHidden(page, q) {
  assert.equal(await page.getAttribute('#timeline-a', 'data-events'), '0', `${q.kind}: the timeline is empty`);
  const values = await page.$$eval('#counters-a [data-metric]', (cells) => cells.map((c) => c.textContent));
  assert.ok(values.every((v) => v === '–'), `${q.kind}: counters before locking: ${values}`);
  assert.match(await page.textContent('#counts-at-a'), /once you lock your answer/);
  assert.equal(await page.isHidden('#run-b'), true, `${q.kind}: no B before locking`);
  assert.equal(await page.$('#quiz-try'), null, `${q.kind}: no "Show my choice as B" before locking`);
  // Issue 11: pasted into a new tab, the scenario would show the answer.
  assert.deepEqual(await leaks(page, q), [], `${q.kind}: the question's scenario (${q.query}) is on the page`);
  assert.match(await page.textContent('#title-a'), /hidden/);
}

/** Once locked the question's run is the one on the timeline, the counters show numbers, and a
 * question with choices shows the right one as B and offers the learner's own as B. */
async function assertRunShown(page, q) {
  assert.ok((await leaks(page, q)).includes('the URL'), `${q.kind}: once locked the link holds the run`);
  assert.equal(Number(await page.getAttribute('#timeline-a', 'data-events')), simulate(q.query).events, `${q.kind}: its run`);
  const values = Object.values(await counters(page));
  assert.ok(values.length > 0 && values.every(Number.isInteger), `${q.kind}: counters after locking: ${values}`);
  if (q.choices.length === 0) return;
  const right = q.choices[oracle(q).choice];
  assert.equal(param(page, 'compare'), right, `${q.kind}: the right choice as B`);
  assert.equal(Number(await page.getAttribute('#timeline-b', 'data-events')), simulate(withKeys(q.query, right)).events);
  // Offered for a wrong answer only: a right one is B already.
  const wrong = await page.getAttribute('#quiz-feedback', 'data-result') === 'wrong';
  assert.equal(await page.isVisible('#quiz-try'), wrong, `${q.kind}: "Show my choice as B" once locked, if wrong`);
}

/** Takes the whole check; `answerFor(n, right)` may replace the simulator's answer. */
async function takeCheck(page, answerFor = (n, right) => right) {
  const prompts = [];
  for (let n = 1; n <= 4; n++) {
    await page.waitForSelector(`#quiz-form[data-question="${n}"]`);
    prompts.push(await page.textContent('#quiz-form legend'));
    const q = await question(page);
    await assertRunHidden(page, q);
    const answer = answerFor(n, oracle(q));
    await give(page, answer);
    // The explanation points at the timeline: the cursor sits on the proving event (the URL
    // follows the cursor within 250 ms).
    await page.waitForFunction(() => new URL(location.href).searchParams.has('cursor'));
    assert.match(await page.textContent('#quiz-feedback'), /cursor/);
    await assertRunShown(page, q);
    await page.click('#quiz-next');
  }
  await page.waitForSelector('#quiz-score');
  return prompts;
}

test("Lesson A: the simulator's answers master the lesson, and a reload keeps it", async () => {
  const page = await openLab(browser, 'lesson=a&quiz=2024');
  assert.match(await page.textContent('#quiz'), /Quiz seed 2024/);
  console.log(`quiz generated in the page in ${await page.getAttribute('#quiz', 'data-generate-ms')} ms`);
  await page.click('#quiz-start');
  await takeCheck(page);
  await page.screenshot({ path: `${ARTIFACTS}/quiz-score.png`, fullPage: true });
  assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'true');
  assert.match(await page.textContent('#lesson-picker [data-lesson="a"]'), /✓ mastered$/, 'the lesson button says so at once');
  await page.reload();
  await page.waitForSelector('html[data-state="ready"]');
  assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'true');
  assert.match(await page.textContent('#lesson-picker [data-lesson="a"]'), /✓ mastered$/, 'and after a reload');
  assert.doesNotMatch(await page.textContent('#lesson-picker [data-lesson="b"]'), /mastered/);
  const record = await stored(page);
  assert.equal(record.version, 7);
  assert.deepEqual([record.lessons.a.mastered, record.lessons.a.best, record.lessons.a.quiz], [true, 4, '2024']);
  page.assertClean();
  await page.close();
});

test("a question's run, its counters and the choices' runs stay closed until the answer is locked", async () => {
  const page = await openLab(browser, 'lesson=a&quiz=5');
  // The introduction shows no run either (a reload of the first question opens it).
  assert.equal(await page.getAttribute('#timeline-a', 'data-events'), '0');
  await page.click('#quiz-start');
  for (let n = 1; ; n++) {
    assert.ok(n <= 4, 'quiz seed 5 of lesson A has a question with choices');
    await page.waitForSelector(`#quiz-form[data-question="${n}"]`);
    const q = await question(page);
    await assertRunHidden(page, q);
    if (q.choices.length === 0) {
      await give(page, oracle(q));
      await page.click('#quiz-next');
      continue;
    }
    const right = oracle(q).choice;
    const mine = (right + 1) % q.choices.length;
    // Picking a choice opens nothing either.
    await page.check(`#quiz-form input[value="${mine}"]`);
    await assertRunHidden(page, q);
    await page.screenshot({ path: `${ARTIFACTS}/quiz-before-locking.png`, fullPage: true });
    await give(page, { choice: mine });
    assert.equal(await page.getAttribute('#quiz-feedback', 'data-result'), 'wrong');
    await assertRunShown(page, q);
    await page.screenshot({ path: `${ARTIFACTS}/quiz-after-locking.png`, fullPage: true });
    // At the end of the run, A's counters are the simulator's for the question's scenario.
    await page.click('#to-end');
    const a = await counters(page);
    const run = simulate(q.query);
    assert.deepEqual([a.effects, a.duplicates, a.lost], [run.effects, run.duplicates, run.lost]);
    // Now the learner's own choice can be shown as B, and its counters are the simulator's.
    await page.click('#quiz-try');
    await page.waitForFunction((k) => new URL(location.href).searchParams.get('compare') === k, q.choices[mine]);
    const sim = simulate(withKeys(q.query, q.choices[mine]));
    assert.equal(Number(await page.getAttribute('#timeline-b', 'data-events')), sim.events);
    const b = await counters(page, 'b');
    assert.deepEqual([b.duplicates, b.lost], [sim.duplicates, sim.lost]);
    assert.ok(sim.duplicates + sim.lost > 0, 'a wrong choice ends with harm');
    break;
  }
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

test("Lesson C: the simulator's answers master its check, each question's run hidden until locked", async () => {
  for (const seed of [3, 40]) {
    const page = await openLab(browser, `lesson=c&quiz=${seed}`);
    await page.click('#quiz-start');
    await takeCheck(page);
    assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'true', `lesson=c&quiz=${seed}`);
    page.assertClean();
    await page.close();
  }
});

test('an answer is locked after one attempt, even a wrong one, and across a reload', async () => {
  const page = await openLab(browser, 'lesson=a&quiz=5');
  await page.click('#quiz-start');
  await page.waitForSelector('#quiz-form[data-question="1"]');
  const read = oracle(await question(page));
  assert.equal(read.choice, undefined, 'quiz seed 5 of lesson A opens with a number question');
  await give(page, { number: read.number + 1 });
  await page.screenshot({ path: `${ARTIFACTS}/quiz-wrong.png`, fullPage: true });
  assert.equal(await page.getAttribute('#quiz-feedback', 'data-result'), 'wrong');
  assert.equal(await page.isDisabled('#quiz-number'), true);
  assert.equal(await page.isDisabled('#quiz-check'), true);
  // Checking again another way (the button forced on, then Enter in the field) changes nothing either.
  await page.$eval('#quiz-check', (button) => { button.disabled = false; button.click(); });
  await page.$eval('#quiz-number', (field) => { field.disabled = false; field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })); });
  assert.equal(await page.getAttribute('#quiz-feedback', 'data-result'), 'wrong');
  await page.reload();
  await page.waitForSelector('html[data-state="ready"]');
  await page.waitForSelector('#quiz-form[data-question="2"]');
  await assertRunHidden(page, await question(page));
  assert.equal((await stored(page)).lessons.a.answers[0], read.number + 1);
  page.assertClean();
  await page.close();
});

test('three of four right is not mastery', async () => {
  const page = await openLab(browser, 'lesson=a&quiz=31');
  await page.click('#quiz-start');
  await takeCheck(page, (n, right) => (n === 4 ? wrong(right) : right));
  assert.equal(await page.getAttribute('#quiz-score', 'data-mastered'), 'false');
  assert.match(await page.textContent('#quiz-score'), /3 of 4 right: not mastered yet; all 4 right masters the lesson\./);
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
  await page.goto(new URL('?lesson=a&step=7&gate=0', page.url()).href);
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
      if (moment === 'after') await give(page, oracle(await question(page)));
      const results = await new AxeBuilder({ page }).include('#panel-lessons').analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`), [], `${scheme}, ${moment}`);
    }
    page.assertClean();
    await page.close();
  }
});
