// Issue 12, section 2: the page's contracts table (Sweep tab) is `idemlab contracts` for the
// same query and seeds, built in slices behind aria-busy with no long task; a row loads as run
// A or B and the counters are then `idemlab run`'s for that row's scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { launch, openPage, counters, cliCounts, compareUrl, watchLongTasks, BASE_URL } from './lab.mjs';

const IDEMLAB_BIN = process.env.IDEMLAB_BIN ?? 'target/release/idemlab';
const FAULTS = 'seed=3&orders=4&dedup=atomic&provider=keyed&loss_resp=0.3&provider_fail=0.3&retries=4&backoff_ms=30';
const COLUMNS = ['duplicates', 'lost', 'conflicts', 'takeovers', 'replayed_failures', 'rejected_expired', 'unrecorded', 'refunds', 'duplicate_receipts', 'lost_events'];

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** The table's rows as the page shows them: [name, ...counts] (a name's folded keys left out). */
const shownRows = (page) => page.$$eval('#contracts-body tr', (rows, cells) =>
  rows.map((row) => [...row.querySelectorAll('th, td')].slice(0, cells)
    .map((cell) => (cell.tagName === 'TH' ? cell.firstChild.textContent : cell.textContent))), 1 + COLUMNS.length);

/** Opens `query` on the Sweep tab, builds the contracts table over `seeds` seeds (seen busy
 * first), checks that no task ran over 200 ms meanwhile, and checks the rows against
 * `idemlab contracts` for the query and seeds the caption names. Returns the page, the
 * caption's seeds and the CLI's rows. */
async function buildTable(query, seeds, runs) {
  const page = await openPage(browser);
  await watchLongTasks(page);
  await page.goto(`${BASE_URL}?${query}&tab=sweep`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 60_000 });
  await page.fill('#sweep-seeds', String(seeds));
  await page.waitForTimeout(300);
  // Busy is recorded as it is set: a table of 1,800 runs can be done in under a second, before
  // a poll for the attribute would see it.
  await page.evaluate(() => {
    window.__longest = 0;
    window.__sawBusy = false;
    const table = document.getElementById('table-contracts');
    new MutationObserver(() => { if (table.getAttribute('aria-busy') === 'true') window.__sawBusy = true; })
      .observe(table, { attributes: true, attributeFilter: ['aria-busy'] });
  });
  await page.click('#contracts-run');
  await page.waitForFunction(() => window.__sawBusy, null, { timeout: 5_000 });
  await page.waitForSelector('#table-contracts:not([aria-busy]):not([hidden])', { timeout: 120_000 });
  // Long-task entries arrive after the task ends.
  await page.waitForTimeout(300);
  const longest = await page.evaluate(() => window.__longest);
  assert.ok(longest < 200, `a ${longest} ms task while the table computed`);
  const note = await page.textContent('#table-contracts caption span');
  assert.match(note, new RegExp(`, ${runs} of ${runs} runs;`));
  // The caption's command, run as a reader would paste it, prints the same rows.
  const command = await page.textContent('#table-contracts caption code');
  const [, asked, first, last] = command.match(/^idemlab contracts '([^']+)' --seeds (\d+)\.\.=(\d+)$/);
  const cli = JSON.parse(execFileSync(IDEMLAB_BIN, ['contracts', asked, '--seeds', `${first}..=${last}`], { encoding: 'utf8' }));
  const want = cli.contracts.map((row) => [row.contract ?? '(none)', ...COLUMNS.map((c) => String(row[c]))]);
  assert.deepEqual(await shownRows(page), want);
  return { page, first, last, cli };
}

test('the contracts table is the CLI\'s for the same query and seeds, and a row loads as A or B', async () => {
  // 1,800 runs: more than one slice on any machine, so the table is seen busy first.
  const { page, first, last, cli } = await buildTable(FAULTS, 300, 1800);
  assert.equal(first, '3');
  assert.equal(last, '302');
  // Each row folds the keys its contract sets, as `idemlab contracts --list` prints them.
  const keys = await page.$$eval('#contracts-body th', (heads) => heads.map((th) => th.querySelector('details code')?.textContent ?? ''));
  const listed = execFileSync(IDEMLAB_BIN, ['contracts', '--list'], { encoding: 'utf8' });
  assert.equal(keys[0], '', 'the (none) row sets nothing');
  for (const shown of keys.slice(1)) {
    assert.ok(listed.includes('`' + shown.replaceAll(' ', '&') + '`'), `${shown} is not a contract's keys in --list`);
  }

  // stripe-v1 as A, oasis as B: each run's counters are the CLI's for its row's scenario.
  await page.click('#contracts-body button[aria-label="Load stripe-v1 as run A"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('contract') === 'stripe-v1');
  await page.waitForSelector('html[data-state="ready"]');
  await page.click('#contracts-body button[aria-label="Load oasis as run B"]');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('compare')?.startsWith('contract=oasis'));
  await page.waitForSelector('#counters-b [data-metric]');
  const stripe = cli.contracts.find((row) => row.contract === 'stripe-v1').scenario;
  const oasis = cli.contracts.find((row) => row.contract === 'oasis').scenario;
  const a = cliCounts(page.url());
  const b = cliCounts(compareUrl(page.url()));
  for (const [shown, run, scenario] of [[await counters(page, 'a'), a, stripe], [await counters(page, 'b'), b, oasis]]) {
    const expected = cliCounts(scenario);
    for (const metric of ['effects', 'duplicates', 'lost', 'unrecorded']) {
      assert.equal(run[metric], expected[metric], `${scenario}: ${metric}`);
      if (metric in shown) assert.equal(shown[metric], expected[metric], `${scenario}: ${metric} on the page`);
    }
  }
  // The table stays beside the runs it loaded.
  assert.equal(await page.isHidden('#table-contracts'), false);
  page.assertClean();
  await page.close();
});

// About 300,000 events a run, six runs: each run is longer than a 200 ms task would allow in
// one piece, so the table steps inside runs.
const HEAVY = 'orders=5000&clients=16&timeout_ms=1&backoff_ms=0&retries=20&latency_ms=0..5&events_max=300000';

test('a heavy scenario\'s table is built inside runs, with no long task, and is the CLI\'s', async () => {
  const { page } = await buildTable(HEAVY, 1, 6);
  page.assertClean();
  await page.close();
});
