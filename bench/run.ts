/**
 * `npm run bench`: measures what exists so far and reports ratios against a baseline
 * measured in the same run. Today: the full API request path (envelope, validation,
 * database read) against the bare health check, both in-process on embedded PGlite.
 */
import crypto from 'node:crypto';
import { buildServer } from '../server/app';
import { createTokenService } from '../server/auth/tokens';
import { openDatabase } from '../server/db/database';
import { readSettings } from '../server/settings';

const warmupRequests = 200;
const trialRequests = 2000;
const trials = 5;

async function main() {
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
  const rows = [
    ['GET /healthz (baseline)', baselineRate, 1],
    ['POST getAllConfigStatusWeb', configRate, baselineRate / configRate],
  ] as const;
  process.stdout.write('| request | requests/s (median of 5) | cost vs baseline |\n|---|---|---|\n');
  for (const [name, perSecond, ratio] of rows) {
    process.stdout.write(`| ${name} | ${perSecond.toFixed(0)} | ${ratio.toFixed(2)}× |\n`);
  }
  await app.close();
  await database.close();
}

void main();
