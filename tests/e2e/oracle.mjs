// The mastery check's answers as the native simulator gives them (`idemlab quiz` draws the
// questions with their scenarios, `idemlab run` counts), never read from the page: shared by
// quiz.test.mjs, embed.test.mjs and pace.test.mjs.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

const IDEMLAB_BIN = process.env.IDEMLAB_BIN ?? 'target/release/idemlab';

/** `idemlab run --trace QUERY`: the native simulator's counts, with every event. */
export function simulate(query) {
  return JSON.parse(execFileSync(IDEMLAB_BIN, ['run', '--trace', query], { encoding: 'utf8', maxBuffer: 1 << 26 }));
}

/** QUERY with a choice's KEYS set over it, as the page's compare= does: a key already in the
 * query takes the choice's value (the codec refuses a key given twice). */
export function withKeys(query, keys) {
  const split = (pair) => { const at = pair.indexOf('='); return [pair.slice(0, at), pair.slice(at + 1)]; };
  const pairs = query.split('&').filter(Boolean).map(split);
  for (const [key, value] of keys.split('&').filter(Boolean).map(split)) {
    const known = pairs.find(([name]) => name === key);
    if (known) known[1] = value;
    else pairs.push([key, value]);
  }
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

/** `idemlab quiz LESSON SEED`: the check's questions as the core draws them, with each one's
 * scenario, which the page keeps out of its markup and URL until the answer is locked. */
const drawn = new Map();
export function drawnQuestions(lesson, seed) {
  const key = `${lesson}/${seed}`;
  if (!drawn.has(key)) drawn.set(key, JSON.parse(execFileSync(IDEMLAB_BIN, ['quiz', lesson, seed], { encoding: 'utf8' })));
  return drawn.get(key);
}

/** The answer to `q`, worked out by the native simulator from the question's scenario. */
export function oracle(q) {
  if (q.choices.length > 0) {
    // Every "which change" question asks for the one choice that ends with 0 duplicates and 0
    // lost; Lesson C's lease question also for every order answered ok.
    const finish = q.kind === 'lease-length';
    const safe = q.choices
      .map((keys, index) => [index, simulate(withKeys(q.query, keys))])
      .filter(([, run]) => run.duplicates === 0 && run.lost === 0 && (!finish || run.outcomes.ok === run.orders))
      .map(([index]) => index);
    assert.equal(safe.length, 1, `${q.kind} (${q.query}): exactly one safe choice, got ${safe}`);
    return { kind: q.kind, choice: safe[0] };
  }
  const run = simulate(q.query);
  if (q.kind === 'charges-for-order' || q.kind === 'charges-after-crash') {
    // The payment service's own charges of that order; a replayed answer is not a charge.
    const charges = run.trace.events.filter((e) => e.type === 'charge' && !e.replay && e.order === q.order);
    return { kind: q.kind, number: charges.length };
  }
  if (q.kind === 'calls-after-500') {
    // The API's charge calls for that order, whatever the payment service answered.
    const calls = run.trace.events.filter((e) => e.type === 'send' && e.payload?.kind === 'charge' && e.order === q.order);
    return { kind: q.kind, number: calls.length };
  }
  const metric = { 'duplicates-after-reconcile': 'duplicates', 'duplicates-after-expiry': 'duplicates', 'lost-with-one-key': 'lost', 'receipts-without-inbox': 'receipts' }[q.kind];
  assert.ok(metric, `a number question of unknown kind ${q.kind}`);
  return { kind: q.kind, number: run[metric] };
}

const param = (page, key) => new URL(page.url()).searchParams.get(key);

/** The question on screen: its kind, order and choices as the form shows them, which must be
 * the CLI's draw for the link's lesson and quiz seed, and the scenario from that draw. */
export async function question(page) {
  const form = await page.$eval('#quiz-form', (form) => ({
    n: Number(form.dataset.question),
    kind: form.dataset.kind,
    order: form.dataset.order === undefined ? undefined : Number(form.dataset.order),
    choices: [...form.querySelectorAll('label[data-keys]')].map((label) => label.dataset.keys),
  }));
  const q = drawnQuestions(param(page, 'lesson'), param(page, 'quiz'))[form.n - 1];
  assert.deepEqual([form.kind, form.order, form.choices], [q.kind, q.order, q.choices], `question ${form.n}`);
  return { kind: form.kind, order: form.order, choices: form.choices, query: q.query };
}

/** Locks `answer` (a choice's index, or a number) into the open question. */
export async function give(page, answer) {
  if (answer.choice !== undefined) await page.check(`#quiz-form input[value="${answer.choice}"]`);
  else await page.fill('#quiz-number', String(answer.number));
  await page.click('#quiz-check');
  await page.waitForSelector('#quiz-feedback[data-result]');
}
