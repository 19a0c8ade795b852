// Every word the page shows passes through its one table. Under `lang=qps`,
// the pseudo-language, a string from the table has no plain Latin letters left; a plain word
// is one the table misses, unless it is the simulation's own vocabulary (the timeline's labels,
// which `idemlab svg` draws for the same link, and what the page marks `translate="no"`: the
// events, the run told as text, the tables' rows), or code (a scenario key, a value, a unit).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { BASE_URL, cliSvg, compareUrl, launch, openLab } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** Plain words on show, and the words of the page's own untranslated regions. */
async function words(page) {
  return page.evaluate(() => {
    const skipped = 'script, style, code, kbd, samp, canvas, [translate="no"]';
    const plain = new Map();
    const vocabulary = new Map();
    const visible = (element) => element.checkVisibility?.() ?? true;
    const add = (set, text) => {
      for (const token of text.split(/\s+/)) {
        // Code: a key, a value, a path or a number with its unit ("dedup=atomic", "12.5ms").
        if (/[=_/\\@`{}<>]|\d/.test(token)) continue;
        for (const word of token.match(/[A-Za-z]{2,}/g) ?? []) if (!set.has(word)) set.set(word, text.trim().slice(0, 80));
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !visible(parent)) continue;
      add(parent.closest(skipped) ? vocabulary : plain, node.nodeValue);
    }
    const read = ['title', 'aria-label', 'placeholder', 'alt', 'data-caption'];
    for (const element of document.body.querySelectorAll(read.map((name) => `[${name}]`).join(', '))) {
      if (!visible(element) || element.closest(skipped)) continue;
      for (const name of read) add(plain, element.getAttribute(name) ?? '');
    }
    return { plain: [...plain], vocabulary: [...vocabulary.keys()] };
  });
}

/** The scenario codec's own words: each key's name, default and allowed values (the first three
 * columns of `idemlab keys --markdown`), which the controls show as they are. */
const CODEC_WORDS = (() => {
  const table = execFileSync(process.env.IDEMLAB_BIN ?? 'target/release/idemlab', ['keys', '--markdown'], { encoding: 'utf8' });
  // `\|` is a pipe inside a cell (an allowed value's list), not a column's edge.
  const cells = table.split('\n').flatMap((row) => row.replaceAll('\\|', ' ').split('|').slice(1, 4));
  // And the page's own keys (`codec::VIEW_KEYS`), which an unknown key's message lists.
  const view = 'cursor compare embed controls lesson step quiz theme zoom speed sweep tab focus keys gate report hide height steps lang build';
  return `${cells.join(' ')} ${view}`.match(/[A-Za-z]{2,}/g) ?? [];
})();

/** The trace's own words for a link: its runs told by `idemlab run --text` (A, and B when it
 * compares) and the timeline labels `idemlab svg` draws. */
function traceWords(url) {
  const runs = [url, ...(new URL(url).searchParams.has('compare') ? [compareUrl(url)] : [])];
  const told = runs.map((u) => execFileSync(process.env.IDEMLAB_BIN ?? 'target/release/idemlab', ['run', '--text', u], { encoding: 'utf8' }));
  const drawn = cliSvg(url).replace(/<[^>]*>/g, ' ');
  return [...told, drawn].join(' ').match(/[A-Za-z]{2,}/g) ?? [];
}

// Links and, for some, the clicks that open what they show: dialogs, the exercises, answers.
const LINKS = [
  ['seed=4&preset=race', ['#help-open']],
  ['seed=4&preset=race', ['#embed-open']],
  ['seed=3&preset=race&compare=dedup%3Datomic&tab=tables', []],
  ['seed=3&preset=race&compare=dedup%3Datomic&focus=b&tab=sweep', []],
  ['seed=1&retries=99&banana=1', []],
  ['lesson=a&step=1', []],
  ['lesson=a&step=1', ['.predict-choices button']],
  ['lesson=a&step=2&gate=0', []],
  ['lesson=a&step=4&gate=0', []],
  ['lesson=a&step=7&gate=0', ['#order-run']],
  ['lesson=b&step=3&gate=0', []],
  ['lesson=c&step=2&gate=0&keys=1', []],
  ['lesson=c&step=8&gate=0', []],
  ['lesson=a&quiz=3', []],
  ['seed=2&preset=lost-ack&tab=sweep', []],
  ['build=client,api,payment,db&retries=1&timeout_ms=300&partition=0..400&dedup=atomic&compare=dedup%3Dnone', []],
];

test('under lang=qps no word of the page is left in plain letters', async () => {
  const missed = new Map();
  for (const [link, clicks] of LINKS) {
    const page = await openLab(browser, `${link}&lang=qps`);
    for (const selector of clicks) {
      await page.locator(selector).first().click();
      await page.waitForTimeout(300);
    }
    assert.equal(await page.getAttribute('html', 'lang'), 'qps-ploc');
    const { plain, vocabulary } = await words(page);
    // The page's own permalink names the scenario a lesson link loads, for the CLI.
    const known = new Set([...vocabulary, ...traceWords(page.url()), ...CODEC_WORDS]);
    for (const [word, where] of plain.filter(([w]) => !known.has(w))) {
      missed.set(word, missed.get(word) ?? `${link} ${clicks.join(' ')}: ${where}`);
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
