/**
 * `tsx bench/browser/trace-app.ts [path]`: a DevTools trace of one app tab under the fan-out
 * bench's load (default `/search?q=LOAD` at 1440×900), summed by event: where the main thread's
 * time goes beyond script (style, layout, paint), to compare with the paint floor. Writes the
 * raw trace to .tmp/app-trace.json (open it in DevTools' Performance panel).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buildBenchSite } from './build';
import { summarizeMainThread, traceWhile } from './trace-summary';
import { defaultFanoutOptions, mainThreadMeter, pageProbe, startServer, waitFor } from './tick-fanout';

const route = process.argv[2] ?? '/search?q=LOAD';
const options = { ...defaultFanoutOptions, port: Number(process.env.BENCH_FANOUT_PORT ?? 8461) };
const staticDir = path.resolve('.tmp/bench-dist');
await buildBenchSite(staticDir);
const { process: server, origin } = await startServer(options, staticDir);
const context = await chromium.launchPersistentContext(fs.mkdtempSync(path.join(os.tmpdir(), 'trace-chromium-')), {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  viewport: { width: 1440, height: 900 },
});
try {
  // The bench's own probe, as in its measured rows.
  await context.addInitScript(pageProbe);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${origin}${route}`);
  await waitFor(async () => (await page.locator('.quote-row[data-updated]').count()) > 0, 60_000, 'live rows');
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  const meter = await mainThreadMeter(context, page);
  const before = await meter.seconds();
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const after = await meter.seconds();
  process.stdout.write(`untraced, as the bench counts it: main thread ${((after.task - before.task) * 200).toFixed(1)} ms/s, script ${((after.script - before.script) * 200).toFixed(1)} ms/s\n`);
  const session = await context.newCDPSession(page);
  const tracedBefore = await meter.seconds();
  const events = await traceWhile(session, () => new Promise((resolve) => setTimeout(resolve, 5_000)));
  const tracedAfter = await meter.seconds();
  // Tracing costs the traced page wall time of its own: the same count, while traced.
  process.stdout.write(`traced, the same count: main thread ${((tracedAfter.task - tracedBefore.task) * 200).toFixed(1)} ms/s, script ${((tracedAfter.script - tracedBefore.script) * 200).toFixed(1)} ms/s\n`);
  fs.mkdirSync('.tmp', { recursive: true });
  fs.writeFileSync('.tmp/app-trace.json', JSON.stringify(events));
  process.stdout.write(`main thread of ${route}, 5 s (events nest: totals overlap)\n${summarizeMainThread(events, 5).join('\n')}\n`);
} finally {
  await context.close();
  server.kill();
}
