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
  const events: { name: string; ph: string; dur?: number; tid: number; pid: number; args?: { name?: string } }[] = [];
  session.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as typeof events)));
  const done = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  await session.send('Tracing.end');
  await done;
  fs.mkdirSync('.tmp', { recursive: true });
  fs.writeFileSync('.tmp/app-trace.json', JSON.stringify(events));
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const totals = new Map<string, { ms: number; n: number }>();
  for (const event of events) {
    if (!main || event.tid !== main.tid || event.pid !== main.pid || event.ph !== 'X' || event.dur === undefined) continue;
    const seen = totals.get(event.name) ?? { ms: 0, n: 0 };
    totals.set(event.name, { ms: seen.ms + event.dur / 1000, n: seen.n + 1 });
  }
  process.stdout.write(`main thread of ${route}, 5 s (events nest: totals overlap)\n`);
  for (const [name, { ms, n }] of [...totals].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25)) process.stdout.write(`${(ms / 5).toFixed(1).padStart(8)} ms/s ${String(n).padStart(6)}× ${name}\n`);
} finally {
  await context.close();
  server.kill();
}
