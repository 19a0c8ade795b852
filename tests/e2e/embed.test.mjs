// Embedding, as an instructor meets it: the lab served from a host without directory indexes,
// snippets from its own Embed dialog pasted into a course page on another origin (another port
// of 127.0.0.1), three frames of different widths and content; links that keep `index.html`,
// trackers, `theme=`, and Copy link inside a frame whose clipboard is blocked.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ARTIFACTS, launch, openPage, readPdf } from './lab.mjs';
import { drawnQuestions, oracle } from './oracle.mjs';

// The built page to serve (`dist/` unless told); this file serves it itself, under /lab/ and with
// no directory index, as a plain static host might.
const DIST = resolve(process.env.EMBED_DIST ?? 'dist');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };

function serve(handler) {
  return new Promise((done) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => done(server));
  });
}
const origin = (server) => `http://127.0.0.1:${server.address().port}`;

let browser, labHost, courseHost;
let course = '';
before(async () => {
  browser = await launch();
  labHost = await serve(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://host').pathname);
    const file = join(DIST, path.slice('/lab/'.length));
    // No directory index: `/lab/` is a 404, as on the hosts the issue names.
    if (!path.startsWith('/lab/') || path.endsWith('/') || !file.startsWith(DIST)) {
      response.writeHead(404).end('not found');
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  courseHost = await serve((request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(course);
  });
});
after(async () => {
  await browser?.close();
  labHost?.close();
  courseHost?.close();
});

const lab = (query) => `${origin(labHost)}/lab/index.html?${query}`;

async function openAt(url, options) {
  const page = await openPage(browser, options);
  await page.goto(url);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  return page;
}

/** The snippet the lab's own Embed dialog writes for `query`, once it has measured the view. */
async function snippetFor(query) {
  const page = await openAt(lab(query));
  await page.click('#embed-open');
  await page.waitForFunction(() => /data-heights="/.test(document.getElementById('embed-snippet').value), null, { timeout: 20_000 });
  assert.ok(await page.isHidden('#embed-measuring'), 'the measuring note goes when it is done');
  const snippet = await page.inputValue('#embed-snippet');
  page.assertClean();
  await page.close();
  return snippet;
}

/** Each frame's height and its content's, once no frame has changed height for 500 ms. */
async function settledHeights(page) {
  let last = '', since = Date.now();
  for (const started = Date.now(); Date.now() - started < 15_000; await page.waitForTimeout(100)) {
    const now = JSON.stringify(await page.$$eval('iframe', (frames) => frames.map((f) => f.getBoundingClientRect().height)));
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= 500) break;
  }
  const frames = await page.$$('iframe');
  const out = [];
  for (const element of frames) {
    const frame = await element.contentFrame();
    const inner = await frame.evaluate(() => ({
      content: Math.ceil(document.body.getBoundingClientRect().height),
      scroll: document.documentElement.scrollHeight,
      client: document.documentElement.clientHeight,
    }));
    out.push({ frame: (await element.boundingBox()).height, ...inner });
  }
  return out;
}

function assertFits(heights, when) {
  for (const [i, h] of heights.entries()) {
    assert.ok(Math.abs(h.frame - h.content) <= 2, `${when}: frame ${i + 1} is ${h.frame} px, its content ${h.content} px`);
    assert.ok(h.scroll <= h.client + 2, `${when}: frame ${i + 1} scrolls inside (${h.scroll} > ${h.client})`);
  }
}

const EMBEDS = [
  { width: 1000, query: 'lesson=a&step=1&gate=0' },
  { width: 760, query: 'seed=7&preset=lost-ack' },
  { width: 560, query: 'seed=7&preset=lost-ack&tab=tables' },
];

async function openCourse() {
  const page = await openPage(browser, { viewport: { width: 1200, height: 900 } });
  await page.goto(`${origin(courseHost)}/course.html`);
  for (const element of await page.$$('iframe')) {
    await element.scrollIntoViewIfNeeded();
    const frame = await element.contentFrame();
    await frame.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  }
  return page;
}

/** A course page holding each snippet in a column of its width. */
function coursePage(snippets, widths) {
  const labs = snippets.map((snippet, i) => `<div style="width:${widths[i]}px">${snippet}</div>`);
  return `<!doctype html><html><head><title>Course</title></head><body><h1>A course page</h1>
${labs.join('\n<p>Between the labs.</p>\n')}<p id="end">The end.</p></body></html>`;
}

const frames = async (page) => Promise.all((await page.$$('iframe')).map((element) => element.contentFrame()));

test('three embeds on a course page of another origin fit their content after load, after changes both ways, and on reload', async () => {
  const snippets = [];
  for (const embed of EMBEDS) snippets.push(await snippetFor(embed.query));
  for (const snippet of snippets) {
    assert.match(snippet, /^<iframe data-idemlab data-heights="\d+ \d+ \d+" src="http:\/\/127\.0\.0\.1:\d+\/lab\/index\.html\?[^"]*embed=1/, 'the snippet keeps index.html');
  }
  course = coursePage(snippets, EMBEDS.map((e) => e.width));
  const page = await openCourse();
  const loaded = await settledHeights(page);
  assertFits(loaded, 'after load');
  const [lesson, free, tables] = await frames(page);
  // Nothing is left editable (the dialog's default): free play has no empty first column,
  // and a lesson's first column is its step, beside the runs and level with them (an
  // instructor's walk found the step 1,000 px under the timeline when it lived in its tab).
  const left = await free.$eval('#timeline-a', (t) => t.getBoundingClientRect().left);
  assert.ok(left < 40, `the timeline starts ${left} px in, beside an empty column`);
  const step = await lesson.$eval('#lesson-step', (el) => el.getBoundingClientRect().toJSON());
  const timeline = await lesson.$eval('#timeline-a', (el) => el.getBoundingClientRect().toJSON());
  assert.ok(step.right <= timeline.left && step.top < timeline.bottom, `the step (${JSON.stringify(step)}) stands beside the timeline (${JSON.stringify(timeline)})`);
  assert.ok(await lesson.isHidden('#controls-toggle'), 'no drawer button for a drawer with nothing open');
  assert.ok(await lesson.isHidden('.chrome'), 'no title bar in a frame');

  await tables.click('#tab-events');
  const shrunk = await settledHeights(page);
  assertFits(shrunk, 'after Tables → Events');
  assert.ok(shrunk[2].frame < loaded[2].frame, `the Tables embed shrank: ${loaded[2].frame} → ${shrunk[2].frame} px`);

  await free.click('#tab-tables');
  const grown = await settledHeights(page);
  assertFits(grown, 'after Events → Tables');
  assert.ok(grown[1].frame > shrunk[1].frame, `free play grew: ${shrunk[1].frame} → ${grown[1].frame} px`);
  await free.click('#tab-events');
  const back = await settledHeights(page);
  assertFits(back, 'after Tables → Events again');
  assert.equal(back[1].frame, shrunk[1].frame, 'free play shrank back to its height');

  await lesson.click('#lesson-step [data-next]');
  await lesson.waitForFunction(() => new URL(location.href).searchParams.get('step') === '2');
  const stepped = await settledHeights(page);
  assertFits(stepped, 'after a step change');
  await page.screenshot({ path: `${ARTIFACTS}/embed-course.png`, fullPage: true });

  // Every load gives the same heights (each frame reloads its snippet's own state).
  for (let i = 0; i < 2; i += 1) {
    await page.close();
    const again = await openCourse();
    const heights = await settledHeights(again);
    assert.deepEqual(heights, loaded, `load ${i + 2}`);
    again.assertClean();
    if (i === 1) await again.close();
    else await again.reload();
  }
  console.log(`heights (frame = content, px): load ${loaded.map((h) => h.frame).join(', ')}; `
    + `Tables → Events ${shrunk.map((h) => h.frame).join(', ')}; free play to Tables ${grown[1].frame} and back ${back[1].frame}; `
    + `lesson step 1 → 2 ${loaded[0].frame} → ${stepped[0].frame}`);
});

test('a measured snippet starts each frame near its settled height, and each lab posts only that height, on a wide page and a phone', async () => {
  const snippets = [];
  for (const embed of EMBEDS) snippets.push(await snippetFor(embed.query));
  const summary = [];
  for (const [viewport, widths] of [[{ width: 1200, height: 900 }, EMBEDS.map((e) => e.width)], [{ width: 390, height: 844 }, [390, 390, 390]]]) {
    // The course page records every height message and each frame's height before its lab has loaded.
    course = coursePage(snippets, widths).replace('</body>', `<script>window.heights = [];
addEventListener("message", (e) => { const i = [...document.querySelectorAll("iframe")].findIndex((f) => f.contentWindow === e.source); if (e.data && e.data.type === "idemlab:height") heights.push([i, e.data.height]); });
window.started = [...document.querySelectorAll("iframe")].map((f) => f.getBoundingClientRect().height);</script></body>`);
    const page = await openPage(browser, { viewport });
    await page.goto(`${origin(courseHost)}/measured.html`);
    for (const element of await page.$$('iframe')) {
      await element.scrollIntoViewIfNeeded();
      await (await element.contentFrame()).waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
    }
    const settled = await settledHeights(page);
    assertFits(settled, `at ${viewport.width} px`);
    const { started, heights } = await page.evaluate(() => ({ started: window.started, heights: window.heights }));
    for (const [i, h] of settled.entries()) {
      const off = Math.abs(started[i] - h.frame) / h.frame;
      assert.ok(off <= 0.25, `at ${viewport.width} px frame ${i + 1} started at ${started[i]} px, settled at ${h.frame} px`);
      const posted = heights.filter(([frame]) => frame === i).map(([, px]) => px);
      assert.deepEqual(posted, [h.content], `at ${viewport.width} px frame ${i + 1} posted ${posted.join(', ')} px before settling`);
      summary.push(`${viewport.width}/${i + 1}: ${started[i]} → ${h.frame}`);
    }
    page.assertClean();
    await page.close();
  }
  console.log(`start → settled (px): ${summary.join('; ')}`);
});

/** In every frame: what sticks out past the frame's right edge (outside a box that scrolls
 * sideways), the timeline's overflow, and each control whose target is under 44×44 px (a
 * checkbox or radio counts by its label). */
async function frameFit(frame) {
  return frame.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const scrolls = (e) => e.closest('.events-scroll, [role="tabpanel"], .keystore');
    const cut = [...document.querySelectorAll('body *')]
      .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.right > width + 1 && !scrolls(e); })
      .map((e) => `${e.tagName}#${e.id}`);
    const timeline = document.getElementById('timeline-a');
    const target = (e) => (e.matches('[type="checkbox"], [type="radio"]') ? e.closest('label') ?? document.querySelector(`label[for="${e.id}"]`) ?? e : e);
    const small = [...document.querySelectorAll('button, select, input, summary')]
      .map((e) => ({ e, r: target(e).getBoundingClientRect(), own: e.getBoundingClientRect() }))
      .filter(({ own }) => own.width > 0 && own.height > 0)
      .filter(({ r }) => r.width < 44 || r.height < 44)
      .map(({ e, r }) => `${e.id || e.textContent.trim().slice(0, 20) || e.type}: ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
    return { width, page: document.documentElement.scrollWidth, timeline: [timeline.scrollWidth, timeline.clientWidth], cut, small };
  });
}

test('a course column that narrows after load (a sidebar opens): every embed reflows to 360 px, cuts nothing off, and its targets are 44 px', async () => {
  const queries = ['lesson=a&step=1&gate=0', 'seed=7&preset=lost-ack&keys=1', 'seed=7&preset=lost-ack&tab=tables&compare=dedup%3Datomic'];
  const snippets = [];
  for (const query of queries) snippets.push(await snippetFor(query));
  course = `<!doctype html><html><head><title>Course</title><style>body { margin: 0; display: flex; }
#side { flex: none; width: 0; overflow: hidden; } body.open #side { width: 640px; } main { flex: 1; min-width: 0; }</style></head>
<body><nav id="side">The course platform's sidebar</nav><main><h1>A course page</h1>${snippets.join('\n<p>Between the labs.</p>\n')}</main></body></html>`;
  const page = await openPage(browser, { viewport: { width: 1000, height: 900 } });
  await page.goto(`${origin(courseHost)}/narrow.html`);
  for (const frame of await frames(page)) await frame.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  await page.evaluate(() => document.body.classList.add('open'));
  // Frames off screen follow too, unseen: Chromium skips their resize observers, not their timers.
  await page.waitForTimeout(1500);
  assertFits(await settledHeights(page), 'off screen, after the column narrowed');
  const fits = [];
  for (const [i, element] of (await page.$$('iframe')).entries()) {
    // A frame off screen is not laid out again until it shows (Chromium throttles it).
    await element.scrollIntoViewIfNeeded();
    const frame = await element.contentFrame();
    await frame.waitForFunction(() => document.documentElement.clientWidth <= 360);
    await frame.waitForFunction(() => {
      const timeline = document.getElementById('timeline-a');
      return timeline.scrollWidth <= timeline.clientWidth;
    });
    const fit = await frameFit(frame);
    fits.push(fit);
    assert.ok(fit.page <= fit.width, `frame ${i + 1}: the frame scrolls sideways (${fit.page} > ${fit.width})`);
    assert.deepEqual(fit.cut, [], `frame ${i + 1}: cut off at the right edge`);
    assert.deepEqual(fit.small, [], `frame ${i + 1}: targets under 44×44 px`);
    await element.screenshot({ path: `${ARTIFACTS}/embed-narrow-${i + 1}.png` });
  }
  // And back: the sidebar closes, the plot widens again.
  await page.evaluate(() => document.body.classList.remove('open'));
  const [first] = await page.$$('iframe');
  await first.scrollIntoViewIfNeeded();
  const frame = await first.contentFrame();
  await frame.waitForFunction(() => document.getElementById('canvas-a').getBoundingClientRect().width > 500);
  page.assertClean();
  await page.close();
  console.log(`at 360 px: timelines ${fits.map((f) => f.timeline.join('/')).join(', ')} (scroll/client px)`);
});

test('a snippet of fixed height has no script; each lab fits its 600 px frame, the timeline on screen, scrolling only inside', async () => {
  const snippets = [];
  for (const { query } of EMBEDS) {
    const page = await openAt(lab(query));
    await page.click('#embed-open');
    await page.fill('#embed-height', '600');
    const snippet = await page.inputValue('#embed-snippet');
    assert.doesNotMatch(snippet, /<script/);
    assert.match(snippet, /&amp;height=600&amp;v=2" .*height:600px/);
    snippets.push(snippet);
    page.assertClean();
    await page.close();
  }
  course = coursePage(snippets, EMBEDS.map((e) => e.width));
  const page = await openCourse();
  await page.waitForTimeout(500);
  for (const [i, element] of (await page.$$('iframe')).entries()) {
    await element.scrollIntoViewIfNeeded();
    assert.equal((await element.boundingBox()).height, 600, `frame ${i + 1} keeps its height`);
    const frame = await element.contentFrame();
    const fit = await frame.evaluate(() => {
      const bottom = (id) => Math.round(document.getElementById(id).getBoundingClientRect().bottom);
      const heading = document.getElementById('lesson-heading');
      return { scroll: document.documentElement.scrollHeight, client: document.documentElement.clientHeight, timeline: bottom('timeline-a'), play: bottom('play'),
        step: heading && Math.round(heading.getBoundingClientRect().bottom) };
    });
    if (fit.step !== null) assert.ok(fit.step <= 600, `frame ${i + 1}: the step's heading ends at ${fit.step} px`);
    assert.ok(fit.scroll <= fit.client, `frame ${i + 1}: the page itself scrolls (${fit.scroll} > ${fit.client})`);
    assert.ok(fit.timeline <= 600, `frame ${i + 1}: run A's timeline ends at ${fit.timeline} px, below the frame`);
    if (EMBEDS[i].width > 900) assert.ok(fit.play <= 600, `frame ${i + 1}: the playback bar ends at ${fit.play} px`);
    await element.screenshot({ path: `${ARTIFACTS}/embed-fixed-${i + 1}.png` });
  }
  page.assertClean();
  await page.close();
});

test('printing a step or a run gives a handout: text, a question\'s choices, timeline, counters and link on at most two A4 pages, none blank, no controls', async () => {
  const pages = [];
  for (const query of ['lesson=a&step=3&gate=0', 'lesson=a&step=1', 'lesson=b&step=5&gate=0', 'seed=7&preset=lost-ack&compare=dedup%3Datomic', 'seed=4&preset=race&embed=1&controls=dedup']) {
    const page = await openAt(lab(query), { viewport: { width: 1366, height: 768 } });
    await page.emulateMedia({ media: 'print' });
    // A4's width (under 900 px, where a phone's lesson docks its timeline and copies its lane names).
    await page.setViewportSize({ width: 794, height: 1123 });
    const shown = await page.evaluate(() => {
      const visible = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
      return {
        controls: [...document.querySelectorAll('button, input, select, textarea')].filter(visible).filter((e) => !e.closest('.predict-choices')).map((e) => e.id || e.textContent.trim().slice(0, 20)),
        choices: [...document.querySelectorAll('#lesson-step .predict-choices button')].map((b) => visible(b)),
        timeline: visible(document.getElementById('timeline-a')),
        docked: getComputedStyle(document.getElementById('timeline-a')).position,
        laneCopies: [...document.querySelectorAll('.lane-names span')].filter(visible).length,
        counters: [...document.querySelectorAll('#counters-a [data-metric]')].some(visible),
        text: visible(document.querySelector('#lesson-step .step-text')) || visible(document.querySelector('#lesson-step .predict-setup')) || visible(document.getElementById('preset-summary')),
        link: visible(document.getElementById('print-link')) && document.getElementById('print-link').textContent,
      };
    });
    assert.deepEqual(shown.controls, [], `${query}: controls in print`);
    assert.ok(shown.choices.every((v) => v), `${query}: a question's choices print (${shown.choices})`);
    if (query === 'lesson=a&step=1') assert.equal(shown.choices.length, 3, 'the waiting question has its three choices');
    assert.notEqual(shown.docked, 'fixed', `${query}: the timeline prints in its place, not docked`);
    assert.equal(shown.laneCopies, 0, `${query}: lane names print once, the canvas's own`);
    // A waiting step shows no counts yet (they would tell its answer).
    const waits = shown.choices.length > 0 && !query.includes('gate=0');
    assert.ok(shown.timeline && (shown.counters || waits) && shown.text, `${query}: ${JSON.stringify(shown)}`);
    assert.equal(shown.link, page.url(), `${query}: the printed link is the view's`);
    assert.match(shown.link, /&v=2$/);
    await page.setViewportSize({ width: 1366, height: 768 });
    const name = `print-${pages.length + 1}`;
    const read = await readPdf(browser, await page.pdf({ format: 'A4', path: `${ARTIFACTS}/${name}.pdf` }), name);
    assert.ok(read.length <= 2, `${query}: ${read.length} A4 pages`);
    for (const [i, p] of read.entries()) assert.ok(p.ink > 0.002, `${query}: page ${i + 1} is blank (${(p.ink * 100).toFixed(2)}% ink)`);
    assert.equal(read.map((p) => p.text).join(' ').split('This view:').length - 1, 1, `${query}: the link prints once`);
    pages.push(read.length);
    page.assertClean();
    await page.close();
  }
  console.log(`A4 pages per printout: ${pages.join(', ')}`);
});

test('a course page prints each of its frames whole, on one page, with the handout inside it', async () => {
  const queries = ['lesson=a&step=3&gate=0', 'seed=7&preset=lost-ack', 'lesson=a&step=1'];
  const snippets = [];
  for (const query of queries) snippets.push(await snippetFor(query));
  course = coursePage(snippets, [1000, 1000, 1000]);
  const page = await openCourse();
  await settledHeights(page);
  const read = await readPdf(browser, await page.pdf({ format: 'A4', path: `${ARTIFACTS}/print-course.pdf` }), 'print-course');
  // Every frame's handout starts with its link and ends with its legend's last line: both on one page.
  const count = (text, word) => text.split(word).length - 1;
  for (const [i, p] of read.entries()) {
    assert.equal(count(p.text, 'This view:'), count(p.text, '#3 = charge 3;'), `page ${i + 1} cuts a frame: ${p.text.slice(0, 200)}`);
  }
  assert.equal(count(read.map((p) => p.text).join(' '), 'This view:'), queries.length, 'every frame prints');
  assert.ok(read.map((p) => p.text).join(' ').includes('How many charges will the payment service make'), 'the waiting question prints');
  // After printing, the frames take their screen heights again.
  assertFits(await settledHeights(page), 'after printing');
  page.assertClean();
  await page.close();
  console.log(`course page: ${read.length} A4 pages, ink ${read.map((p) => (p.ink * 100).toFixed(1)).join(', ')} %`);
});

test('an instructor\'s own steps: the link opens them as text, Next walks them, the snippet keeps them and idemlab steps checks the page\'s link', async () => {
  const lines = 'seed=7&preset=lost-ack&caption=Three%20repeats%3A%20<b>not%20bold</b>&check=duplicates:3,lost:0\nseed=7&preset=lost-ack&compare=dedup%3Datomic&caption=One%20key%20per%20order&check=b.duplicates:0';
  const page = await openAt(lab(`steps=${encodeURIComponent(lines)}`));
  assert.equal(await page.textContent('#own-heading'), 'Your instructor\'s step 1 of 2');
  assert.equal(await page.textContent('#own-caption'), 'Three repeats: <b>not bold</b>', 'text, never markup');
  assert.equal(await page.$('#own-caption b'), null);
  assert.deepEqual(await page.$$eval('#own-checks li', (li) => li.map((l) => l.textContent)), ['Run A: Duplicates 3', 'Run A: Lost work 0']);
  assert.equal(await page.textContent('#counters-a [data-metric="duplicates"]'), '3');
  await page.click('#own-next');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('step') === '2');
  await page.waitForSelector('#run-b:not([hidden])');
  assert.equal(await page.textContent('#counters-b [data-metric="duplicates"]'), '0');
  assert.equal(await page.isVisible('#own-next'), false);
  // The page's own link is the sequence: the CLI checks every stated count on it.
  const checked = execFileSync(process.env.IDEMLAB_BIN ?? 'target/release/idemlab', ['steps', page.url()], { encoding: 'utf8' });
  assert.match(checked, /step 2 of 2: seed=7&preset=lost-ack\n  compare: dedup=atomic\n/);
  assert.equal((checked.match(/: true \(/g) ?? []).length, 3, checked);
  await page.click('#embed-open');
  assert.match(await page.inputValue('#embed-snippet'), /&amp;step=2&amp;steps=seed%3D7%26preset%3Dlost-ack%26caption/);
  page.assertClean();
  await page.close();
});

test('the Embed dialog composes own steps with a question; the snippet opens them, the run waits for the answer, and the answer is the CLI\'s', async () => {
  const author = await openAt(lab('seed=7&preset=lost-ack'));
  await author.click('#embed-open');
  await author.click('#compose summary');
  await author.fill('#compose-caption', 'Count the charges');
  await author.selectOption('#compose-ask', 'effects');
  await author.fill('#compose-words', 'How many times is a card charged?');
  await author.click('#compose-add');
  assert.deepEqual(await author.$$eval('#compose-list li span', (s) => s.map((e) => e.textContent)),
    ['seed=7&preset=lost-ack · Count the charges · asks: How many times is a card charged?']);
  assert.equal(await author.inputValue('#compose-words'), '', 'ready for the next step\'s words');
  // A question about B with no compare is refused in words, and adds nothing.
  await author.selectOption('#compose-ask', '');
  await author.fill('#compose-caption', 'x'.repeat(281));
  await author.evaluate(() => { document.querySelector('#compose-caption').removeAttribute('maxlength'); });
  await author.fill('#compose-caption', 'x'.repeat(281));
  await author.click('#compose-add');
  assert.equal(await author.textContent('#compose-error'), 'a caption of at most 280 characters');
  assert.equal(await author.$$eval('#compose-list li', (l) => l.length), 1);
  const snippet = await author.inputValue('#embed-snippet');
  const src = snippet.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
  // No counts in the frame's address (a printed handout shows it): the page reads them from the run.
  assert.match(src, /steps=seed%3D7%26preset%3Dlost-ack%26caption%3DCount%20the%20charges%26ask%3Deffects%26q%3DHow%20many/);
  assert.doesNotMatch(src, /check/);
  author.assertClean();
  await author.close();
  // The learner's side: the question first, the run held and the counts hidden.
  const page = await openAt(src);
  await page.waitForSelector('#own-question:not([hidden])');
  const choices = await page.$$eval('#own-choices button', (b) => b.map((e) => e.textContent));
  assert.equal(choices.length, 4);
  assert.equal(await page.textContent('#own-question-text'), 'How many times is a card charged?');
  assert.equal(await page.isVisible('#counters-a'), false, 'the counts wait for the answer');
  assert.equal(await page.$$eval('#own-checks li', (l) => l.length), 0, 'so do the stated counts');
  const checked = execFileSync(process.env.IDEMLAB_BIN ?? 'target/release/idemlab', ['steps', page.url()], { encoding: 'utf8' });
  const [, answer, offered] = checked.match(/asks A effects: answer (\d+) \(choices ([\d, ]+)\)/);
  assert.deepEqual(choices, offered.split(', '), 'the page offers the CLI\'s choices');
  await page.click(`#own-choices button:nth-child(${choices.indexOf(answer) + 1})`);
  await page.waitForSelector('#counters-a:not([hidden])');
  assert.equal(await page.textContent('#own-feedback'), `Right: ${answer}. Run A's counters show it.`);
  assert.equal(await page.textContent('#counters-a [data-metric="effects"]'), answer);
  assert.equal(await page.$$eval('#own-checks li', (l) => l.length), 0, 'the address stated none');
  page.assertClean();
  await page.close();
});

test('opened as index.html the lab keeps its path, trackers get no banner and other unknown keys do', async () => {
  const page = await openAt(lab('seed=7&preset=lost-ack&utm_source=news&utm_campaign=x&fbclid=IwAR0&gclid=1&msclkid=2&mc_eid=3'));
  assert.equal(await page.isVisible('#banner'), false, 'no banner for trackers');
  let url = new URL(page.url());
  assert.equal(url.pathname, '/lab/index.html');
  assert.equal(url.search, '?seed=7&preset=lost-ack&v=2', 'the page\'s own link drops the trackers and names its version');
  await page.selectOption('#key-dedup', 'atomic');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('dedup') === 'atomic');
  assert.equal(new URL(page.url()).pathname, '/lab/index.html', 'a pushed state keeps index.html');
  await page.reload();
  await page.waitForSelector('html[data-state="ready"]');
  url = new URL(page.url());
  assert.equal(`${url.pathname}${url.search}`, '/lab/index.html?seed=7&preset=lost-ack&dedup=atomic&v=2', 'reload loads');
  // The page's own `?…` links (Start Lesson A) keep the path too, and load.
  const hrefs = await page.$$eval('a[href*="lesson=a"]', (links) => links.map((a) => a.href));
  assert.ok(hrefs.length > 0);
  for (const href of hrefs) {
    assert.match(href, /\/lab\/index\.html\?lesson=a&step=1$/);
    assert.equal((await page.request.get(href)).status(), 200, href);
  }
  page.assertClean();
  await page.close();

  const unknown = await openAt(lab('seed=7&utm_source=news&colour=red'));
  assert.match(await unknown.textContent('#banner'), /unknown key `colour`/);
  assert.doesNotMatch(await unknown.textContent('#banner'), /utm_source/);
  await unknown.close();
});

test('theme=dark renders dark in a light browser, theme=light light in a dark one, theme=purple is refused', async () => {
  const looks = (page) => page.evaluate(() => ({
    background: getComputedStyle(document.body).backgroundColor,
    timeline: getComputedStyle(document.documentElement).getPropertyValue('--tl-panel').trim(),
    scheme: getComputedStyle(document.documentElement).colorScheme,
  }));
  const dark = await openAt(lab('seed=7&preset=lost-ack&embed=1&theme=dark'), { colorScheme: 'light' });
  assert.deepEqual(await looks(dark), { background: 'rgb(21, 23, 27)', timeline: '#1d2025', scheme: 'dark' });
  await dark.screenshot({ path: `${ARTIFACTS}/embed-theme-dark.png` });
  // Back and Forward between links of other themes restyle the page each time.
  await dark.evaluate(() => history.pushState(null, '', `${location.pathname}?seed=7&preset=lost-ack&embed=1&theme=light`));
  await dark.evaluate(() => history.pushState(null, '', `${location.pathname}?seed=7&preset=lost-ack&embed=1`));
  const lightBg = 'rgb(251, 251, 250)', darkBg = 'rgb(21, 23, 27)';
  for (const [move, background] of [['back', lightBg], ['back', darkBg], ['forward', lightBg], ['forward', lightBg], ['back', lightBg], ['back', darkBg]]) {
    await dark.evaluate((m) => history[m](), move);
    await dark.waitForFunction((bg) => getComputedStyle(document.body).backgroundColor === bg, background);
    assert.equal((await looks(dark)).background, background, `after ${move}`);
  }
  dark.assertClean();
  await dark.close();
  // A slow stylesheet gets the theme too: the module that mounts the lab waits for it.
  const late = await openPage(browser, { colorScheme: 'light' });
  await late.route('**/*.css', async (route) => { await new Promise((done) => setTimeout(done, 1500)); await route.continue(); });
  await late.goto(lab('seed=7&preset=lost-ack&embed=1&theme=dark'));
  await late.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  await late.waitForLoadState('load');
  assert.deepEqual(await looks(late), { background: 'rgb(21, 23, 27)', timeline: '#1d2025', scheme: 'dark' }, 'a late stylesheet');
  await late.close();
  const light = await openAt(lab('seed=7&preset=lost-ack&embed=1&theme=light'), { colorScheme: 'dark' });
  assert.deepEqual(await looks(light), { background: 'rgb(251, 251, 250)', timeline: '#ffffff', scheme: 'light' });
  light.assertClean();
  await light.close();
  const auto = await openAt(lab('seed=7&preset=lost-ack&theme=auto'), { colorScheme: 'dark' });
  assert.equal((await looks(auto)).background, 'rgb(21, 23, 27)', 'auto follows the browser');
  await auto.close();
  const purple = await openAt(lab('seed=7&theme=purple'));
  assert.match(await purple.textContent('#banner'), /`theme=purple` is not valid: expected one of auto\|light\|dark/);
  await purple.close();
});

test('Copy link in a frame without clipboard-write shows the link selected, and says Copied only when it was', async () => {
  course = `<!doctype html><title>Course</title><iframe src="${lab('seed=4&amp;preset=race&amp;embed=1')}" style="width:1000px;height:700px;border:0"></iframe>`;
  const page = await openPage(browser);
  await page.goto(`${origin(courseHost)}/copy.html`);
  const [frame] = await frames(page);
  await frame.waitForSelector('html[data-state="ready"]');
  await frame.click('#copy-link');
  await frame.waitForFunction(() => document.getElementById('copy-link').textContent !== 'Copy link');
  const shown = await frame.evaluate(() => {
    const field = document.getElementById('copy-field');
    return {
      label: document.getElementById('copy-link').textContent, hidden: field.hidden, value: field.value, href: location.href,
      selected: field.selectionStart === 0 && field.selectionEnd === field.value.length, focused: document.activeElement === field,
    };
  });
  assert.equal(shown.label, 'Not copied');
  assert.equal(shown.hidden, false);
  assert.equal(shown.value, shown.href, 'the link, as the address bar holds it');
  assert.match(shown.value, /&v=2$/, 'with the model version');
  assert.ok(shown.selected && shown.focused, 'the link is selected, ready for Ctrl+C');
  await page.close();

  // Where the write is allowed and resolves: "Copied", the field stays hidden, the clipboard has the link.
  const top = await openAt(lab('seed=4&preset=race'), { permissions: ['clipboard-read', 'clipboard-write'] });
  await top.click('#copy-link');
  await top.waitForFunction(() => document.getElementById('copy-link').textContent === 'Copied');
  assert.equal(await top.isVisible('#copy-field'), false);
  assert.equal(await top.evaluate(() => navigator.clipboard.readText()), top.url());
  assert.match(top.url(), /&v=2$/);
  top.assertClean();
  await top.close();
});

// Sandboxes and results: the lab served by scripts/static_server.py
// (which sends Access-Control-Allow-Origin: *) and a course page served by a second one, on
// another port, that frames it sandboxed and records every message it gets.

/** `scripts/static_server.py DIR 0`, resolved with its URL once it prints it. */
function staticServer(dir) {
  const child = spawn('python3', ['scripts/static_server.py', dir, '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((done) => child.stdout.once('data', (line) => done({ child, url: String(line).trim() })));
}

async function sandboxedCourse(labUrl, sandbox, query) {
  const dir = mkdtempSync(join(tmpdir(), 'idemlab-course-'));
  writeFileSync(join(dir, 'course.html'), `<!doctype html><title>Course</title><link rel="icon" href="data:,">
<script>window.got = []; addEventListener('message', (e) => window.got.push({ origin: e.origin, ...e.data }));</script>
<iframe sandbox="${sandbox}" src="${labUrl}index.html?${query}" style="width:1000px;height:900px;border:0"></iframe>`);
  const course = await staticServer(dir);
  const page = await openPage(browser, { viewport: { width: 1100, height: 950 } });
  await page.goto(`${course.url}course.html`);
  return { page, frame: (await frames(page))[0], close: () => course.child.kill() };
}

/** Takes the check in `frame` with the simulator's answers, as a learner who worked them out;
 * returns the notes shown under the questions. */
async function takeCheckIn(frame, lesson, seed) {
  const notes = [];
  await frame.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  await frame.click('#quiz-start');
  for (let n = 1; n <= 4; n += 1) {
    await frame.waitForSelector(`#quiz-form[data-question="${n}"]`);
    const answer = oracle(drawnQuestions(lesson, seed)[n - 1]);
    if (answer.choice !== undefined) await frame.check(`#quiz-form input[value="${answer.choice}"]`);
    else await frame.fill('#quiz-number', String(answer.number));
    await frame.click('#quiz-check');
    await frame.waitForSelector('#quiz-feedback[data-result="right"]');
    notes.push(...await frame.$$eval('.quiz-note', (ps) => ps.map((p) => p.textContent)));
    await frame.click('#quiz-next');
  }
  await frame.waitForSelector('#quiz-score');
  return notes;
}

test('sandboxed allow-scripts allow-same-origin: the check completes and the course page gets idemlab:quiz with its score', async () => {
  const lab = await staticServer(DIST);
  const { page, frame, close } = await sandboxedCourse(lab.url, 'allow-scripts allow-same-origin', 'lesson=a&quiz=5&embed=1&report=parent');
  await takeCheckIn(frame, 'a', '5');
  assert.equal(await frame.getAttribute('#quiz-score', 'data-mastered'), 'true');
  await page.waitForFunction(() => window.got.some((m) => m.type === 'idemlab:quiz'));
  const got = await page.evaluate(() => window.got.filter((m) => m.type !== 'idemlab:height' && m.subject !== 'lti.frameResize'));
  // Protocol v1: what began, then the score with one entry per question and the view it ran.
  assert.deepEqual(got.map((m) => [m.type, m.what]), [['idemlab:start', 'lesson'], ['idemlab:start', 'check'], ['idemlab:quiz', undefined]]);
  const { questions, view, ...quiz } = got[2];
  assert.deepEqual(quiz, { origin: lab.url.slice(0, -1), type: 'idemlab:quiz', v: 1, lesson: 'a', id: 'a', seed: '5', attempt: 1, score: 4, total: 4, mastered: true });
  assert.deepEqual(questions.map((q) => q.correct), [true, true, true, true]);
  assert.deepEqual(questions.map((q) => q.kind), drawnQuestions('a', '5').map((q) => q.kind));
  assert.match(view, /(^|&)lesson=a&quiz=5(&|$)/);
  page.assertClean();
  await page.close();
  close();
  lab.child.kill();
});

test('sandboxed allow-scripts alone: with the CORS header the lab works but keeps no progress, and says so; without it a plain note says what to allow', async () => {
  const lab = await staticServer(DIST);
  const sandboxed = await sandboxedCourse(lab.url, 'allow-scripts', 'lesson=a&step=2&embed=1&report=parent');
  const { page, frame } = sandboxed;
  await frame.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  assert.equal(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor === 'rgba(0, 0, 0, 0)'), false, 'styled');
  assert.equal(await frame.$('#boot-note'), null);
  await page.waitForFunction(() => window.got.some((m) => m.type === 'idemlab:step'));
  // An opaque origin: the message comes from "null", to the course page's origin.
  const { view, ...step } = await page.evaluate(() => window.got.find((m) => m.type === 'idemlab:step'));
  assert.deepEqual(step, { origin: 'null', type: 'idemlab:step', v: 1, lesson: 'a', id: 'a', step: 2 });
  assert.match(view, /(^|&)lesson=a&step=2(&|$)/);
  // The check runs; its answers cannot be stored, and the page says so.
  await frame.evaluate(() => { location.search = '?lesson=a&quiz=5&embed=1&report=parent'; });
  const notes = await takeCheckIn(frame, 'a', '5');
  assert.match(notes.join(' '), /would not keep the progress; it lasts until the page closes/);
  await page.waitForFunction(() => window.got.some((m) => m.type === 'idemlab:quiz' && m.score === 4));
  await page.screenshot({ path: `${ARTIFACTS}/embed-sandbox-scripts.png` });
  page.assertClean();
  await page.close();
  sandboxed.close();
  lab.child.kill();

  // A host that sends no CORS header (this file's own server): nothing loads but the note.
  const bare = await sandboxedCourse(`${origin(labHost)}/lab/`, 'allow-scripts', 'seed=7&embed=1');
  await bare.frame.waitForSelector('#boot-note', { state: 'visible' });
  assert.match(await bare.frame.textContent('#boot-note'), /could not start.*allow-same-origin.*Access-Control-Allow-Origin: \*/s);
  await bare.page.screenshot({ path: `${ARTIFACTS}/embed-sandbox-no-cors.png` });
  await bare.page.close();
  bare.close();
});

test('controls=dedup: the Compare box, lessons, shortcuts and clicks on the timeline change no other key; hide= leaves parts out', async () => {
  const page = await openAt(lab('seed=7&preset=lost-ack&embed=1&controls=dedup&hide=tabs,link'));
  const keys = () => {
    const params = new URL(page.url()).searchParams;
    for (const view of ['dedup', 'cursor', 'zoom', 'compare', 'embed', 'controls', 'hide']) params.delete(view);
    return params.toString();
  };
  const start = keys();
  assert.equal(await page.isVisible('#tabs'), false, 'hide=tabs');
  assert.equal(await page.isVisible('#copy-link'), false, 'hide=link');
  // The compare box: B may differ in dedup only.
  if (!(await page.isDisabled('#compare-on'))) {
    await page.check('#compare-on');
    await page.fill('#compare-keys', 'orders=10');
    await page.press('#compare-keys', 'Enter');
    const compare = new URL(page.url()).searchParams.get('compare') ?? '';
    assert.match(compare, /^(dedup=[a-z-]+)?$/, `B: ${compare}`);
  }
  // Shortcuts and Shift+clicks along the timeline.
  await page.click('#timeline-a', { position: { x: 5, y: 5 } });
  await page.keyboard.press('n');
  // A refused action says which lock refused it.
  assert.match(await page.textContent('#banner'), /That change is locked\..*only dedup can be changed here: the seed stays as it is/s);
  for (const key of ['N', 'l', 'ArrowRight']) await page.keyboard.press(key);
  const box = await page.$eval('#timeline-a', (c) => ({ w: c.clientWidth, h: c.clientHeight }));
  for (let x = 40; x < box.w; x += 37) {
    for (const y of [30, 60, 90, 120]) await page.click('#timeline-a', { position: { x, y: Math.min(y, box.h - 2) }, modifiers: ['Shift'] });
  }
  assert.equal(keys(), start, 'no key but dedup changed');
  // Lessons: every picker button is locked.
  assert.ok(await page.$$eval('#lesson-picker button', (bs) => bs.length > 0 && bs.every((b) => b.disabled)));
  // The open control still works.
  await page.selectOption('#key-dedup', 'atomic');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('dedup') === 'atomic');
  assert.equal(keys(), start);
  page.assertClean();
  await page.close();
});

test('the Embed dialog starts with nothing editable, has None and All, and a title of its own', async () => {
  const page = await openAt(lab('seed=7&preset=lost-ack'));
  await page.click('#embed-open');
  const ticked = () => page.$$eval('#embed-controls input:checked', (boxes) => boxes.length);
  assert.equal(await ticked(), 0);
  assert.match(await page.inputValue('#embed-snippet'), /controls=&amp;|controls=&|controls="/);
  assert.equal(await page.inputValue('#embed-name'), 'idemlab: lost-ack, seed 7');
  await page.click('#embed-all');
  assert.equal(await ticked(), await page.$$eval('#embed-controls input', (boxes) => boxes.length));
  await page.click('#embed-none');
  await page.check('#embed-open-dedup');
  assert.equal(await page.inputValue('#embed-name'), 'idemlab: lost-ack, seed 7');
  await page.fill('#embed-name', 'Lost ack: "try dedup"');
  const snippet = await page.inputValue('#embed-snippet');
  assert.match(snippet, /title="Lost ack: &quot;try dedup&quot;"/);
  assert.match(snippet, /controls=dedup&amp;v=2"/);
  // Results to the course page, ticked in the dialog (an instructor had to add it by hand).
  await page.check('#embed-report');
  assert.match(await page.inputValue('#embed-snippet'), /controls=dedup&amp;report=parent&amp;v=2"/);
  // A fixed height it cannot use is said, with what it can; the snippet then sizes itself.
  await page.fill('#embed-height', '200');
  assert.match(await page.textContent('#embed-height-error'), /200 px cannot be used: give a whole number from 320 to 4000/);
  assert.match(await page.inputValue('#embed-snippet'), /<script>/);
  await page.fill('#embed-height', '600');
  assert.ok(await page.isHidden('#embed-height-error'));
  assert.doesNotMatch(await page.inputValue('#embed-snippet'), /<script>/);
  page.assertClean();
  await page.close();
});

test('docs/course.html, the example course page, shows the progress its two embeds report', async () => {
  const [lab, docs] = [await staticServer(DIST), await staticServer('docs')];
  const page = await openPage(browser, { viewport: { width: 1200, height: 900 } });
  await page.goto(`${docs.url}course.html?lab=${encodeURIComponent(`${lab.url}index.html`)}`);
  const [lesson] = await frames(page);
  await lesson.waitForSelector('html[data-state="ready"]', { timeout: 15_000 });
  await page.waitForFunction(() => document.getElementById('log').textContent.includes('Lesson A: reached step 1'));
  await lesson.click('#lesson-step [data-choice="0"]');
  await page.waitForFunction(() => /Lesson A step 1: predicted [^,]+, (right|wrong)/.test(document.getElementById('log').textContent));
  await lesson.click('#lesson-step [data-next]');
  await page.waitForFunction(() => document.getElementById('log').textContent.includes('Lesson A: reached step 2'));
  await page.screenshot({ path: `${ARTIFACTS}/embed-course-example.png` });
  page.assertClean();
  await page.close();
  lab.child.kill();
  docs.child.kill();
});
