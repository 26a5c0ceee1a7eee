import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBrand } from '../../server/brand/brand-folder';
import { switchDefaults } from '../../src/shared/config/switches';
import { parseMoney } from '../../src/shared/money/money';
import { post, startTestServer, testBackends, type TestServer } from './harness';
import { createStaffAndSignIn, staffCall } from './support/staff';

/** A copy of a shipped brand folder that a test may break. */
async function copyOfBrand(name: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `tradeweb-brand-${name}-`));
  await fs.cp(path.join('brands', name), dir, { recursive: true });
  return dir;
}

async function editJson(file: string, change: (value: Record<string, unknown>) => void) {
  const value = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
  change(value);
  await fs.writeFile(file, JSON.stringify(value));
}

async function switchesOf(server: TestServer): Promise<Record<string, boolean>> {
  const body = (await post(server.app, '/v1/wa-na/system/systemConfig/getAllConfigStatusWeb')).json() as { data: { items: { name: string; enable: boolean }[] } };
  return Object.fromEntries(body.data.items.map((item) => [item.name, item.enable]));
}

describe('a brand folder refused at start, naming the file and the field', () => {
  const made: string[] = [];
  const broken = async (change: (dir: string) => Promise<void>) => {
    const dir = await copyOfBrand('example');
    made.push(dir);
    await change(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of made) await fs.rm(dir, { recursive: true, force: true });
  });

  it('loads every shipped brand', () => {
    for (const name of ['default', 'example', 'spec-defaults']) expect(loadBrand({ brandDir: path.resolve('brands', name), brandConfigPath: null, stopOutLevelPercent: 50 }).dir).toContain(name);
  });

  it('a folder that is not there', () => {
    expect(() => loadBrand({ brandDir: path.resolve('brands/nowhere'), brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow(/BRAND_DIR .*brands\/nowhere: no such folder/);
  });

  it('a logo the config names but public/ lacks', async () => {
    const dir = await broken((brand) => fs.rm(path.join(brand, 'public', 'logo.svg')));
    expect(() => loadBrand({ brandDir: dir, brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow(`${path.join(dir, 'config.json')}: logo: /logo.svg is not in ${path.join(dir, 'public')}`);
  });

  it('a banner of the seed that public/ lacks, and a missing favicon', async () => {
    const banner = await broken((brand) => fs.rm(path.join(brand, 'public', 'banners', 'harbor-2.svg')));
    expect(() => loadBrand({ brandDir: banner, brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow(`${path.join(banner, 'seed.json')}: banners.1: /banners/harbor-2.svg is not in`);
    const favicon = await broken((brand) => fs.rm(path.join(brand, 'public', 'favicon.svg')));
    expect(() => loadBrand({ brandDir: favicon, brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow('/favicon.svg is not in');
  });

  it('an unknown or wrong config field', async () => {
    const unknown = await broken((brand) => editJson(path.join(brand, 'config.json'), (config) => {
      config.siteColour = '#000000';
    }));
    expect(() => loadBrand({ brandDir: unknown, brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow(/config\.json: .*siteColour/);
    const language = await broken((brand) => editJson(path.join(brand, 'config.json'), (config) => {
      config.languages = ['en', 'pt'];
    }));
    expect(() => loadBrand({ brandDir: language, brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow(`${path.join(language, 'config.json')}: languages.1: "pt" is not one of en, zh-tw`);
  });

  it('a missing seed.json, an unknown switch, a malformed fee rate, delivery time or limits', async () => {
    const missing = await broken((brand) => fs.rm(path.join(brand, 'seed.json')));
    expect(() => loadBrand({ brandDir: missing, brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow(`${path.join(missing, 'seed.json')}: missing`);
    const wrong = await broken((brand) => editJson(path.join(brand, 'seed.json'), (seed) => {
      seed.switches = { Contract: false, Contracts: true };
      seed.optionProducts = { feeRate: '1.5', timeRates: { '1': '45;75;20|40;5000' } };
      seed.withdrawalLimits = { none: { dailyWithdrawUsd: '900', monthlyWithdrawUsd: '100', depositMaxUsd: '5000' }, junior: { dailyWithdrawUsd: '5000', monthlyWithdrawUsd: '20000', depositMaxUsd: '50000' }, full: { dailyWithdrawUsd: '50000', monthlyWithdrawUsd: '500000', depositMaxUsd: '500000' } };
    }));
    const refusal = () => loadBrand({ brandDir: wrong, brandConfigPath: null, stopOutLevelPercent: 50 });
    expect(refusal).toThrow('switches.Contracts: not a switch name');
    expect(refusal).toThrow('optionProducts.feeRate: expected a decimal rate');
    expect(refusal).toThrow('optionProducts.timeRates.1: expected timeLong;profitRate;chips;max;min');
    expect(refusal).toThrow('withdrawalLimits: a monthly limit is below its daily one');
  });

  it('a margin-call level not above the stop-out level', async () => {
    const atStopOut = await broken((brand) => editJson(path.join(brand, 'config.json'), (config) => {
      config.marginCallLevelPercent = 50;
    }));
    expect(() => loadBrand({ brandDir: atStopOut, brandConfigPath: null, stopOutLevelPercent: 50 })).toThrow(`${path.join(atStopOut, 'config.json')}: marginCallLevelPercent: 50 must be above the stop-out level`);
    expect(loadBrand({ brandDir: atStopOut, brandConfigPath: null, stopOutLevelPercent: 49.5 }).dir).toBe(atStopOut);
    // The default (100) against a stop-out level set higher by the server's settings.
    expect(() => loadBrand({ brandDir: path.resolve('brands/default'), brandConfigPath: null, stopOutLevelPercent: 120 })).toThrow('marginCallLevelPercent: 100 must be above the stop-out level (STOP_OUT_LEVEL_PERCENT 120)');
  });

  it('the server does not start with such a brand', async () => {
    const dir = await broken((brand) => fs.rm(path.join(brand, 'public', 'logo.svg')));
    await expect(startTestServer(testBackends()[0]!, { BRAND_DIR: dir })).rejects.toThrow('logo: /logo.svg is not in');
  });
});

describe.each(testBackends())('the example brand, started from its folder alone ($name)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { BRAND_DIR: 'brands/example' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves its config.json, logo, favicon and banners, and none of the default brand', async () => {
    const get = (url: string) => server.app.inject({ method: 'GET', url });
    expect((await get('/config.json')).json()).toMatchObject({ siteName: 'Harbor Options', logo: '/logo.svg', tradeTabOrder: ['option'] });
    for (const file of ['logo.svg', 'favicon.svg', 'banners/harbor-1.svg']) {
      const answer = await get(`/${file}`);
      expect(answer.statusCode, file).toBe(200);
      expect(answer.body, file).toBe(await fs.readFile(path.join('brands/example/public', file), 'utf8'));
    }
    expect((await get('/banners/banner-1.svg')).statusCode).toBe(404);
    expect((await get('/trade-types/market.svg')).statusCode).toBe(404);
  });

  it('seeds its switches over the specification defaults: options only, demo trading on', async () => {
    expect(await switchesOf(server)).toEqual({ ...switchDefaults, VIRTUAL_CURRENCY_TRADE: true, Contract: false, OptionMock: true });
    const banners = (await post(server.app, '/v1/wa-na/appBanner/list', {})).json() as { data: { rows: { bannerUrl: string }[] } };
    expect(banners.data.rows.map((row) => row.bannerUrl)).toEqual(['/banners/harbor-1.svg', '/banners/harbor-2.svg']);
  });

  it('seeds its option fee and delivery times on every option product, and its withdrawal limits', async () => {
    const products = (await post(server.app, '/v1/wa-na/option/findOptionsProduct', { limit: 100 })).json() as { data: { optionsProducts: { feeRate: string; timeRatePayload: Record<string, string> }[] } };
    expect(products.data.optionsProducts.length).toBeGreaterThan(0);
    for (const product of products.data.optionsProducts) {
      expect(parseMoney(product.feeRate)).toBe(parseMoney('0.02'));
      expect(product.timeRatePayload).toEqual({ '1': '45;75;20|40|200;5000;20;45s', '2': '90;82;20|40|200;5000;20;90s' });
    }
    const admin = await createStaffAndSignIn(server, { roles: ['admin'] });
    const limits = (await staffCall(server, '/v1/staff/config/limits', {}, admin.token)).data as { limits: Record<string, { dailyWithdrawUsd: string }> };
    expect(Number(limits.limits.none?.dailyWithdrawUsd)).toBe(500);
    expect(Number(limits.limits.full?.dailyWithdrawUsd)).toBe(50000);
  });
});

describe.each(testBackends())('the specification defaults brand ($name)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { BRAND_DIR: 'brands/spec-defaults' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("has every switch at the specification's default and the config's own defaults (no request timeout)", async () => {
    expect(await switchesOf(server)).toEqual(switchDefaults);
    const config = (await server.app.inject({ method: 'GET', url: '/config.json' })).json() as Record<string, unknown>;
    expect(config).toEqual({});
  });
});
