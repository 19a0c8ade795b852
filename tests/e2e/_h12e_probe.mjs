import { launch, openPage, watchLongTasks, BASE_URL } from './lab.mjs';
const browser = await launch();
for (let i = 0; i < 2; i++) {
  const page = await openPage(browser);
  await watchLongTasks(page);
  await page.addInitScript(() => { window.__tasks = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__tasks.push(Math.round(e.duration)); }).observe({ type: 'longtask' }); });
  await page.goto(`${BASE_URL}?orders=5000&clients=16&timeout_ms=1&backoff_ms=0&retries=20&latency_ms=0..5&events_max=300000&tab=sweep`);
  await page.waitForSelector('html[data-state="ready"]', { timeout: 60_000 });
  await page.fill('#sweep-seeds', '1');
  await page.waitForTimeout(300);
  await page.evaluate(() => { window.__tasks = []; });
  const t0 = Date.now();
  await page.click('#contracts-run');
  await page.waitForSelector('#table-contracts:not([aria-busy]):not([hidden])', { timeout: 120_000 });
  await page.waitForTimeout(300);
  console.log(Date.now() - t0, 'ms total; long tasks:', JSON.stringify(await page.evaluate(() => window.__tasks)));
  await page.close();
}
await browser.close();
