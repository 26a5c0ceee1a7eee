import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchDefaults } from '../../src/shared/config/switches';
import { openDatabase } from '../../server/db/database';
import { createSiteRepository } from '../../server/modules/site/site-repository';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { loginByEmail, registerByEmail } from './identity-support';

describe.each(testBackends())('foundation API on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { BODY_LIMIT_BYTES: '2048' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers /healthz once ready', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    // One process (SERVER_ROLES=all) holds every role and leads both the market and the jobs.
    expect(response.json()).toEqual({ status: 'ok', database: backend.name, marketConnections: 0, positionsConnections: 0, roles: ['all'], leads: { market: true, jobs: true }, prices: { live: expect.any(Boolean), staleOpenMarkets: expect.any(Number), stale: expect.any(Array) }, ticks: { acceptedFromOlderLease: 0, droppedFromOlderLease: 0 } });
  });

  it("lists every switch: the specification defaults, with the default brand's demo trading and both trade modes on (ready to try)", async () => {
    const readyToTrySwitches = (JSON.parse(await fs.readFile('brands/default/seed.json', 'utf8')) as { switches: Record<string, boolean> }).switches;
    const response = await post(server.app, '/v1/wa-na/system/systemConfig/getAllConfigStatusWeb');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.code).toBe(0);
    const items = Object.fromEntries(body.data.items.map((item: { name: string; enable: boolean }) => [item.name, item.enable]));
    expect(items).toEqual({ ...switchDefaults, ...readyToTrySwitches });
    expect(items.Contract).toBe(true);
    expect(items.OptionMock).toBe(true);
    expect(items.VIRTUAL_CURRENCY_TRADE).toBe(true);
    // The app's fallbacks stay the specification's.
    expect(switchDefaults.Contract).toBe(false);
    expect(items.PHONE_REGISTER).toBe(false);
    expect(items.PHONE_REGISTER_SMS_VERIFICATION).toBe(true);
  });

  it('lists the shipped banners in order', async () => {
    const body = (await post(server.app, '/v1/wa-na/appBanner/list', {})).json();
    expect(body).toEqual({
      code: 0,
      msg: 'success',
      data: { rows: ['/banners/banner-1.svg', '/banners/banner-2.svg', '/banners/banner-3.svg'].map((bannerUrl) => ({ bannerUrl })) },
    });
  });

  it('answers the customer-service links', async () => {
    const body = (await post(server.app, '/v1/wa-na/getCustomerLink')).json();
    expect(body.code).toBe(0);
    expect(body.data).toEqual({
      url: '',
      telegram: 'https://t.me/tradeweb_support',
      whatsapp: 'https://wa.me/18005550100',
      email: 'support@tradeweb.example',
      mode: 0,
    });
  });

  it('rejects unknown fields with 1001 in the caller language, naming the field', async () => {
    const response = await post(server.app, '/v1/wa-na/appBanner/list', { page: 1 }, { 'accept-language': 'fr-FR,fr;q=0.9' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.code).toBe(1001);
    expect(body.msg).toMatch(/\(1001\)$/);
    expect(body.msg).not.toContain('Incorrect');
    // Which language the words are in, so the app shows them rather than its generic text for the code.
    expect(response.headers['content-language']).toBe('fr');
    expect(body.data.problems.join()).toContain('page');
  });

  it('answers malformed JSON with 1001 and an oversize body with 413', async () => {
    const malformed = await post(server.app, '/v1/wa-na/getCustomerLink', '{"a":');
    expect(malformed.statusCode).toBe(200);
    expect(malformed.json().code).toBe(1001);
    const oversize = await post(server.app, '/v1/wa-na/getCustomerLink', { padding: 'x'.repeat(4096) });
    expect(oversize.statusCode).toBe(413);
    expect(oversize.json().code).toBe(1001);
  });

  it('answers 401 on a signed-in path without a valid bearer token', async () => {
    const headerSets: Record<string, string>[] = [{}, { authorization: 'Bearer nonsense' }, { authorization: 'Basic abc' }];
    for (const headers of headerSets) {
      const response = await post(server.app, '/v1/waa/user/info', {}, headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 400, data: null });
    }
    const valid = await server.tokens.issueAccessToken({ uid: 1, virtualStatus: 0, aesKey: 'k' });
    // One character of the signature changed where every bit counts (its last character carries
    // two unused bits, so changing the end could leave the signature's bytes as they were).
    const [header, payload, signature = ''] = valid.token.split('.');
    const tampered = `${header}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    expect((await post(server.app, '/v1/waa/user/info', {}, { authorization: `Bearer ${tampered}` })).statusCode).toBe(401);
  });

  it('refuses every spelling of a signed-in path without a token (escapes, double slashes, case), and the plain paths still work', async () => {
    const refused = ['/v1/waa/user/balance', '/v1/waa/user/%62alance', '/v1/waa//user/balance', '/v1//waa/user/balance', '/V1/WAA/user/balance', '/exchange/%61ddOrder', '/%65xchange/addOrder', '/exchange//addOrder'];
    for (const url of refused) {
      const response = await post(server.app, url, {});
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toMatchObject({ code: 400, data: null });
    }
    for (const url of ['/v1/waa/user/checkToken', '/v1/w%61a/user/checkToken', '/v1/waa/user/ch%65ckToken']) {
      const response = await post(server.app, url, {});
      expect(response.statusCode, url).toBe(200);
      expect(response.json().code, url).toBe(-1);
    }
    const email = `spell${Date.now().toString(36)}@example.com`;
    await registerByEmail(server, email);
    const { token } = await loginByEmail(server, email);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await post(server.app, '/v1/waa/user/checkToken', {}, bearer)).json().code).toBe(0);
    expect((await post(server.app, '/v1/waa/user/balance', {}, bearer)).json().code).toBe(0);
    expect((await post(server.app, '/v1/waa/user/%62alance', {}, bearer)).json().code).toBe(0);
  });

  it('refuses a well-signed token whose session the server does not know with 23519', async () => {
    const { token } = await server.tokens.issueAccessToken({ uid: 1, virtualStatus: 0, aesKey: 'k', fid: 'no-such-session' });
    const response = await post(server.app, '/v1/waa/no/such/call', {}, { authorization: `Bearer ${token}` });
    expect(response.statusCode).toBe(200);
    expect(response.json().code).toBe(23519);
  });

  it('answers an unknown API path with 1009 and a page path with the app (or 503 when unbuilt)', async () => {
    const unknown = await post(server.app, '/v1/wa-na/nothing');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe(1009);
    const page = await server.app.inject({ method: 'GET', url: '/position' });
    expect(page.statusCode).toBe(503);
  });
});

describe('embedded database on disk', () => {
  it('keeps its data and migrations across a restart, and a changed switch over the next start seeding', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-data-'));
    try {
      const first = await openDatabase({ kind: 'pglite', dataDir });
      const repository = createSiteRepository(first.db);
      expect(await repository.seedDefaults({ banners: ['/b.svg'], customerLink: '0|[]', brandSwitches: { Contract: true, OptionMock: true } })).toEqual({ firstStart: true });
      // A brand turns option mode off and phone sign-up on after the first start.
      await repository.setSwitch('OptionMock', false);
      await repository.setSwitch('PHONE_REGISTER', true);
      await first.close();

      const second = await openDatabase({ kind: 'pglite', dataDir });
      const secondRepository = createSiteRepository(second.db);
      expect(await secondRepository.seedDefaults({ banners: ['/b.svg'], customerLink: '0|[]', brandSwitches: { Contract: true, OptionMock: true } })).toEqual({ firstStart: false });
      const switches = await secondRepository.listSwitches();
      const enabled = (name: string) => switches.find((row) => row.name === name)?.enabled;
      expect(enabled('OptionMock')).toBe(false);
      expect(enabled('PHONE_REGISTER')).toBe(true);
      expect(enabled('Contract')).toBe(true);
      await second.close();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('SWITCHES setting', () => {
  it('reads NAME=1/0 pairs of known switches and refuses anything else', async () => {
    const { parseSwitchOverrides, readSettings } = await import('../../server/settings');
    expect(parseSwitchOverrides('VIRTUAL_CURRENCY_TRADE=1, PHONE_REGISTER=false')).toEqual({ VIRTUAL_CURRENCY_TRADE: true, PHONE_REGISTER: false });
    expect(parseSwitchOverrides('')).toEqual({});
    expect(parseSwitchOverrides('NOPE=1')).toBeNull();
    expect(parseSwitchOverrides('PHONE_REGISTER=yes')).toBeNull();
    expect(() => readSettings({ SWITCHES: 'NOPE=1' })).toThrow(/SWITCHES/);
  });

  it('applies them at start', async () => {
    const [pglite] = testBackends();
    const server = await startTestServer(pglite!, { SWITCHES: 'VIRTUAL_CURRENCY_TRADE=0,PHONE_REGISTER=1' });
    try {
      const items = (await post(server.app, '/v1/wa-na/system/systemConfig/getAllConfigStatusWeb', {})).json().data.items as { name: string; enable: boolean }[];
      // Over the seeded values, in both directions.
      expect(items.find((item) => item.name === 'VIRTUAL_CURRENCY_TRADE')?.enable).toBe(false);
      expect(items.find((item) => item.name === 'PHONE_REGISTER')?.enable).toBe(true);
    } finally {
      await server.close();
    }
  });
});
