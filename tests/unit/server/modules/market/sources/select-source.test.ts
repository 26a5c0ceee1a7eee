import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { instruments } from '../../../../../../server/modules/market/catalogue';
import { selectMarketSource } from '../../../../../../server/modules/market/sources/select-source';
import { readSettings } from '../../../../../../server/settings';

const log = pino({ level: 'silent' });

async function sourceFor(environment: Record<string, string>) {
  const settings = readSettings(environment);
  return selectMarketSource({ settings, instruments, resumeAt: new Map(), log });
}

describe('market source selection', () => {
  it('uses the simulator by default and nothing with MARKET_SOURCE=none', async () => {
    expect((await sourceFor({}))?.name).toBe('simulator');
    expect(await sourceFor({ MARKET_SOURCE: 'none' })).toBeNull();
  });

  it('replays a CSV recording', async () => {
    const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-csv-'));
    const file = path.join(directory, 'ticks.csv');
    await fs.writeFile(file, 'time,symbol,bid,ask,volume\n2026-01-12T10:00:00Z,EURUSD,1.08512,1.08524,3\n');
    try {
      expect((await sourceFor({ MARKET_SOURCE: 'csv', MARKET_CSV_PATH: file }))?.name).toBe('csv-replay');
    } finally {
      await fs.rm(directory, { recursive: true, force: true });
    }
  });

  it('refuses csv without a file, and a source it does not know', () => {
    expect(() => readSettings({ MARKET_SOURCE: 'csv' })).toThrow(/MARKET_CSV_PATH/);
    expect(() => readSettings({ MARKET_SOURCE: 'bloomberg' })).toThrow(/MARKET_SOURCE/);
  });

  it('takes crypto live from Binance and keeps the rest on the simulator', async () => {
    const source = await sourceFor({ MARKET_SOURCE: 'binance', MARKET_BINANCE_URL: 'ws://127.0.0.1:9/stream' });
    expect(source?.name).toMatch(/^binance.*\+simulator$/);
  });
});
