// Issue 12's SQL on the page: the Tables tab lists the database's last statements up to the
// cursor, the same text `idemlab run --sql` prints for the same URL (which
// tests/pg/conformance.test.mjs replays on PostgreSQL), and a database step's details carry it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { launch, openLab } from './lab.mjs';

const IDEMLAB_BIN = process.env.IDEMLAB_BIN ?? 'target/release/idemlab';
const QUERY = 'seed=1&preset=race&dedup=atomic';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

/** `idemlab run --sql`'s statements: [event time text, request, returns, statement]. */
function cliStatements(query) {
  const text = execFileSync(IDEMLAB_BIN, ['run', query, '--sql'], { encoding: 'utf8' });
  const rows = text.split(/^-- ms\trequest\ttxn\treturns\tstatement$/m)[1];
  return rows.split('\n').filter(Boolean).map((line) => line.split('\t'));
}

test('the Tables tab lists the statements up to the cursor as the CLI prints them', async () => {
  const statements = cliStatements(QUERY);
  const blocked = statements.findIndex((s) => s[3] === 'blocks');
  assert.ok(blocked > 0, 'the race with dedup=atomic has a copy that blocks');
  // The blocked insert's event number, from the readable trace (line 1 is the scenario).
  const events = execFileSync(IDEMLAB_BIN, ['run', QUERY, '--text'], { encoding: 'utf8' }).split('\n').slice(1);
  const index = events.findIndex((line) => line.includes('blocked on the unique index'));
  assert.ok(index >= 0);
  const page = await openLab(browser, `${QUERY}&cursor=${index}`);
  await page.click('#tab-tables');
  const shown = await page.$$eval('#table-sql tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.ok(shown.length > 0 && shown.length <= 12, `${shown.length} rows`);
  const expected = statements.slice(0, blocked + 1).slice(-shown.length).map((s) => s[4]);
  assert.deepEqual(shown.map((r) => r[3]), expected);
  assert.match(shown.at(-1)[4], /^waits on the unique index/);
  await page.close();
});
