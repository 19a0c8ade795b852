// The SCORM 1.2 packages (scripts/scorm.py, dist/scorm/idemlab-lesson-X.zip) in an LMS: each
// zip is unzipped beside an LMS page where scorm-again (npm) provides `window.API`, served as an
// LMS might serve it (.wasm as application/octet-stream, no CORS header); the learner walks the
// lesson and takes its mastery check in the SCO, and the test reads the gradebook back from the
// LMS's API: score, status, one interaction per question, the session time, LMSFinish.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { ARTIFACTS, launch, openPage } from './lab.mjs';
import { drawnQuestions, oracle } from './oracle.mjs';

const DIST = resolve(process.env.SCORM_DIST ?? 'dist');
const ROOT = mkdtempSync(join(tmpdir(), 'idemlab-lms-'));
// As a plain host serves them: no application/wasm, so the page's loader must fall back.
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.xml': 'text/xml' };

let browser;
let lms;
let corsLms;

/** An LMS host serving ROOT: `cors` adds Access-Control-Allow-Origin (a sandboxed SCO needs it). */
function host(cors) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://host').pathname);
    const file = join(ROOT, path);
    if (!file.startsWith(ROOT) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const headers = { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' };
    if (cors) headers['Access-Control-Allow-Origin'] = '*';
    response.writeHead(200, headers).end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}
const origin = (server) => `http://127.0.0.1:${server.address().port}`;

before(async () => {
  for (const lesson of ['a', 'b', 'c']) {
    const zip = join(DIST, 'scorm', `idemlab-lesson-${lesson}.zip`);
    assert.ok(existsSync(zip), `${zip}: the page build writes it`);
    execFileSync('python3', ['-m', 'zipfile', '-e', zip, join(ROOT, lesson)]);
  }
  copyFileSync(resolve('node_modules/scorm-again/dist/scorm12.js'), join(ROOT, 'scorm12.js'));
  // The LMS's page: the runtime's API object, a log of every call the SCO makes, the SCO framed.
  writeFileSync(join(ROOT, 'lms.js'), `
window.API = new Scorm12API({ autocommit: false });
window.calls = [];
API.on('LMSInitialize', () => calls.push(['LMSInitialize']));
API.on('LMSSetValue.cmi.*', (key, value) => calls.push(['LMSSetValue', key, value]));
API.on('LMSCommit', () => calls.push(['LMSCommit']));
API.on('LMSFinish', () => calls.push(['LMSFinish']));
window.gradebook = () => JSON.parse(JSON.stringify(API.cmi));
const params = new URLSearchParams(location.search);
const frame = document.createElement('iframe');
if (params.has('sandbox')) frame.setAttribute('sandbox', params.get('sandbox'));
frame.style.width = '1200px';
frame.style.height = '900px';
frame.src = params.get('sco');
document.body.append(frame);
`);
  writeFileSync(join(ROOT, 'lms.html'), '<!doctype html><title>LMS</title><link rel="icon" href="data:,"><script src="scorm12.js"></script><body><script src="lms.js"></script></body>');
  [lms, corsLms] = await Promise.all([host(false), host(true)]);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  lms?.close();
  corsLms?.close();
});

async function openLms(server, lesson, sandbox) {
  const page = await openPage(browser, { viewport: { width: 1300, height: 1000 } });
  const query = new URLSearchParams({ sco: `${lesson}/launch.html`, ...(sandbox ? { sandbox } : {}) });
  await page.goto(`${origin(server)}/lms.html?${query}`);
  const sco = page.frames().find((f) => f.parentFrame() === page.mainFrame());
  await sco.waitForSelector('#lab', { state: 'attached' });
  let lab;
  for (let i = 0; i < 100 && !lab; i += 1) {
    lab = sco.childFrames()[0];
    if (!lab) await new Promise((r) => setTimeout(r, 100));
  }
  await lab.waitForSelector('html[data-state="ready"]', { timeout: 30_000 });
  // Locked to its lesson: the grade is that lesson's, so no other lesson and no control opens.
  const picker = await lab.$$eval('#lesson-picker [data-lesson]', (items) => items.filter((i) => i.checkVisibility()).map((i) => i.dataset.lesson));
  assert.deepEqual(picker, [lesson], 'the SCO offers its own lesson alone');
  assert.equal(await lab.$('#lesson-close:visible, #controls-toggle:visible'), null, 'no way out of the lesson');
  return { page, sco, lab };
}

/** The learner walks the lesson, answering each prediction with its first choice, and opens the
 * mastery check from the last step; returns the check's seed. */
async function walkToCheck(lab) {
  for (let step = 0; step < 40; step += 1) {
    await lab.waitForSelector('#lesson-heading');
    const choice = await lab.$('#lesson-step .predict-choices button:not([aria-disabled="true"])');
    if (choice) {
      await choice.click();
      await lab.waitForFunction(() => document.querySelector('.predict-feedback')?.textContent.trim());
    }
    const check = await lab.$('#lesson-step [data-quiz-start]:visible');
    if (check) {
      await check.click();
      await lab.waitForSelector('#quiz-form, #quiz-start');
      return new URL(lab.url()).searchParams.get('quiz');
    }
    const heading = await lab.textContent('#lesson-heading');
    await lab.click('#lesson-step [data-next]');
    await lab.waitForFunction((h) => document.querySelector('#lesson-heading')?.textContent !== h, heading);
  }
  throw new Error('no step offered the mastery check');
}

/** Answers the open check with the simulator's answers, but question `wrongAt` (1-based). */
async function takeCheck(lab, lesson, seed, wrongAt) {
  // From a lesson's last step the check opens on its first question; a link opens its intro.
  await lab.waitForSelector('#quiz-form, #quiz-start');
  if (await lab.$('#quiz-start')) await lab.click('#quiz-start');
  const questions = drawnQuestions(lesson, seed);
  for (let n = 1; n <= questions.length; n += 1) {
    await lab.waitForSelector(`#quiz-form[data-question="${n}"]`);
    const answer = oracle(questions[n - 1]);
    if (answer.choice !== undefined) {
      const choice = n === wrongAt ? (answer.choice + 1) % questions[n - 1].choices.length : answer.choice;
      await lab.check(`#quiz-form input[value="${choice}"]`);
    } else {
      await lab.fill('#quiz-number', String(n === wrongAt ? answer.number + 1 : answer.number));
    }
    await lab.click('#quiz-check');
    await lab.waitForSelector('#quiz-feedback[data-result]');
    await lab.click('#quiz-next');
  }
  await lab.waitForSelector('#quiz-score');
  return questions;
}

function expectedInteractions(lesson, seed, questions, wrongAt) {
  const letter = (i) => String.fromCharCode(97 + i);
  return questions.map((q, i) => {
    const answer = oracle(q);
    const wrong = i + 1 === wrongAt;
    const choice = q.choices.length > 0;
    const right = choice ? letter(answer.choice) : String(answer.number);
    const given = choice ? letter(wrong ? (answer.choice + 1) % q.choices.length : answer.choice) : String(wrong ? answer.number + 1 : answer.number);
    return { id: `${lesson}-${seed}-${q.kind}`, type: choice ? 'choice' : 'numeric', student_response: given, pattern: right, result: wrong ? 'wrong' : 'correct' };
  });
}

// The gradebook's interactions, as the LMS keeps them (scorm-again's JSON: objects keyed by index).
const interactions = (book) => Object.values(book.interactions).map((i) => ({
  id: i.id, type: i.type, student_response: i.student_response, pattern: i.correct_responses['0']?.pattern, result: i.result,
}));

async function closeSco(page) {
  await page.evaluate(() => document.querySelector('iframe').remove());
  await page.waitForFunction(() => window.calls.some((c) => c[0] === 'LMSFinish'));
  return page.evaluate(() => window.calls);
}

test('Lesson A\'s package: the check all right is passed at 100, with an interaction per question, and the SCO finishes', async () => {
  const { page, sco, lab } = await openLms(lms, 'a');
  assert.match(await sco.textContent('#lms-status'), /gradebook/);
  assert.equal(await page.evaluate(() => window.gradebook().core.lesson_status), 'incomplete');
  const seed = await walkToCheck(lab);
  assert.equal(await page.evaluate(() => window.gradebook().core.lesson_status), 'incomplete', 'until the check ends');
  const questions = await takeCheck(lab, 'a', seed);
  await page.waitForFunction(() => window.gradebook().core.lesson_status === 'passed');
  const book = await page.evaluate(() => window.gradebook());
  assert.deepEqual([book.core.score.raw, book.core.score.min, book.core.score.max], ['100', '0', '100']);
  assert.deepEqual(interactions(book), expectedInteractions('a', seed, questions));
  await page.screenshot({ path: `${ARTIFACTS}/scorm-lesson-a.png` });
  const calls = await closeSco(page);
  assert.equal(calls[0][0], 'LMSInitialize');
  const time = calls.find((c) => c[1] === 'cmi.core.session_time');
  assert.match(time?.[2] ?? '', /^\d{4}:\d{2}:\d{2}\.\d{2}$/);
  assert.deepEqual(calls.slice(-2).map((c) => c[0]), ['LMSCommit', 'LMSFinish']);
  page.assertClean();
  await page.close();
});

test('Lesson B\'s package: a check with one wrong is failed at 75; a new variant all right passes, and both attempts\' questions are interactions', async () => {
  const { page, lab } = await openLms(lms, 'b');
  const seed = await walkToCheck(lab);
  const first = await takeCheck(lab, 'b', seed, 2);
  await page.waitForFunction(() => window.gradebook().core.lesson_status === 'failed');
  assert.equal(await page.evaluate(() => window.gradebook().core.score.raw), '75');
  await lab.click('#quiz-new');
  await lab.waitForFunction((old) => new URL(location.href).searchParams.get('quiz') !== old, seed);
  const retake = new URL(lab.url()).searchParams.get('quiz');
  const second = await takeCheck(lab, 'b', retake);
  await page.waitForFunction(() => window.gradebook().core.lesson_status === 'passed');
  const book = await page.evaluate(() => window.gradebook());
  assert.equal(book.core.score.raw, '100');
  assert.deepEqual(interactions(book), [...expectedInteractions('b', seed, first, 2), ...expectedInteractions('b', retake, second)]);
  await closeSco(page);
  page.assertClean();
  await page.close();
});

test('Lesson C\'s package: passed, from a host that serves .wasm as application/octet-stream', async () => {
  const { page, lab } = await openLms(lms, 'c');
  const seed = await walkToCheck(lab);
  await takeCheck(lab, 'c', seed);
  await page.waitForFunction(() => window.gradebook().core.lesson_status === 'passed');
  assert.equal(await page.evaluate(() => window.gradebook().core.score.raw), '100');
  await closeSco(page);
  page.assertClean();
  await page.close();
});

test('a SCO framed with allow-scripts alone cannot reach the API: the lab still runs its check without storage, and the adapter says results are not recorded', async () => {
  const { page, sco, lab } = await openLms(corsLms, 'a', 'allow-scripts');
  assert.match(await sco.textContent('#lms-status'), /No LMS was found/);
  const seed = await walkToCheck(lab);
  await takeCheck(lab, 'a', seed);
  assert.equal(await lab.getAttribute('#quiz-score', 'data-mastered'), 'true');
  assert.deepEqual(await page.evaluate(() => window.calls), []);
  page.assertClean();
  await page.close();
});
