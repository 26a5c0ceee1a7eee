/**
 * `npm run bench`: every benchmark, each reporting ratios against a baseline measured in
 * the same run, as markdown tables (also written to bench/results/latest.md).
 * BENCH_ONLY=option-settlement,order-throughput runs only the parts named (uploads: another customer's latency during uploads).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { runWorkerIngestBench } from './worker-ingest';
import { runWorkerIngestBrowserBench } from './browser/worker-ingest-browser';
import { runTriggerIndexBench } from './trigger-index';
import { runOrderThroughputBench } from './order-throughput';
import { runOptionSettlementBench } from './option-settlement';
import { runQuoteScrollBench } from './browser/quote-scroll';
import { fanoutOptionsFromEnv, runTickFanoutBench } from './browser/tick-fanout';
import { runSocketBytesBench } from './socket-bytes';
import { runFanoutCapacityBench } from './fanout-capacity';
import { runBundleBench } from './bundle/bundle-bench';
import { runFirstVisitBench } from './browser/first-visit';
import { runUploadsLatencyBench } from './uploads-latency';
import { buildServer } from '../server/app';
import { createTokenService } from '../server/auth/tokens';
import { openDatabase } from '../server/db/database';
import { readSettings } from '../server/settings';

const warmupRequests = 200;
const trialRequests = 2000;
const trials = 5;

interface BenchResult {
  title: string;
  rows: (readonly string[])[];
}

function table(result: BenchResult, header: readonly string[]): string {
  return [`### ${result.title}`, '', `| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...result.rows.map((row) => `| ${row.join(' | ')} |`), ''].join('\n');
}

async function apiRequestBench(): Promise<BenchResult> {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  const tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: 900 });
  const app = await buildServer({ settings: readSettings({ LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent' }), database, tokens, logger: false, marketSource: null });
  await app.ready();

  const baseline = () => app.inject({ method: 'GET', url: '/healthz' });
  const configCall = () =>
    app.inject({ method: 'POST', url: '/v1/wa-na/system/systemConfig/getAllConfigStatusWeb', headers: { 'content-type': 'application/json' }, payload: '{}' });

  async function rate(request: () => Promise<unknown>): Promise<number> {
    for (let index = 0; index < warmupRequests; index += 1) await request();
    const rates: number[] = [];
    for (let trial = 0; trial < trials; trial += 1) {
      const start = process.hrtime.bigint();
      for (let index = 0; index < trialRequests; index += 1) await request();
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      rates.push(trialRequests / seconds);
    }
    rates.sort((a, b) => a - b);
    return rates[Math.floor(rates.length / 2)] ?? 0;
  }

  const baselineRate = await rate(baseline);
  const configRate = await rate(configCall);
  await app.close();
  await database.close();
  return {
    title: `API request path in-process on PGlite, ${trialRequests} requests, median of ${trials}`,
    rows: [
      ['GET /healthz (baseline)', `${configRate ? baselineRate.toFixed(0) : 0} req/s`, '1.00×'],
      ['POST getAllConfigStatusWeb (envelope, validation, database read)', `${configRate.toFixed(0)} req/s`, `${(baselineRate / configRate).toFixed(2)}×`],
    ],
  };
}

async function main() {
  const parts: { name: string; run: () => Promise<string[]> }[] = [
    { name: 'bundle', run: async () => (await runBundleBench()).map((section) => table(section, section.header)) },
    {
      name: 'worker-ingest',
      // The Chromium half needs Debian's Chromium too (BENCH_BROWSER=0 leaves it out).
      run: async () =>
        [...(await runWorkerIngestBench()), ...(process.env.BENCH_BROWSER !== '0' ? await runWorkerIngestBrowserBench() : [])].map((section) => table(section, section.header)),
    },
    { name: 'api-request', run: async () => [table(await apiRequestBench(), ['request', 'throughput', 'cost vs baseline'])] },
    { name: 'trigger-index', run: async () => [table(runTriggerIndexBench(), ['path', 'throughput', 'vs baseline'])] },
    { name: 'order-throughput', run: async () => (await runOrderThroughputBench()).map((section) => table(section, section.header)) },
    {
      name: 'option-settlement',
      run: async () => [table(await runOptionSettlementBench(), ['path', 'settlement run', 'close of the second → last settlement', 'settlements/s', 'vs baseline'])],
    },
  ];
  parts.push({ name: 'uploads', run: async () => (await runUploadsLatencyBench()).map((section) => table(section, section.header)) });
  // Child processes: a server with and one without compression, a load generator, RabbitMQ when configured.
  parts.push({ name: 'fanout-capacity', run: async () => (await runFanoutCapacityBench()).map((section) => table(section, section.header)) });
  // The browser benches need Debian's Chromium; BENCH_BROWSER=0 skips them.
  if (process.env.BENCH_BROWSER !== '0') {
    // FIRST_VISIT_BASELINE=<another checkout> measures it too, as "before".
    parts.push({ name: 'first-visit', run: async () => (await runFirstVisitBench()).map((section) => table(section, section.header)) });
    parts.push({ name: 'socket-bytes', run: async () => (await runSocketBytesBench()).map((section) => table(section, section.header)) });
    parts.push({
      name: 'browser',
      run: async () => [...(await runTickFanoutBench(fanoutOptionsFromEnv())), ...(await runQuoteScrollBench())].map((section) => table(section, section.header)),
    });
  }
  const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()).filter(Boolean);
  const sections: string[] = [];
  for (const part of parts) if (!only || only.includes(part.name)) sections.push(...(await part.run()));
  const report = [`## Bench ${new Date().toISOString()} (node ${process.version})`, '', ...sections].join('\n');
  process.stdout.write(`${report}\n`);
  fs.mkdirSync('bench/results', { recursive: true });
  fs.writeFileSync('bench/results/latest.md', `${report}\n`);
}

void main();
