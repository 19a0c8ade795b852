// Issue 14 (WCAG 2.2 AA), the parts a browser must check: the race exists as text in the
// accessibility tree, the Events table's headers and its virtual rows are said, axe-core finds
// nothing serious on every tab, a lesson step, the ordering step and a check question, the page
// reflows at 320 px, targets are 24 px, and labels survive the text-spacing overrides.
// Contrast is computed natively from the one palette (tests/palette.rs).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { ARTIFACTS, launch, openLab } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Answers the open step's prediction, if it asks one, as a learner does first. */
async function answer(page) {
  const choice = await page.$('#lesson-step .predict-choices [data-choice="0"]:not([disabled])');
  if (!choice || !(await choice.isVisible())) return;
  await choice.click();
  await page.waitForSelector('#lesson-step .predict-feedback[data-result]');
}

async function seriousAxe(page, where) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(serious.map((v) => `${v.id}: ${v.nodes.length} nodes: ${v.nodes[0]?.target}`), [], where);
}

test('a race step: the canvas is described by the run as text, which names the race and the duplicate, held until the prediction is answered', async () => {
  const page = await openLab(browser, 'lesson=a&step=4');
  await page.click('#story > summary');
  const held = await page.locator('#story').ariaSnapshot();
  assert.doesNotMatch(held, /Race:|Duplicate charge/, 'nothing is given away before the answer');
  await answer(page);
  const tree = await page.locator('#story').ariaSnapshot();
  assert.match(tree, /Race: try 1 at [\d.]+ ms and try 2 at [\d.]+ ms both read \\?"not found\\?"/);
  assert.match(tree, /Duplicate charge: #2, after #1/);
  assert.match(tree, /Races \(two copies both read \\?"not found\\?"\): 1\. /);
  // The canvas's accessible description is that text (aria-describedby), not an event count.
  const description = await page.evaluate(() => {
    const canvas = document.getElementById('canvas-a');
    return canvas.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' ');
  });
  assert.match(description, /Race: try 1/);
  assert.match(description, /Duplicate charge: #2/);
  await page.screenshot({ path: `${ARTIFACTS}/a11y-story.png`, fullPage: true });
  page.assertClean();
  await page.close();
});

test('the Events table has column headers in the tree, names duplicates and race reads, and says which rows are in the page', async () => {
  const page = await openLab(browser, 'seed=3&preset=race&tab=events');
  const table = await page.locator('#events').ariaSnapshot();
  for (const name of ['#', 'time', 'lane', 'order', 'attempt', 'key', 'what happened']) {
    assert.match(table, new RegExp(`columnheader "${name.replace('#', '\\#')}"`), name);
  }
  const events = Number(await page.getAttribute('#timeline-a', 'data-events'));
  const note = await page.textContent('#events-note');
  const [, first, last] = note.match(new RegExp(`^Rows (\\d+) to (\\d+) of ${events} are in the page; scroll the list for more\\.$`)) ?? [];
  assert.ok(first && Number(last) - Number(first) < events - 1, note);
  assert.equal(await page.$$eval('#events-body tr', (rows) => rows.length), Number(last) - Number(first) + 1, 'the note counts the rows in the page');
  assert.equal(await page.getAttribute('#events', 'aria-describedby'), 'events-note');
  // Scroll the whole list through: every row's text together names 1 race (2 reads) and 1 duplicate.
  const cells = await page.evaluate(async () => {
    const scroll = document.getElementById('events-scroll');
    const seen = new Map();
    for (let top = 0; top <= scroll.scrollHeight; top += 200) {
      scroll.scrollTop = top;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (const tr of document.querySelectorAll('#events-body tr')) seen.set(tr.dataset.index, tr.lastElementChild.textContent);
    }
    return [...seen.values()];
  });
  assert.equal(cells.filter((c) => c.startsWith('raced: both copies read "not found": ')).length, 2);
  assert.equal(cells.filter((c) => c.startsWith('duplicate charge: ')).length, 1);
  page.assertClean();
  await page.close();
});

test('axe-core finds nothing serious or critical on every tab, a lesson step, the ordering step and a check question', async () => {
  const places = [
    ['seed=3&preset=race&tab=events', null],
    ['seed=3&preset=race&tab=tables', null],
    ['seed=3&preset=race&tab=sweep', null],
    ['tab=lessons', null],
    ['lesson=a&step=4', 'answer'],
    ['lesson=a&step=7&gate=0', 'ordering'],
    ['lesson=a&quiz=2024', 'quiz'],
  ];
  for (const [query, what] of places) {
    const page = await openLab(browser, query);
    if (what === 'answer') await answer(page);
    if (what === 'ordering') await page.waitForSelector('[data-exercise="ordering"] #order-list li');
    if (what === 'quiz') {
      await page.click('#quiz-start');
      await page.waitForSelector('#quiz-form');
    }
    await page.click('#story > summary');
    await seriousAxe(page, query);
    page.assertClean();
    await page.close();
  }
});

test('at 320 px wide nothing scrolls sideways: not the page, not the lesson text', async () => {
  for (const query of ['seed=3&preset=race', 'lesson=a&step=4', 'lesson=a&step=7&gate=0', 'seed=3&preset=race&tab=tables']) {
    const page = await openLab(browser, query, { viewport: { width: 320, height: 640 } });
    await answer(page);
    await page.click('#story > summary');
    const m = await page.evaluate(() => {
      const wide = [...document.querySelectorAll('body *')]
        .filter((el) => el.getClientRects().length > 0 && !el.closest('.timeline, .events-scroll, .tabs [role="tabpanel"], .keystore, table'))
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.right > innerWidth + 0.5)
        .map(([el, r]) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${el.className} ${Math.round(r.right)}`);
      const step = document.querySelector('#lesson-step .step-text');
      return {
        page: document.documentElement.scrollWidth,
        wide: wide.slice(0, 8),
        stepScroll: step ? step.scrollWidth - step.clientWidth : 0,
      };
    });
    console.log(`${query}: page ${m.page} px wide at 320`);
    assert.ok(m.page <= 320, `${query}: the page is ${m.page} px wide: ${m.wide.join(', ')}`);
    assert.equal(m.stepScroll, 0, `${query}: the lesson text scrolls sideways`);
    page.assertClean();
    await page.close();
  }
});

test('targets are at least 24 px: every button, disclosure and checkbox label, and the lesson-step buttons have a gap', async () => {
  for (const query of ['seed=3&preset=race', 'lesson=a&step=4&gate=0', 'lesson=a&step=7&gate=0', 'tab=lessons']) {
    const page = await openLab(browser, query, { viewport: { width: 1366, height: 768 } });
    const small = await page.evaluate(() => {
      const targets = [...document.querySelectorAll('button, summary, select, input:not([type="checkbox"]):not([type="radio"]), label:has(> input[type="checkbox"]), label:has(> input[type="radio"])')];
      return targets.filter((el) => el.getClientRects().length > 0)
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.height < 24 || r.width < 24)
        .map(([el, r]) => `${el.tagName.toLowerCase()}#${el.id} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    });
    assert.deepEqual(small, [], query);
    if (query === 'tab=lessons') {
      await page.click('#lesson-picker [data-lesson="a"]');
      await page.waitForSelector('#lesson-steps li button');
      const boxes = await page.$$eval('#lesson-steps li button', (buttons) => buttons.map((b) => b.getBoundingClientRect().toJSON()));
      assert.ok(boxes.length >= 7);
      for (const [i, b] of boxes.entries()) {
        assert.ok(b.height >= 24, `step button ${i + 1} is ${b.height} px tall`);
        if (i > 0 && boxes[i - 1].top !== b.top) assert.ok(b.top - boxes[i - 1].bottom >= 1, `no gap above step button ${i + 1}`);
      }
    }
    page.assertClean();
    await page.close();
  }
});

test('labels survive the text-spacing overrides of WCAG 1.4.12', async () => {
  for (const query of ['seed=3&preset=race', 'lesson=a&step=4&gate=0']) {
  // The bookmarklet's style is inline: the page's CSP would refuse it, as it refuses any.
  const page = await openLab(browser, query, { bypassCSP: true });
  await page.addStyleTag({ content: '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }' });
  await page.waitForTimeout(100);
  // A label clips when its text runs past its box (into the field beside it, or cut off).
  const clipped = await page.evaluate(() => [...document.querySelectorAll('label, legend, summary, button, dt, th, .field')]
    .filter((el) => el.getClientRects().length > 0 && el.clientWidth > 0)
    .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
    .map((el) => `${el.tagName.toLowerCase()}#${el.id} "${el.textContent.trim().slice(0, 30)}" ${el.scrollWidth}/${el.clientWidth}`));
  assert.deepEqual(clipped, [], query);
  page.assertClean();
  await page.close();
  }
});
