// The page's "SVG" export and `idemlab svg` on the same URL are the same file, byte for byte:
// both draw run A's drawing list from `view::export`, over the `zoom=` window or the whole run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { BASE_URL, cliSvg, launch, openLab } from './lab.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

async function exported(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-svg')]);
  return readFileSync(await download.path(), 'utf8');
}

test('the SVG export equals idemlab svg on the same URL', async () => {
  const queries = [
    'preset=race&seed=4',
    'seed=7&preset=outside-boundary&cursor=12',
    'seed=5&preset=lost-ack&consumer=plain&ack_loss=0.4&zoom=20000..180000',
    'seed=3&preset=race&compare=dedup%3Datomic',
  ];
  for (const query of queries) {
    const page = await openLab(browser, query);
    const svg = await exported(page);
    assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), query);
    assert.equal(svg, cliSvg(`${BASE_URL}?${query}`), `${query}: the page's export differs from idemlab svg`);
    page.assertClean();
    await page.close();
  }
});

test('after zooming on the page, the export follows the new window, as idemlab svg does on the new URL', async () => {
  const page = await openLab(browser, 'seed=4&preset=race');
  await page.click('#zoom-in');
  await page.waitForFunction(() => new URL(location.href).searchParams.has('zoom'));
  const svg = await exported(page);
  assert.equal(svg, cliSvg(page.url()));
  assert.notEqual(svg, cliSvg(`${BASE_URL}?seed=4&preset=race`), 'the zoom changed the picture');
  page.assertClean();
  await page.close();
});
