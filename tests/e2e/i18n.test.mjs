// Issue 13, item 10: every word the page shows passes through its one table. Under `lang=qps`,
// the pseudo-language, a string from the table has no plain Latin letters left; a plain word
// is one the table misses, unless it is the simulation's own vocabulary (the timeline's labels,
// which `idemlab svg` draws for the same link, and what the page marks `translate="no"`: the
// events, the run told as text, the tables' rows), or code (a scenario key, a value, a unit).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { BASE_URL, cliSvg, launch, openLab } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Plain words on show, and the words of the page's own untranslated regions. */
async function words(page) {
  return page.evaluate(() => {
    const skipped = 'script, style, code, kbd, samp, canvas, [translate="no"]';
    const plain = new Set();
    const vocabulary = new Set();
    const visible = (element) => element.checkVisibility?.() ?? true;
    const add = (set, text) => {
      for (const token of text.split(/\s+/)) {
        // Code: a key, a value, a path or a number with its unit ("dedup=atomic", "12.5ms").
        if (/[=_/\\@`{}<>]|\d/.test(token)) continue;
        for (const word of token.match(/[A-Za-z]{2,}/g) ?? []) set.add(word);
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !visible(parent)) continue;
      add(parent.closest(skipped) ? vocabulary : plain, node.nodeValue);
    }
    for (const element of document.body.querySelectorAll('[title], [aria-label]')) {
      if (!visible(element) || element.closest(skipped)) continue;
      for (const name of ['title', 'aria-label']) add(plain, element.getAttribute(name) ?? '');
    }
    return { plain: [...plain], vocabulary: [...vocabulary] };
  });
}

const LINKS = [
  'seed=4&preset=race',
  'seed=3&preset=race&compare=dedup%3Datomic&tab=tables',
  'lesson=a&step=1',
  'lesson=a&step=4&gate=0',
  'lesson=c&step=2&gate=0&keys=1',
  'lesson=a&quiz=3',
  'seed=2&preset=lost-ack&tab=sweep',
];

test('under lang=qps no word of the page is left in plain letters', async () => {
  const missed = new Map();
  for (const link of LINKS) {
    const page = await openLab(browser, `${link}&lang=qps`);
    assert.equal(await page.getAttribute('html', 'lang'), 'qps-ploc');
    const { plain, vocabulary } = await words(page);
    const drawn = cliSvg(`${BASE_URL}?${link}`).replace(/<[^>]*>/g, ' ');
    const known = new Set([...vocabulary, ...(drawn.match(/[A-Za-z]{2,}/g) ?? [])]);
    for (const word of plain.filter((w) => !known.has(w))) {
      missed.set(word, missed.get(word) ?? link);
    }
    page.assertClean();
    await page.close();
  }
  assert.deepEqual(Object.fromEntries(missed), {}, 'plain words (each with the first link that shows it)');
});

test('lang= is checked, kept in the link the page writes, and English by default', async () => {
  const page = await openLab(browser, 'seed=4&preset=race&lang=qps');
  assert.match(page.url(), /[?&]lang=qps(&|$)/);
  assert.notEqual(await page.textContent('#lesson-close'), 'Close lesson');
  await page.close();
  const english = await openLab(browser, 'seed=4&preset=race');
  assert.equal(await english.getAttribute('html', 'lang'), 'en');
  assert.equal(await english.textContent('#lesson-close'), 'Close lesson');
  await english.close();
  const bad = await openLab(browser, 'seed=4&preset=race&lang=klingon');
  assert.match(await bad.textContent('#banner'), /lang=klingon.*en\|qps/s);
  await bad.close();
});
