// The lab's database model against a real PostgreSQL 15.
//
// For each case, `idemlab run QUERY --sql` lists the statements the run's database steps stand
// for, in the order the simulated database received them, with what each returned there. This
// test starts a private PostgreSQL cluster in a temporary folder (as the `postgres` user when run
// as root, on a Unix socket, no TCP), opens one connection per request, sends the same statements
// in the same order and checks that PostgreSQL agrees:
//   - what each lookup sees (no row, a done row and its stored status, a row in progress, a
//     different body);
//   - who blocks on the unique index, and that it stays blocked until a commit or rollback;
//   - who gets unique_violation (23505) or lock_not_available (55P03), and who gets in;
//   - which ledger rows exist at the end, against the trace's committed ledger rows.
//
// Environment: IDEMLAB_BIN (default target/release/idemlab), PG_BIN (default
// /usr/lib/postgresql/15/bin).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const BIN = process.env.IDEMLAB_BIN ?? 'target/release/idemlab';
const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
// How long a statement may take before the test calls it blocked or stuck.
const SETTLE_MS = 5000;

// Each case names what it covers; `covers` lists outcomes its listing must contain (and
// `statements` the starts of statements it must send), so that a
// model change that loses the interesting interleaving fails here instead of passing vacuously.
const CASES = [
  {
    name: 'race, atomic: the copy blocks on the unique index, gets 23505 when the first commits, and replays',
    query: 'preset=race&seed=1&dedup=atomic',
    covers: ['blocks', 'resumes:23505', 'found:completed:200'],
  },
  {
    name: 'race, naive: both lookups find nothing and both charges reach the ledger',
    query: 'preset=race&seed=1&dedup=naive&store=durable',
    covers: ['found:not-found'],
  },
  {
    name: 'concurrent copy answered 409: the insert does not wait (lock_timeout), 55P03',
    query: 'preset=race&seed=1&dedup=atomic&concurrent=conflict',
    covers: ['55P03'],
  },
  {
    name: 'restart: the API crashes after its claim, the transaction rolls back, and the next copy finds no key',
    query: 'preset=race&seed=1&dedup=atomic&store=durable&crash=api@after-claim&restart_ms=20',
    covers: ['blocks', 'resumes:23505', 'found:not-found'],
  },
  {
    name: 'a failed charge under replay=success: the handler rolls its claim back, and the copy waiting on it gets in',
    query: 'preset=race&seed=1&dedup=atomic&provider_fail=0.5&replay=success',
    covers: ['blocks', 'resumes:ok'],
  },
  {
    name: 'phased handler with a lease: committed in-progress claims, a copy finds one, a takeover',
    query: 'preset=race&seed=1&dedup=atomic&handler=phased&lease_ms=30',
    covers: ['found:in-progress', 'found:completed:200'],
    statements: ['UPDATE idempotency_keys SET locked_us'],
  },
];

let dir;
let asPostgres;

function pgCommand(bin, args) {
  const path = join(PG_BIN, bin);
  const cmd = asPostgres ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  return execFileSync(cmd[0], cmd[1], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'idemlab-pg-'));
  // initdb refuses to run as root: the cluster belongs to the postgres user then.
  asPostgres = process.getuid?.() === 0;
  if (asPostgres) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  pgCommand('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-k ${dir} -c listen_addresses='' -c fsync=off`;
  pgCommand('pg_ctl', ['-D', join(dir, 'data'), '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
});

after(() => {
  if (!dir) return;
  try {
    pgCommand('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function client(database) {
  return new pg.Client({ host: dir, user: 'postgres', database });
}

/** `idemlab run QUERY --sql`, parsed: the schema and one statement per line. */
function listing(query) {
  const text = execFileSync(BIN, ['run', query, '--sql'], { encoding: 'utf8' });
  const [schemaPart, rows] = text.split(/^-- ms\trequest\ttxn\treturns\tstatement$/m);
  const schema = schemaPart.split('\n').filter((l) => l && !l.startsWith('--')).join('\n');
  const statements = rows.split('\n').filter(Boolean).map((line) => {
    const [ms, req, txn, returns, sql] = line.split('\t');
    return { ms, req: Number(req), txn, returns, sql };
  });
  return { schema, statements };
}

/** The ledger rows the trace committed: charge and order of each, sorted. */
function committedLedger(query) {
  const run = JSON.parse(execFileSync(BIN, ['run', query, '--trace'], { encoding: 'utf8', maxBuffer: 1 << 28 }));
  const events = run.trace.events;
  const committed = new Set(events.filter((e) => e.type === 'commit').map((e) => e.txn));
  return events
    .filter((e) => e.type === 'ledger-row' && (e.txn === null || committed.has(e.txn)))
    .map((e) => `${e.number}/${e.order}`)
    .sort();
}

/** Resolves with the query's outcome, never rejects: { rows } or { code }. */
function send(conn, sql) {
  return conn.query(sql).then((r) => ({ rows: Array.isArray(r) ? r.at(-1).rows : r.rows }), (e) => ({ code: e.code ?? String(e) }));
}

function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Whether backend `pid` is waiting on a lock, polled for up to SETTLE_MS. */
async function waitsOnLock(control, pid) {
  const until = Date.now() + SETTLE_MS;
  while (Date.now() < until) {
    const r = await control.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (r.rows[0]?.wait_event_type === 'Lock') return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return false;
}

/** What a lookup's rows say, in the listing's words. */
function found(rows, status) {
  if (rows.length === 0) return 'found:not-found';
  const [row] = rows;
  if (!row.same_body) return 'found:mismatch';
  if (row.state === 'in_progress') return 'found:in-progress';
  return status ? `found:completed:${row.status}` : 'found:completed';
}

async function replay(database, query) {
  const { schema, statements } = listing(query);
  const control = client(database);
  await control.connect();
  await control.query(schema);
  const conns = new Map(); // request → { conn, pid }
  const pending = new Map(); // request → { promise, settled }
  const connection = async (req) => {
    if (!conns.has(req)) {
      const conn = client(database);
      await conn.connect();
      const pid = (await conn.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      conns.set(req, { conn, pid });
    }
    return conns.get(req);
  };
  try {
    for (const [at, s] of statements.entries()) {
      const where = `statement ${at + 1} (${s.ms} ms, request ${s.req}): ${s.sql}`;
      const { conn, pid } = await connection(s.req);
      if (s.returns.startsWith('resumes:')) {
        const waiting = pending.get(s.req);
        assert.ok(waiting, `${where}: resumes, but nothing of this request was blocked`);
        pending.delete(s.req);
        const outcome = await within(waiting.promise, SETTLE_MS, where);
        assert.equal(outcome.code ?? 'ok', s.returns.slice('resumes:'.length), `${where}: the blocked insert`);
        continue;
      }
      if (/^(COMMIT|ROLLBACK)$/.test(s.sql)) {
        // Every insert still blocked must still be waiting when this ends a transaction: the
        // model releases a claim only at a commit or rollback.
        for (const [req, waiting] of pending) {
          assert.ok(!waiting.settled, `${where}: request ${req}'s insert returned before this commit or rollback`);
        }
        if (pending.has(s.req)) {
          // The model ends a blocked request's transaction (its process crashed): the server
          // would see its connection close. Terminate the backend, as a crash does.
          await control.query('SELECT pg_terminate_backend($1)', [pid]);
          await within(pending.get(s.req).promise, SETTLE_MS, where);
          pending.delete(s.req);
          conns.delete(s.req);
          continue;
        }
      }
      const promise = send(conn, s.sql);
      if (s.returns === 'blocks') {
        const waiting = { promise, settled: false };
        promise.then(() => { waiting.settled = true; });
        pending.set(s.req, waiting);
        assert.ok(await waitsOnLock(control, pid), `${where}: expected to wait on the unique index`);
        continue;
      }
      const outcome = await within(promise, SETTLE_MS, where);
      if (s.returns.startsWith('found:')) {
        assert.equal(outcome.code, undefined, `${where}: failed with ${outcome.code}`);
        assert.equal(found(outcome.rows, s.returns.split(':').length > 2), s.returns, where);
      } else {
        assert.equal(outcome.code ?? 'ok', s.returns, where);
      }
    }
    assert.equal(pending.size, 0, 'every blocked insert returned');
    const ledger = await control.query('SELECT charge, order_id FROM ledger');
    const rows = ledger.rows.map((r) => `${r.charge}/${r.order_id}`).sort();
    assert.deepEqual(rows, committedLedger(query), 'the ledger rows at the end');
    return statements;
  } finally {
    for (const { conn } of conns.values()) await conn.end().catch(() => {});
    await control.end();
  }
}

for (const [n, c] of CASES.entries()) {
  test(c.name, async () => {
    const admin = client('postgres');
    await admin.connect();
    await admin.query(`CREATE DATABASE case_${n}`);
    await admin.end();
    const statements = await replay(`case_${n}`, c.query);
    const seen = new Set(statements.map((s) => s.returns));
    for (const outcome of c.covers) {
      assert.ok(seen.has(outcome), `${c.query} no longer has a statement that returns ${outcome}`);
    }
    for (const start of c.statements ?? []) {
      assert.ok(statements.some((s) => s.sql.startsWith(start)), `${c.query} no longer sends ${start}…`);
    }
  });
}
