// A small WebDriver (classic, HTTP) client: enough to drive Firefox through geckodriver, WebKitGTK
// through WebKitWebDriver and Chromium through chromedriver, with nothing fetched from npm.
// Playwright cannot drive the stock Firefox and WebKit builds Debian ships; WebDriver can.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A free loopback port, for a driver to listen on. */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a driver (`command args...`, where `args(port)` gives the arguments) in its own process
 * group and waits until its /status says ready. `output` collects everything it and the
 * browsers it starts print, so a test can read the browser's console lines.
 */
export async function startDriver(command, args) {
  const port = await freePort();
  const child = spawn(command, args(port), { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const driver = { url: `http://127.0.0.1:${port}`, output: [], exited: null };
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (text) => driver.output.push(...text.split('\n').filter(Boolean)));
  }
  child.on('exit', (code, signal) => { driver.exited = signal ?? code; });
  // xvfb-run starts the driver as its child; ending the whole group ends Xvfb and the browser too.
  driver.stop = () => {
    if (driver.exited === null) {
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
    }
  };
  for (let tries = 0; tries < 300; tries += 1) {
    if (driver.exited !== null) {
      throw new Error(`${command} exited (${driver.exited}) before it was ready:\n${driver.output.join('\n')}`);
    }
    try {
      const status = await (await fetch(`${driver.url}/status`)).json();
      if (status.value?.ready) return driver;
    } catch { /* not listening yet */ }
    await sleep(100);
  }
  driver.stop();
  throw new Error(`${command} did not become ready in 30 s:\n${driver.output.join('\n')}`);
}

/** One WebDriver command; throws the driver's own error text when it answers with an error. */
async function command(url, method, body) {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    // A driver that stops answering fails the test instead of hanging the test command.
    signal: AbortSignal.timeout(60_000),
  });
  const reply = await response.json();
  if (!response.ok || reply.value?.error) {
    const { error, message } = reply.value ?? {};
    throw new Error(`WebDriver ${method} ${url}: ${error ?? response.status}: ${message ?? JSON.stringify(reply)}`);
  }
  return reply.value;
}

// The key WebDriver uses for an element reference in scripts' results and in element commands.
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** A browser session on `driver`, asked for with `capabilities` (the alwaysMatch part). */
export async function newSession(driver, capabilities) {
  const created = await command(`${driver.url}/session`, 'POST', { capabilities: { alwaysMatch: capabilities } });
  const base = `${driver.url}/session/${created.sessionId}`;
  const call = (method, path, body) => command(`${base}${path}`, method, body);
  return {
    capabilities: created.capabilities,
    navigate: (url) => call('POST', '/url', { url }),
    url: () => call('GET', '/url'),
    setWindowSize: (width, height) => call('POST', '/window/rect', { width, height }),
    /** Runs `script` (a function body) in the page with `args`; gives its return value. */
    execute: (script, args = []) => call('POST', '/execute/sync', { script, args }),
    /** The first element matching `css`, as a reference for click/sendKeys. */
    find: async (css) => (await call('POST', '/element', { using: 'css selector', value: css }))[ELEMENT],
    click: (element) => call('POST', `/element/${element}/click`, {}),
    sendKeys: (element, text) => call('POST', `/element/${element}/value`, { text }),
    /** A PNG of the viewport. */
    screenshot: async () => Buffer.from(await call('GET', '/screenshot'), 'base64'),
    close: () => call('DELETE', ''),
  };
}

/** Polls `script` in the page until it returns something truthy; throws after `ms`. */
export async function waitFor(session, script, what, ms = 30_000) {
  const start = Date.now();
  for (;;) {
    const value = await session.execute(script);
    if (value) return value;
    if (Date.now() - start > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}
