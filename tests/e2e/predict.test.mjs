// Predict, then reveal: every step of Lesson A asks its question before its run
// plays, with the counters hidden and "Next step" held until it is answered; the answer is
// chosen here from `idemlab run` on the page's own URL, never from the lesson code. `gate=0`
// lets Next go at once, and an underlined term opens its definition from the keyboard.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, launch, openLab, rightChoice } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const step = (page) => Number(new URL(page.url()).searchParams.get('step'));


const hidden = (page, selector) => page.$eval(selector, (e) => e.hidden || e.closest('[hidden]') !== null);

test('Lesson A answered step by step: counters hidden and Next held until each prediction is in', async () => {
  const page = await openLab(browser, 'lesson=a&step=1', { viewport: { width: 1366, height: 768 } });
  const steps = await page.$$eval('#lesson-steps li', (items) => items.length);
  for (let n = 1; n <= steps; n++) {
    await page.waitForFunction((k) => new URL(location.href).searchParams.get('step') === String(k), n);
    await page.waitForSelector('#lesson-step .predict:not([hidden])');
    assert.equal(await hidden(page, '#counters-a'), true, `step ${n}: counters hidden before the answer`);
    assert.equal(await hidden(page, '#lesson-step .step-text'), true, `step ${n}: the reveal waits`);
    assert.equal(new URL(page.url()).searchParams.get('cursor'), '0', `step ${n}: the run waits at its first event`);
    // The picture gives nothing away: before the answer each timeline draws only
    // what happened by the first event, a handful of marks; after it, the whole run.
    const drawn = () => page.$$eval('.timeline[data-drawn]', (els) => els.filter((e) => e.offsetParent).map((e) => Number(e.dataset.drawn)));
    const waiting = await drawn();
    assert.ok(waiting.length > 0 && waiting.every((d) => d <= 3), `step ${n}: only the first event's marks are drawn (${waiting})`);
    const next = page.locator(n < steps ? '#lesson-step [data-next]' : '#lesson-step [data-quiz-start]');
    // The last step's "Take the mastery check" waits too (a phone walk found it open).
    assert.equal(await next.isDisabled(), true, `step ${n}: the way on waits for the answer`);
    assert.equal(await page.isVisible('#next-hint'), true);
    const choice = await rightChoice(page);
    assert.ok(choice >= 0, `step ${n}: the CLI's answer is among the choices`);
    await page.click(`#lesson-step [data-choice="${choice}"]`);
    await page.waitForSelector('#lesson-step .predict-feedback[data-result]');
    const feedback = await page.textContent('#lesson-step .predict-feedback');
    assert.match(feedback, /^Right: /, `step ${n}: ${feedback}`);
    assert.equal(await hidden(page, '#counters-a'), false, `step ${n}: counters shown after the answer`);
    const revealed = await drawn();
    assert.ok(revealed.every((d, i) => d > waiting[i]), `step ${n}: the whole run is drawn once answered (${revealed})`);
    assert.equal(await hidden(page, '#lesson-step .step-text'), false, `step ${n}: the text is revealed`);
    assert.match(await page.textContent('#pointer-status'), /outlined/, `step ${n}: the proof is outlined`);
    if (n === 1) await page.screenshot({ path: `${ARTIFACTS}/predict-a1-answered.png` });
    assert.equal(await next.isDisabled(), false, `step ${n}: the way on opens once answered`);
    if (n < steps) await next.click();
  }
  // Going back, an answered step stays answered.
  await page.click('#lesson-step [data-previous]');
  await page.waitForFunction((k) => new URL(location.href).searchParams.get('step') === String(k), steps - 1);
  await page.waitForSelector('#lesson-step .predict-feedback[data-result="right"]');
  assert.equal(await hidden(page, '#counters-a'), false);
  page.assertClean();
  await page.close();
});

test('gate=0 lets Next go at once, with the counters shown and the question still offered', async () => {
  const page = await openLab(browser, 'lesson=a&step=1&gate=0');
  assert.equal(await page.isVisible('#lesson-step .predict'), true);
  assert.equal(await hidden(page, '#counters-a'), false);
  assert.equal(await page.locator('#lesson-step [data-next]').isDisabled(), false);
  await page.click('#lesson-step [data-next]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('step') === '2');
  assert.equal(new URL(page.url()).searchParams.get('gate'), '0', 'the link keeps the gate off');
  assert.equal(step(page), 2);
  page.assertClean();
  await page.close();
});

test('an underlined term opens its definition on Enter and Escape closes it', async () => {
  const page = await openLab(browser, 'lesson=a&step=1');
  // Folded like every step's (open, they pushed step 1's question below the fold).
  assert.equal(await page.isVisible('#lesson-step .step-terms dl'), false, 'step 1 folds its definitions');
  await page.click('#lesson-step .step-terms summary');
  assert.equal(await page.isVisible('#lesson-step .step-terms dl'), true, 'its summary opens them');
  await page.click('#lesson-step [data-choice="0"]');
  const terms = await page.$$eval('#lesson-step .step-text .term', (ts) => ts.map((t) => t.textContent));
  assert.deepEqual(terms, ['one-way partition', 'at-least-once delivery', 'idempotency key', 'idempotent', 'exactly-once effect', 'boundary'],
    'the revealed text underlines the first use of each of its terms');
  const term = page.locator('#lesson-step .step-text .term').first();
  const def = `#${await term.getAttribute('aria-controls')}`;
  await term.focus();
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible(def), false, 'Escape closes it');
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible(def), true, 'Enter opens it');
  assert.equal(await term.getAttribute('aria-expanded'), 'true');
  assert.ok((await page.textContent(def)).length > 20, 'a definition, not a word');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible(def), false);
  page.assertClean();
  await page.close();
});

test('hovering an underlined term opens its definition, and leaving it closes it', async () => {
  const page = await openLab(browser, 'lesson=a&step=1');
  const term = page.locator('#lesson-step .term').first();
  const def = `#${await term.getAttribute('aria-controls')}`;
  assert.equal(await page.isVisible(def), false);
  await term.hover();
  assert.equal(await page.isVisible(def), true, 'a mouse over it opens it');
  await page.mouse.move(1, 1);
  assert.equal(await page.isVisible(def), false, 'and leaving closes it');
  page.assertClean();
  await page.close();
});

test('axe-core finds no serious or critical violations in a step before and after its answer, a term open', async () => {
  for (const scheme of ['light', 'dark']) {
    const page = await openLab(browser, 'lesson=a&step=1', { colorScheme: scheme });
    for (const moment of ['before', 'after']) {
      if (moment === 'after') {
        await page.click('#lesson-step [data-choice="0"]');
        await page.locator('#lesson-step .step-text .term').first().focus();
      }
      const results = await new AxeBuilder({ page }).include('#panel-lessons').analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes[0]?.target}`), [], `${scheme}, ${moment}`);
    }
    page.assertClean();
    await page.close();
  }
});
