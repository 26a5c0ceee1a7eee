/**
 * The quotation bench of the market-screens issue: at phone size with the CPU throttled
 * 4×, scroll a list of 500 live rows while ticks flow, in the app (rows watch their
 * symbols; ticks paint cells from signals) and in the baseline page (the same list from
 * plain React state, its own socket). Measured in the same run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { buildBenchSite } from './build';
import { defaultFanoutOptions, mainThreadMeter, openTabs, pageProbe, startServer, waitFor, type PageProbeData } from './tick-fanout';

const frameMs = 1000 / 60;

/** Scrolls the list down and back at a steady speed for `ms`, recording every frame's time. */
const scrollScript = (ms: number, pxPerFrame: number) => `
  new Promise((resolve) => {
    const scroller = document.querySelector('.quote-scroller');
    const frames = [];
    let direction = 1;
    const started = performance.now();
    function step(now) {
      frames.push(now);
      const max = scroller.scrollHeight - scroller.clientHeight;
      let next = scroller.scrollTop + direction * ${pxPerFrame};
      if (next >= max || next <= 0) { direction = -direction; next = Math.min(Math.max(next, 0), max); }
      scroller.scrollTop = next;
      if (now - started < ${ms}) requestAnimationFrame(step);
      else resolve({ frames, rows: scroller.querySelectorAll('.quote-row').length, height: scroller.scrollHeight });
    }
    requestAnimationFrame(step);
  })
`;

interface ScrollResult {
  variant: string;
  frames: number;
  droppedFrames: number;
  worstFrameMs: number;
  mainThreadMsPerSecond: number;
  scriptMsPerSecond: number;
  longTasks: number;
  rowUpdatesPerSecond: number;
}

export async function runQuoteScrollBench(options = { ...defaultFanoutOptions, port: 8292, measureMs: 8_000 }): Promise<{ title: string; header: string[]; rows: string[][] }[]> {
  const staticDir = path.resolve('.tmp/bench-dist');
  await buildBenchSite(staticDir);
  const { process: server, origin } = await startServer(options, staticDir);
  const results: ScrollResult[] = [];
  try {
    await waitFor(async () => (await fetch(`${origin}/healthz`)).ok, 30_000, 'the bench server');
    for (const variant of ['worker', 'baseline'] as const) {
      const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scroll-'));
      const context = await chromium.launchPersistentContext(userDataDir, {
        executablePath: '/usr/bin/chromium',
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
      });
      try {
        await context.addInitScript(pageProbe);
        const url = variant === 'worker' ? `${origin}/search?q=LOAD` : `${origin}/bench/browser/baseline.html?q=LOAD`;
        const [page] = await openTabs(context, url, 1, 4);
        if (!page) throw new Error('no page');
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        const meter = await mainThreadMeter(context, page);
        await page.evaluate(() => {
          const bench = (window as unknown as { __bench: PageProbeData }).__bench;
          bench.updates.length = 0;
          bench.longTasks.length = 0;
        });
        const before = await meter.seconds();
        const started = Date.now();
        const scrolled = (await page.evaluate(scrollScript(options.measureMs, 12))) as { frames: number[]; rows: number };
        const seconds = (Date.now() - started) / 1000;
        const after = await meter.seconds();
        const probe = await page.evaluate(() => (window as unknown as { __bench: PageProbeData }).__bench);
        let dropped = 0;
        let worst = 0;
        for (let index = 1; index < scrolled.frames.length; index += 1) {
          const gap = scrolled.frames[index]! - scrolled.frames[index - 1]!;
          worst = Math.max(worst, gap);
          dropped += Math.max(0, Math.round(gap / frameMs) - 1);
        }
        results.push({
          variant: variant === 'worker' ? 'app (SharedWorker, signal-painted rows)' : 'baseline (plain React state, own socket)',
          frames: scrolled.frames.length,
          droppedFrames: dropped,
          worstFrameMs: worst,
          mainThreadMsPerSecond: ((after.task - before.task) * 1000) / seconds,
          scriptMsPerSecond: ((after.script - before.script) * 1000) / seconds,
          longTasks: probe.longTasks.filter((duration) => duration > 50).length,
          rowUpdatesPerSecond: probe.updates.length / 2 / seconds,
        });
      } finally {
        await context.close();
        fs.rmSync(userDataDir, { recursive: true, force: true });
      }
    }
  } finally {
    server.kill('SIGTERM');
  }
  const baseline = results.find((result) => result.variant.startsWith('baseline'));
  return [
    {
      title: `Quotation list scrolled at phone size (390×844), CPU throttled 4×, ${options.symbols} live rows at ${options.ticksPerSecond} ticks/s, ${options.measureMs / 1000} s of scrolling`,
      header: ['variant', 'frames', 'dropped frames', 'worst frame ms', 'main thread ms/s', 'baseline ÷ this', 'of which script ms/s', 'long tasks > 50 ms', 'row updates/s'],
      rows: results.map((result) => [
        result.variant,
        String(result.frames),
        String(result.droppedFrames),
        result.worstFrameMs.toFixed(0),
        result.mainThreadMsPerSecond.toFixed(1),
        baseline && result.mainThreadMsPerSecond > 0 ? `${(baseline.mainThreadMsPerSecond / result.mainThreadMsPerSecond).toFixed(2)}×` : '–',
        result.scriptMsPerSecond.toFixed(1),
        String(result.longTasks),
        result.rowUpdatesPerSecond.toFixed(0),
      ]),
    },
  ];
}
