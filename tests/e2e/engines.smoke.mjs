// The page in one more engine, through WebDriver: for a handful of links it mounts, shows the
// counts `idemlab run` gives on the same URL, draws its timeline, answers a click, and raises no
// error; a screenshot of each goes to test-results/engines-ENGINE-LINK.png.
// scripts/test.sh runs it once per engine (the `engines-*` checks), with:
//   ENGINE        chromium, firefox or webkit
//   BASE_URL, IDEMLAB_BIN  as for the Playwright tests (see lab.mjs)
//   CHROMEDRIVER + CHROMIUM_PATH, GECKODRIVER + FIREFOX_PATH, or WEBKIT_DRIVER + MINIBROWSER_PATH
// A missing engine fails here: test.sh checks for it first and skips with a line naming it.
// Errors: a listener installed once the page is ready catches page errors, rejections, CSP
// violations and console errors from then on (the clicks come after it). Before that, a page
// that fails to start never becomes ready; Firefox also prints the page's console errors, and
// those lines count from the moment of navigation.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { ARTIFACTS, BASE_URL, METRICS, cliCounts, compareUrl } from './lab.mjs';
import { newSession, startDriver, waitFor } from './webdriver.mjs';

// The same flags as webdriver.json and lab.mjs.
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];

// Each engine: its driver's command line, the capabilities to ask for, and which of the
// browser's own output lines are the page's console errors (`consoleError`; an engine without one relies on the listener alone).
const ENGINES = {
  chromium: {
    binaries: ['CHROMEDRIVER', 'CHROMIUM_PATH'],
    driver: (env) => [env.CHROMEDRIVER, (port) => [`--port=${port}`]],
    capabilities: (env) => ({
      browserName: 'chrome',
      'goog:chromeOptions': { binary: env.CHROMIUM_PATH, args: CHROMIUM_ARGS },
    }),
  },
  firefox: {
    binaries: ['GECKODRIVER', 'FIREFOX_PATH'],
    driver: (env) => [env.GECKODRIVER, (port) => ['--port', String(port)]],
    capabilities: (env) => ({
      browserName: 'firefox',
      'moz:firefoxOptions': {
        binary: env.FIREFOX_PATH,
        args: ['-headless'],
        // Writes the page's console to the browser's stdout, which the driver passes on: errors
        // logged before a test can install its listener (while loading) show up there.
        prefs: { 'devtools.console.stdout.content': true },
      },
    }),
    // The page's console.error("...") prints as `console.error: "..."`, an uncaught error in its
    // scripts as `JavaScript error: http://...`; Firefox's own modules print other lines.
    consoleError: /^console\.error: "|^JavaScript error: http/,
  },
  webkit: {
    binaries: ['WEBKIT_DRIVER', 'MINIBROWSER_PATH'],
    // WebKitGTK has no headless mode: it draws into Xvfb, whose screen must fit the window.
    driver: (env) => ['xvfb-run', (port) => ['-a', '-s', '-screen 0 1600x1200x24', env.WEBKIT_DRIVER, `--port=${port}`]],
    capabilities: (env) => ({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: env.MINIBROWSER_PATH,
        args: ['--automation'],
      },
    }),
  },
};

const ENGINE = process.env.ENGINE ?? '';
const engine = ENGINES[ENGINE];

// Installed first on every page (WebDriver scripts run whatever the page's CSP says): records
// every error the page raises from then on, and console.error calls, for `problems` to read.
const LISTEN = `
  if (window.idemlabProblems) return;
  const problems = window.idemlabProblems = [];
  addEventListener('error', (e) => problems.push('page error: ' + e.message));
  addEventListener('unhandledrejection', (e) => problems.push('unhandled rejection: ' + e.reason));
  document.addEventListener('securitypolicyviolation', (e) => problems.push('CSP blocked ' + e.blockedURI + ' (' + e.violatedDirective + ')'));
  const error = console.error;
  console.error = (...args) => { problems.push('console error: ' + args.join(' ')); error.apply(console, args); };
`;

const COUNTERS = `
  return Object.fromEntries([...document.querySelectorAll('#counters-' + arguments[0] + ' [data-metric]')]
    .map((element) => [element.dataset.metric, Number(element.textContent)]));
`;

// How many pixels of the run's canvas differ from its top-left corner's (the background): a
// timeline that failed to draw (or drew only the background) has none.
const DRAWN_PIXELS = `
  const canvas = document.getElementById('canvas-' + arguments[0]);
  if (!canvas || canvas.width === 0 || canvas.height === 0) return 0;
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let drawn = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) drawn += 1;
  }
  return drawn;
`;

let driver;
let session;

before(async () => {
  assert.ok(engine, `ENGINE must be one of ${Object.keys(ENGINES).join(', ')}, not '${ENGINE}'`);
  for (const name of engine.binaries) {
    assert.ok(process.env[name] && existsSync(process.env[name]), `${ENGINE} is missing: ${name}=${process.env[name] ?? ''} is not a file`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const [command, args] = engine.driver(process.env);
  driver = await startDriver(command, args);
  session = await newSession(driver, engine.capabilities(process.env));
  await session.setWindowSize(1400, 900);
  const { browserName, browserVersion } = session.capabilities;
  console.log(`# ${ENGINE}: ${browserName} ${browserVersion}`);
});

after(async () => {
  await session?.close().catch(() => {});
  driver?.stop();
});

/** Opens the lab at `query`, waits until it has mounted and starts listening for errors. */
async function openLab(query) {
  await session.navigate(`${BASE_URL}?${query}`);
  await waitFor(session, 'return document.documentElement.dataset.state === "ready";', `${query} to mount`);
  await session.execute(LISTEN);
}

/** Fails with every error the page raised since `openLab`, and every console error the
 * browser printed since `since` (an index into the driver's output). */
async function assertClean(query, since) {
  const problems = await session.execute('return window.idemlabProblems;');
  const printed = engine.consoleError ? driver.output.slice(since).filter((line) => engine.consoleError.test(line)) : [];
  assert.deepEqual([...problems, ...printed], [], `${ENGINE}, ${query}: errors`);
}


/** Run `side`'s counters equal those of `idemlab run cliUrl`, and its timeline is drawn. */
async function assertCounts(query, side, cliUrl) {
  const shown = await session.execute(COUNTERS, [side]);
  const cli = cliCounts(cliUrl);
  const pick = (counts) => Object.fromEntries(METRICS.map((name) => [name, counts[name]]));
  assert.deepEqual(pick(shown), pick(cli), `${ENGINE}, ${query}: run ${side} against idemlab run ${cliUrl}`);
  const drawn = await session.execute(DRAWN_PIXELS, [side]);
  assert.ok(drawn > 1000, `${ENGINE}, ${query}: run ${side}'s timeline has only ${drawn} drawn pixels`);
  return shown;
}

/** Clicks `id` and waits until `script` (about the page after the click) holds. */
async function clickAndWait(id, script, what) {
  await session.click(await session.find(`#${id}`));
  await waitFor(session, script, what, 10_000);
}

// A click each, chosen to touch what differs between engines: a modal <dialog>, the clipboard,
// a <select>, and the playback the counters follow.
const ACTIONS = {
  zoomIn: () => clickAndWait('zoom-in', 'return new URL(location.href).searchParams.has("zoom");', 'the zoom to reach the URL'),
  toStart: () => clickAndWait('to-start', 'return document.querySelector(\'#counters-a [data-metric="effects"]\').textContent === "0";', 'the counters to follow the cursor to the start'),
  embedDialog: async () => {
    await clickAndWait('embed-open', 'return document.getElementById("embed-dialog").open && document.getElementById("embed-snippet").value.includes("<iframe");', 'the embed dialog');
    await clickAndWait('embed-close', 'return !document.getElementById("embed-dialog").open;', 'the embed dialog to close');
  },
  // "Copied" once the write resolved, or (a driver without clipboard permission) "Not copied" with the link in its field.
  copyLink: () => clickAndWait('copy-link', 'var b = document.getElementById("copy-link").textContent, f = document.getElementById("copy-field"); return b === "Copied" ? f.hidden : b === "Not copied" && !f.hidden && f.value.includes("seed=");', 'the copy button to say what happened'),
  dedupAtomic: () => clickAndWait('key-dedup option[value="atomic"]', 'return document.querySelector(\'#counters-a [data-metric="duplicates"]\').textContent === "0";', 'dedup=atomic to drop the duplicates to 0'),
};

const LINKS = [
  { name: 'race', query: 'seed=4&preset=race', actions: ['zoomIn', 'copyLink'] },
  { name: 'lesson', query: 'lesson=a&step=4&gate=0', actions: ['toStart'] },
  { name: 'compare', query: 'seed=3&preset=race&compare=dedup%3Datomic', actions: ['embedDialog'] },
  { name: 'embed', query: 'seed=7&preset=lost-ack&embed=1&controls=dedup', actions: ['dedupAtomic'] },
  { name: 'queue', query: 'seed=5&preset=lost-ack&consumer=plain&ack_loss=0.4&deliveries_max=2', actions: ['toStart'] },
];

for (const { name, query, actions } of LINKS) {
  test(`${ENGINE || 'no engine'}: ${query} mounts, shows the counts of idemlab run and raises no error`, async () => {
    const since = driver.output.length;
    await openLab(query);
    // The page's own URL: a lesson step writes its scenario into it.
    const url = await session.url();
    const shown = await assertCounts(query, 'a', url);
    if (new URL(url).searchParams.has('compare')) await assertCounts(query, 'b', compareUrl(url));
    console.log(`# ${ENGINE} ${query}: duplicates ${shown.duplicates}, races ${shown.races}, effects ${shown.effects}`);
    writeFileSync(`${ARTIFACTS}/engines-${ENGINE}-${name}.png`, await session.screenshot());
    for (const action of actions) await ACTIONS[action]();
    await assertClean(query, since);
  });
}

test(`${ENGINE || 'no engine'}: the error listeners catch an error, a rejection and a console error`, async () => {
  // Without this, an engine where the listeners or the console lines never fire would pass.
  // What WebDriver's own scripts throw is muted or sandboxed (Chromium and WebKit report a bare
  // "Script error.", Firefox nothing, and none an unhandled rejection), so the error and the
  // rejection are dispatched as the events the browser fires; the console error is real.
  const since = driver.output.length;
  await openLab('seed=4&preset=race');
  await session.execute(`
    dispatchEvent(new ErrorEvent('error', { message: 'probe thrown' }));
    const promise = Promise.reject(new Error('probe rejected'));
    promise.catch(() => {});
    dispatchEvent(new PromiseRejectionEvent('unhandledrejection', { promise, reason: 'probe rejected' }));
    console.error('probe logged');
  `);
  await waitFor(session, 'return window.idemlabProblems.length >= 3;', 'the three probes', 5_000).catch(() => {});
  const problems = await session.execute('return window.idemlabProblems;');
  assert.equal(problems.length, 3, problems.join('\n'));
  for (const probe of ['probe thrown', 'probe rejected', 'probe logged']) {
    assert.ok(problems.some((problem) => problem.includes(probe)), `${probe} not caught: ${problems.join('\n')}`);
  }
  if (engine.consoleError) {
    const printed = () => driver.output.slice(since).filter((line) => engine.consoleError.test(line));
    for (let tries = 0; tries < 50 && !printed().some((line) => line.includes('probe logged')); tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok(printed().some((line) => line.includes('probe logged')), `${ENGINE} did not print the console error:\n${driver.output.slice(since).join('\n')}`);
  }
});
