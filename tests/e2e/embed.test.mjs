// Embedding, as an instructor meets it: the lab served from a host without directory indexes,
// snippets from its own Embed dialog pasted into a course page on another origin (another port
// of 127.0.0.1), three frames of different widths and content; links that keep `index.html`,
// trackers, `theme=`, and Copy link inside a frame whose clipboard is blocked.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from './lab.mjs';

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

/** The snippet the lab's own Embed dialog writes for `query`. */
async function snippetFor(query) {
  const page = await openAt(lab(query));
  await page.click('#embed-open');
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
    assert.match(snippet, /^<iframe data-idemlab src="http:\/\/127\.0\.0\.1:\d+\/lab\/index\.html\?[^"]*embed=1/, 'the snippet keeps index.html');
  }
  course = coursePage(snippets, EMBEDS.map((e) => e.width));
  const page = await openCourse();
  const loaded = await settledHeights(page);
  assertFits(loaded, 'after load');
  const [lesson, free, tables] = await frames(page);

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

test('opened as index.html the lab keeps its path, trackers get no banner and other unknown keys do', async () => {
  const page = await openAt(lab('seed=7&preset=lost-ack&utm_source=news&utm_campaign=x&fbclid=IwAR0&gclid=1&msclkid=2&mc_eid=3'));
  assert.equal(await page.isVisible('#banner'), false, 'no banner for trackers');
  let url = new URL(page.url());
  assert.equal(url.pathname, '/lab/index.html');
  assert.equal(url.search, '?seed=7&preset=lost-ack', 'the page\'s own link drops the trackers');
  await page.selectOption('#key-dedup', 'atomic');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('dedup') === 'atomic');
  assert.equal(new URL(page.url()).pathname, '/lab/index.html', 'a pushed state keeps index.html');
  await page.reload();
  await page.waitForSelector('html[data-state="ready"]');
  url = new URL(page.url());
  assert.equal(`${url.pathname}${url.search}`, '/lab/index.html?seed=7&preset=lost-ack&dedup=atomic', 'reload loads');
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
  assert.equal(shown.value, shown.href);
  assert.ok(shown.selected && shown.focused, 'the link is selected, ready for Ctrl+C');
  await page.close();

  // Where the write is allowed and resolves: "Copied", the field stays hidden, the clipboard has the link.
  const top = await openAt(lab('seed=4&preset=race'), { permissions: ['clipboard-read', 'clipboard-write'] });
  await top.click('#copy-link');
  await top.waitForFunction(() => document.getElementById('copy-link').textContent === 'Copied');
  assert.equal(await top.isVisible('#copy-field'), false);
  assert.equal(await top.evaluate(() => navigator.clipboard.readText()), top.url());
  top.assertClean();
  await top.close();
});
