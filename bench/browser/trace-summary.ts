import type { CDPSession } from '@playwright/test';

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  /** The thread's CPU time in the event (wall time less the time it was not running). */
  tdur?: number;
  tid: number;
  pid: number;
  args?: { name?: string };
}

/** A DevTools trace of a page while `during` runs: its events, for `summarizeMainThread`. */
export async function traceWhile(session: CDPSession, during: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  session.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
  await session.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await during();
  await session.send('Tracing.end');
  await done;
  return events;
}

/** The renderer main thread's complete events summed by name, in ms per second of `seconds` (nested events overlap). */
export function summarizeMainThread(events: readonly TraceEvent[], seconds: number): string[] {
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain');
  const totals = new Map<string, { ms: number; cpuMs: number; n: number }>();
  for (const event of events) {
    if (!main || event.tid !== main.tid || event.pid !== main.pid || event.ph !== 'X' || event.dur === undefined) continue;
    const seen = totals.get(event.name) ?? { ms: 0, cpuMs: 0, n: 0 };
    totals.set(event.name, { ms: seen.ms + event.dur / 1000, cpuMs: seen.cpuMs + (event.tdur ?? 0) / 1000, n: seen.n + 1 });
  }
  return [...totals]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 25)
    .map(([name, { ms, cpuMs, n }]) => `${(ms / seconds).toFixed(1).padStart(8)} ms/s wall ${(cpuMs / seconds).toFixed(1).padStart(7)} ms/s CPU ${String(n).padStart(6)}× ${name}`);
}

/**
 * The CPU time of every renderer main thread in the trace (a trace covers the whole browser:
 * each tab's renderer, however Chromium grouped tabs into processes), in ms per second of
 * `seconds`: the sum of their top-level tasks' thread time. Unlike DevTools' TaskDuration
 * (wall time), it leaves out the time a task waited for a core: on a machine with few cores
 * the page's own worker, the server and the load generator take a main thread off its core
 * in the middle of its tasks.
 */
export function rendererMainCpuMsPerSecond(events: readonly TraceEvent[], seconds: number): number {
  const mains = new Set(events.filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain').map((event) => `${event.pid}:${event.tid}`));
  if (seconds <= 0) return 0;
  let micros = 0;
  for (const event of events) {
    if (event.ph === 'X' && event.name === 'RunTask' && mains.has(`${event.pid}:${event.tid}`)) micros += event.tdur ?? 0;
  }
  return micros / 1000 / seconds;
}
