import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { createTokenService } from '../../server/auth/tokens';
import { createMessageDelivery } from '../../server/messaging/delivery';
import { readSettings } from '../../server/settings';
import { post, scriptedSource, testBackends, useTestDatabase } from './harness';

// A crypto minute in full trade; the server is restarted 5 s later, inside the same minute.
const firstStart = Date.parse('2026-01-17T12:00:30Z');
const secondStart = firstStart + 5_000;

describe.each(testBackends())('market data across a restart on $name', (backend) => {
  const database = useTestDatabase(backend);
  let staticDir = '';
  beforeAll(async () => {
    staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-static-'));
  });
  afterAll(async () => {
    await fs.rm(staticDir, { recursive: true, force: true });
  });

  async function start(nowMs: number, script: ReturnType<typeof scriptedSource>) {
    const settings = readSettings({ LOG_LEVEL: 'silent', STATIC_DIR: staticDir, RISK_CHECK_MS: '3600000' });
    const clock = () => nowMs;
    const tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: settings.accessTokenTtlSeconds, nowMs: clock });
    const delivery = createMessageDelivery({ smtpUrl: null, mailFrom: 'test@tradeweb.example', dataDir: null, nowMs: clock });
    const app = await buildServer({ settings, database: database(), tokens, delivery, logger: false, marketSource: script.source, marketSeed: 1, nowMs: clock });
    await app.ready();
    return app;
  }

  it('quotes and publishes the live prices of a server restarted inside the minute it stored, not its stored bar until the minute ends', { timeout: 120_000 }, async () => {
    const before = scriptedSource();
    const first = await start(firstStart, before);
    before.push([{ symbol: 'BTCUSDT', timeMs: firstStart + 100, bid: 6_700_000, ask: 6_700_020, volume: 1 }]);
    first.market.flush();
    // Closing stores the forming minute (12:00).
    await first.close();

    const after = scriptedSource();
    const second = await start(secondStart, after);
    try {
      const published: string[] = [];
      const stop = second.topicBus.subscribe('/topic/price/BTCUSDT', (body) => published.push(body));
      after.push([{ symbol: 'BTCUSDT', timeMs: secondStart + 100, bid: 6_701_000, ask: 6_701_020, volume: 1 }]);
      second.market.flush();
      stop();
      expect(published.map((body) => (JSON.parse(body) as { bidPrice: string }).bidPrice)).toEqual(['67010.00']);
      const thumb = (await post(second, '/market/thumb/BTCUSDT')).json().data as { bidPrice: string; askPrice: string; lastUpdate: number };
      expect(thumb).toMatchObject({ bidPrice: '67010.00', askPrice: '67010.20', lastUpdate: secondStart + 100 });
    } finally {
      await second.close();
    }
  });
});
