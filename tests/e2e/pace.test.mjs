// A lesson's time as a newcomer spends it, by the source lesson's measure: every word the page
// shows on the way (read once: a line already on screen is not read again) at 200 a minute,
// plus 20 s for each thing the learner does. The way is the shortest one a lesson asks for:
// each prediction answered, the operations classified, the ordering exercise's one move
// and its run, Next, then the mastery check. The page's own text is measured, not the lesson
// data, so a hint, a caption or a counter heading costs what it costs a reader. What folds
// ("In depth", the definitions) is off the way and is not counted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, launch, openPage, rightChoice } from './lab.mjs';
import { give, oracle, question } from './oracle.mjs';

const WORDS_PER_MINUTE = 200;
const SECONDS_PER_INTERACTION = 20;

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** What a reader has read so far, and what they have done. */
class Reader {
  seen = new Set();
  words = 0;
  interactions = 0;
  perStep = [];

  /** Reads every line on screen not read before; `innerText` skips hidden and folded text. */
  async read(page) {
    // Text kept for screen readers only (`.visually-hidden`, the skip link, a button's text at
    // font size 0 such as a step button's title beside its number) is not on screen.
    const lines = await page.evaluate(() => {
      // Through the CSSOM: the page's CSP refuses an added <style>.
      // A closed <select> shows its chosen option alone.
      const unseen = [...document.querySelectorAll('.visually-hidden, .skip, select option:not(:checked)')];
      for (const e of document.querySelectorAll('button')) if (getComputedStyle(e).fontSize === '0px') unseen.push(e);
      const was = unseen.map((e) => e.style.display);
      unseen.forEach((e) => { e.style.display = 'none'; });
      const text = document.body.innerText;
      unseen.forEach((e, i) => { e.style.display = was[i]; });
      return text.split('\n');
    });
    for (const line of lines.map((l) => l.trim()).filter(Boolean)) {
      if (this.seen.has(line)) continue;
      this.seen.add(line);
      if (process.env.PACE_DUMP) console.log(`${line.split(/\s+/).length}\t${line.slice(0, 160)}`);
      this.words += line.split(/\s+/).length;
    }
  }

  async act(page, selector) {
    await page.click(selector);
    this.interactions += 1;
  }

  seconds() {
    return Math.round((this.words * 60) / WORDS_PER_MINUTE + this.interactions * SECONDS_PER_INTERACTION);
  }

  mark(name) {
    this.perStep.push({ name, words: this.words, interactions: this.interactions, seconds: this.seconds() });
  }
}

async function stepDone(page, reader) {
  const choice = await rightChoice(page);
  assert.ok(choice >= 0, 'the CLI\'s answer is among the choices');
  await reader.act(page, `#lesson-step [data-choice="${choice}"]`);
  await page.waitForSelector('#lesson-step .predict-feedback[data-result]');
  await reader.read(page);
  if (await page.$('#classify')) {
    const ops = await page.$$eval('#classify [data-op]', (items) => items.length);
    for (let op = 0; op < ops; op++) await reader.act(page, `#classify [data-op="${op}"] [data-classify="natural"]`);
    await reader.read(page);
  }
  if (await page.$('[data-exercise="ordering"] #order-list')) {
    // The least a right order takes: the claim moved above the charge, then Run.
    await reader.act(page, '#order-list li[data-order-step="claim"] button[data-move="up"]');
    await reader.act(page, '#order-run');
    await page.waitForSelector('html[data-state="ready"]');
    await reader.read(page);
  }
}

async function walkLesson(page, reader) {
  const steps = await page.$$eval('#lesson-steps li', (items) => items.length);
  for (let n = 1; n <= steps; n++) {
    await page.waitForFunction((k) => new URL(location.href).searchParams.get('step') === String(k), n);
    await page.waitForSelector('#lesson-step .predict:not([hidden])');
    await reader.read(page);
    await stepDone(page, reader);
    reader.mark(`step ${n}`);
    if (n < steps) await reader.act(page, '#lesson-step [data-next]');
  }
}

async function walkCheck(page, reader) {
  await reader.act(page, '#lesson-step [data-quiz-start]');
  await page.waitForSelector('#quiz-start, #quiz-form');
  await reader.read(page);
  if (await page.$('#quiz-start')) await reader.act(page, '#quiz-start');
  assert.equal(new URL(page.url()).searchParams.get('quiz'), String(CHECK_SEED), 'the walk takes the check it fixed');
  for (let n = 1; n <= 4; n++) {
    await page.waitForSelector(`#quiz-form[data-question="${n}"]`);
    await reader.read(page);
    await give(page, oracle(await question(page)));
    reader.interactions += 1;
    await reader.read(page);
    reader.mark(`check ${n}`);
    await reader.act(page, '#quiz-next');
  }
  await page.waitForSelector('#quiz-score');
  await reader.read(page);
}

/** The minutes the lesson picker states for `lesson`: "Lesson A: … (22 min)". */
async function stated(page, lesson) {
  const text = await page.textContent(`#lesson-picker [data-lesson="${lesson}"]`);
  return Number(text.match(/\((\d+) min\)/)[1]);
}

// The check the walk takes: its seed comes from Math.random, so the walk fixes it. Seed 27 draws
// Lesson A's longest kinds of question (three choice questions, whose reasons are the longest,
// and the expiry question, whose setup is; `idemlab quiz a 27`), so the figure is near a
// newcomer's longest path, not a light draw's.
const CHECK_SEED = 27;

/** The lab at `query` with the check's draw fixed at `CHECK_SEED`. */
async function openWalk(query, viewport) {
  const page = await openPage(browser, { viewport });
  await page.addInitScript((seed) => { Math.random = () => (seed + 0.5) / 1e9; }, CHECK_SEED);
  await page.goto(`${BASE_URL}?${query}`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  return page;
}

// Lesson A's time is the source lesson's 25 minutes at most. Every lesson states the minutes
// this walk measures for it.
const CEILING_MINUTES = 25;

for (const [name, viewport] of [['1366×768', { width: 1366, height: 768 }], ['390×844', { width: 390, height: 844 }]]) {
  test(`each lesson and its check, read at ${name}, take the minutes the lesson states`, async () => {
    const wrong = [];
    for (const lesson of ['a', 'b', 'c']) {
      const page = await openWalk(`lesson=${lesson}&step=1`, viewport);
      const reader = new Reader();
      await walkLesson(page, reader);
      await walkCheck(page, reader);
      reader.mark('score');
      if (process.env.PACE_DUMP) console.log(reader.perStep.map((s) => `${s.name} ${s.words} w ${s.interactions} i ${s.seconds} s`).join('; '));
      const minutes = reader.seconds() / 60;
      console.log(`lesson ${lesson} at ${name}: ${reader.words} words, ${reader.interactions} interactions, ${minutes.toFixed(1)} min`);
      const says = await stated(page, lesson);
      if (Math.abs(minutes - says) > 1.5) wrong.push(`lesson ${lesson}: states ${says} min, measured ${minutes.toFixed(1)}`);
      if (lesson === 'a' && minutes > CEILING_MINUTES) wrong.push(`lesson a: ${minutes.toFixed(1)} min`);
      page.assertClean();
      await page.close();
    }
    assert.deepEqual(wrong, []);
  });
}
