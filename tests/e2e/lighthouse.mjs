// Lighthouse 12.2.3 (tools/lighthouse, installed by bench.sh) on the first-paint benchmark's links:
// its mobile profile (simulated Slow 4G, the CPU 4x slower) against the shipped build served
// precompressed, driving the Chromium the tests use. Prints its performance score, LCP, TBT
// and CLS per link, beside firstpaint.mjs's own; it never fails. README records the figures.
//   PAGE_URL  the shipped build (dist/), served with its precompressed copies
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LINKS } from './firstpaint.mjs';

const PAGE_URL = process.env.PAGE_URL ?? 'http://127.0.0.1:8080/';
const LIGHTHOUSE = 'tools/lighthouse/node_modules/.bin/lighthouse';
const dir = mkdtempSync(join(tmpdir(), 'idemlab-lighthouse-'));

console.log('| link | Lighthouse score | LCP | TBT | CLS |');
console.log('|---|---|---|---|---|');
for (const [label, query] of Object.entries(LINKS)) {
  const out = join(dir, `${label.replace(/\W+/g, '-')}.json`);
  execFileSync(LIGHTHOUSE, [`${PAGE_URL}?${query}`, '--quiet', '--only-categories=performance', '--output=json',
    `--output-path=${out}`, '--chrome-flags=--headless --no-sandbox --disable-gpu --disable-dev-shm-usage'],
  { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' }, stdio: 'inherit' });
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const audit = (id) => report.audits[id].numericValue;
  console.log(`| ${label} \`${query || '(none)'}\` | ${Math.round(report.categories.performance.score * 100)} | ${(audit('largest-contentful-paint') / 1000).toFixed(2)} s | ${Math.round(audit('total-blocking-time'))} ms | ${audit('cumulative-layout-shift').toFixed(3)} |`);
}
console.log(`\nLighthouse ${JSON.parse(readFileSync(join(LIGHTHOUSE, '../../lighthouse/package.json'), 'utf8')).version}, mobile profile, one run per link (its LCP is simulated from the load's requests, not observed).`);
