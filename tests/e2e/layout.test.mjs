// One screen: a lesson's step text (its heading and words; an exercise below may scroll), run A's timeline and every counter the step names
// are in the viewport together at 1366×768, by link and after "Next step"; on a 390×844 phone the
// step and the timeline share the screen and every button is a 44 px target.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ARTIFACTS, launch, openLab } from './lab.mjs';

const DESKTOP = { viewport: { width: 1366, height: 768 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The boxes the check is about, the viewport and the scroll position, read in the page. */
function measure(page) {
  return page.evaluate(() => {
    const box = (el, name) => {
      const r = el.getBoundingClientRect();
      return { name, top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height };
    };
    const named = [...document.querySelectorAll('#counters-a [data-named="1"], #counters-b [data-named="1"]')]
      .map((dd) => box(dd.parentElement, `${dd.closest('dl').id} ${dd.dataset.metric}`));
    return {
      width: innerWidth, height: innerHeight, scrollX, scrollY,
      heading: document.querySelector('#lesson-heading')?.textContent,
      // The step's words: its heading down to the end of its text. An exercise under the text
      // (the ordering list, the classification) may run on below and scroll with the column.
      step: (() => {
        const top = box(document.getElementById('lesson-heading'), '#lesson-step heading');
        const text = box(document.querySelector('#lesson-step .step-text'), '#lesson-step text');
        return { ...text, name: '#lesson-step heading and text', top: top.top, height: text.bottom - top.top };
      })(),
      timeline: box(document.getElementById('timeline-a'), '#timeline-a'),
      named,
    };
  });
}

/** Answers the open step's prediction (any choice reveals the step), as a learner does first. */
async function answer(page) {
  const choice = await page.$('#lesson-step .predict-choices [data-choice="0"]:not([disabled])');
  if (!choice || !(await choice.isVisible())) return;
  await choice.click();
  await page.waitForSelector('#lesson-step .predict-feedback[data-result]');
}

function assertAllInside(m, where) {
  assert.equal(m.scrollY, 0, `${where}: the page did not scroll`);
  assert.ok(m.named.length > 0, `${where}: the step names a counter`);
  for (const b of [m.step, m.timeline, ...m.named]) {
    assert.ok(b.width > 0 && b.height > 0, `${where}: ${b.name} is shown`);
    const inside = b.top >= 0 && b.left >= 0 && b.bottom <= m.height && b.right <= m.width;
    assert.ok(inside, `${where}: ${b.name} at ${JSON.stringify(b)} is outside ${m.width}×${m.height}`);
  }
}

/** How many px of a box are on screen vertically. */
const onScreen = (b, height) => Math.max(0, Math.min(b.bottom, height) - Math.max(b.top, 0));

async function stepsOf(id) {
  const page = await openLab(browser, `lesson=${id}&step=1&gate=0`, DESKTOP);
  const count = await page.$$eval('#lesson-steps li', (items) => items.length);
  await page.close();
  return count;
}

const LESSON_IDS = ['a', 'b', 'c'];

// One load per step for both checks: every step of every lesson, opened and answered, is the
// slowest part of this file.
test('at 1366×768 every step shows its text, timeline A and its named counters at once, by link; a compare step shows all of run B\'s timeline too, on one toolbar line', async () => {
  for (const id of LESSON_IDS) {
    const steps = await stepsOf(id);
    for (let step = 1; step <= steps; step++) {
      const page = await openLab(browser, `lesson=${id}&step=${step}`, DESKTOP);
      await answer(page);
      assertAllInside(await measure(page), `lesson ${id} step ${step} by link, answered`);
      const b = await page.$eval('#run-b', (el) => (el.hidden ? null : document.getElementById('timeline-b').getBoundingClientRect().toJSON()));
      if (b !== null) {
        const where = `lesson ${id} step ${step}`;
        // Every compare step's text talks about B: all of B's timeline is on screen.
        assert.ok(b.top >= 0 && b.bottom <= 768, `${where}: B's timeline is at ${b.top}..${b.bottom} px`);
        const toolbar = await page.$eval('#toolbar', (el) => el.getBoundingClientRect().height);
        assert.ok(toolbar < 50, `${where}: the toolbar is one line (${toolbar} px)`);
      }
      page.assertClean();
      await page.close();
    }
  }
});

test('with the key store open the timeline fits beside it, not clipped', async () => {
  const page = await openLab(browser, 'lesson=a&step=3&gate=0', DESKTOP);
  assert.equal(await page.getAttribute('#keystore-toggle', 'aria-pressed'), 'true', 'step 3 opens the key store');
  const fit = await page.$eval('#timeline-a', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  assert.ok(fit.scroll <= fit.client + 1, `the run fits the timeline beside the panel (${JSON.stringify(fit)})`);
  const toggle = await page.$eval('#keystore-toggle', (el) => el.getBoundingClientRect().toJSON());
  // The title's text, not its block (a block runs under floats; its words go beside them).
  const title = await page.$eval('#title-a', (el) => { const r = document.createRange(); r.selectNodeContents(el); return r.getBoundingClientRect().toJSON(); });
  const overlap = toggle.left < title.right && title.left < toggle.right && toggle.top < title.bottom && title.top < toggle.bottom;
  assert.ok(!overlap || title.width === 0, `the toggle does not cover run A's title (${JSON.stringify({ toggle, title })})`);
  page.assertClean();
  await page.close();
});

test('at 1366×768 every step shows them at once after "Next step" too', async () => {
  for (const id of LESSON_IDS) {
    const page = await openLab(browser, `lesson=${id}&step=1`, DESKTOP);
    const steps = await page.$$eval('#lesson-steps li', (items) => items.length);
    for (let step = 2; step <= steps; step++) {
      await answer(page);
      await page.click('#lesson-step [data-next]');
      await page.waitForFunction((n) => new URL(location.href).searchParams.get('step') === String(n), step);
      const m = await measure(page);
      assert.match(m.heading, new RegExp(`^Step ${step} of ${steps}`));
      await answer(page);
      assertAllInside(await measure(page), `lesson ${id} step ${step} after Next, answered`);
    }
    page.assertClean();
    await page.close();
  }
});

test('what a step asks to open (Tables, Sweep) opens beside its text, and the controls are a drawer', async () => {
  const page = await openLab(browser, 'lesson=b&step=3&gate=0', DESKTOP);
  assert.equal(await page.isVisible('#controls'), false, 'the lesson has the controls column');
  await page.click('#tab-tables');
  assert.equal(await page.isVisible('#panel-tables'), true);
  assert.equal(await page.isVisible('#lesson-step'), true, 'the step stays');
  await page.evaluate(() => document.getElementById('panel-tables').scrollIntoView());
  const step = await page.$eval('#lesson-step .step-text', (el) => el.getBoundingClientRect());
  assert.ok(step.top >= 0 && step.top < 768, `the step's text is still on screen (top ${step.top})`);
  await page.evaluate(() => scrollTo(0, 0));
  await page.click('#controls-toggle');
  assert.equal(await page.getAttribute('#controls-toggle', 'aria-expanded'), 'true');
  assert.equal(await page.isVisible('#controls'), true);
  assert.equal(await page.evaluate(() => document.activeElement.closest('#controls') !== null), true, 'the focus is in the drawer');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#controls'), false, 'Escape closes the drawer');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'controls-toggle');
  page.assertClean();
  await page.close();
});

test('comparing, the run in focus leads the status line and the tables, and B scrubs to its own end', async () => {
  const page = await openLab(browser, 'seed=1&preset=restart&compare=store%3Ddurable');
  const eventsB = Number(await page.getAttribute('#timeline-b', 'data-events'));
  assert.match(await page.textContent('#cursor-label'), /^A · event /);
  await page.click('#focus-b');
  await page.click('#to-end');
  assert.match(await page.textContent('#cursor-label'), new RegExp(`^B · event ${eventsB} of ${eventsB} `));
  assert.equal(await page.getAttribute('#scrub', 'max'), String(eventsB - 1));
  await page.click('#step-back');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('focus') === 'b');
  await page.click('#tab-tables');
  assert.match(await page.textContent('#tables-run'), /^Run B's tables/);
  page.assertClean();
  await page.close();
});

test('on a 390×844 phone the step text and timeline A share the screen, at a readable scale', async () => {
  for (const id of LESSON_IDS) {
    const steps = await stepsOf(id);
    for (let step = 1; step <= steps; step++) {
      const page = await openLab(browser, `lesson=${id}&step=${step}&gate=0`, PHONE);
      const m = await measure(page);
      const where = `phone, lesson ${id} step ${step}`;
      assert.ok(onScreen(m.step, m.height) >= 150, `${where}: the step text shows (${JSON.stringify(m.step)})`);
      assert.ok(onScreen(m.timeline, m.height) >= Math.min(150, m.timeline.height), `${where}: the timeline shows (${JSON.stringify(m.timeline)})`);
      const scale = await page.$eval('#timeline-a', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      assert.ok(scale.scroll > scale.client, `${where}: the timeline scrolls sideways (${JSON.stringify(scale)})`);
      assert.ok(m.width <= 390 && (await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, `${where}: the page itself does not scroll sideways`);
      page.assertClean();
      await page.close();
    }
  }
});

test('on a 390×844 phone the answer\'s feedback shows, the toolbar wraps and the step never covers the zoom buttons', async () => {
  for (const step of [1, 2, 5]) {
    const page = await openLab(browser, `lesson=a&step=${step}`, PHONE);
    const where = `phone, lesson a step ${step}`;
    const toolbar = await page.$eval('#toolbar', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(toolbar.scroll <= toolbar.client + 1, `${where}: the toolbar does not scroll sideways (${JSON.stringify(toolbar)})`);
    for (const id of ['seed', 'compare-on', 'copy-link']) {
      const r = await page.$eval(`#${id}`, (el) => el.getBoundingClientRect().toJSON());
      assert.ok(r.left >= 0 && r.right <= 390, `${where}: #${id} is on screen (${JSON.stringify(r)})`);
    }
    await answer(page);
    const [feedback, box] = await Promise.all(['#lesson-step .predict-feedback', '#lesson-column']
      .map((s) => page.$eval(s, (el) => el.getBoundingClientRect().toJSON())));
    assert.ok(feedback.top >= box.top && feedback.bottom <= box.bottom && feedback.bottom <= 844,
      `${where}: the feedback is inside the step's box (${JSON.stringify({ feedback, box })})`);
    // Scrolled so the zoom buttons are at the top: nothing lies over them.
    await page.evaluate(() => scrollTo(0, document.getElementById('zoom-fit').getBoundingClientRect().top + scrollY - 4));
    const hit = await page.$eval('#zoom-fit', (el) => {
      const r = el.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
    });
    assert.ok(hit, `${where}: the Fit button is not covered once the page scrolls`);
    page.assertClean();
    await page.close();
  }
});

test('on a 390×844 phone every button in a lesson is at least 44×44 px', async () => {
  for (const query of ['lesson=a&step=1&gate=0', 'lesson=a&step=5&gate=0', 'lesson=a&step=6&gate=0', 'lesson=a&step=7&gate=0', 'lesson=b&step=3&gate=0']) {
    const page = await openLab(browser, query, PHONE);
    for (const drawer of [false, true]) {
      if (drawer) await page.click('#controls-toggle');
      const small = await page.$$eval('button', (buttons) => buttons
        .map((b) => ({ b, r: b.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0)
        .filter(({ r }) => r.width < 44 || r.height < 44)
        .map(({ b, r }) => `${b.id || b.textContent.trim().slice(0, 24)}: ${r.width.toFixed(0)}×${r.height.toFixed(0)}`));
      assert.deepEqual(small, [], `${query}${drawer ? ' with the drawer open' : ''}`);
    }
    page.assertClean();
    await page.close();
  }
});

test('screenshots of three steps at 1366×768 and 390×844', async () => {
  for (const query of ['lesson=a&step=1&gate=0', 'lesson=a&step=4&gate=0', 'lesson=b&step=3&gate=0']) {
    for (const [name, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      const page = await openLab(browser, query, options);
      await page.screenshot({ path: `${ARTIFACTS}/layout-${query.replace(/[=&]/g, '')}-${name}.png` });
      page.assertClean();
      await page.close();
    }
  }
});
