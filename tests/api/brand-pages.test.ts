import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBrand } from '../../server/brand/brand-folder';
import { codedFailureText } from '../../src/shared/errors/catalogue';
import { post, startTestServer, testBackends, type TestServer } from './harness';

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

interface PageAnswer {
  code: number;
  data: { page: string; lang: string; title: string; sections: { heading?: string; paragraphs: string[] }[] };
}

const pageOf = async (server: TestServer, body: unknown) => (await post(server.app, '/v1/wa-na/brand/page', body)).json() as PageAnswer;

describe('the static pages and the catalogue refused at start, naming the file and the field', () => {
  const made: string[] = [];
  const broken = async (change: (dir: string) => Promise<void>) => {
    const dir = await copyOfBrand('example');
    made.push(dir);
    await change(dir);
    return dir;
  };
  const load = (dir: string) => () => loadBrand({ brandDir: dir, brandConfigPath: null, stopOutLevelPercent: 50 });
  afterAll(async () => {
    for (const dir of made) await fs.rm(dir, { recursive: true, force: true });
  });

  it('no pages folder, or no file in the default language', async () => {
    const none = await broken((brand) => fs.rm(path.join(brand, 'pages'), { recursive: true }));
    expect(load(none)).toThrow(`${path.join(none, 'pages')}: missing`);
    const noDefault = await broken((brand) => fs.rm(path.join(brand, 'pages', 'en.json')));
    expect(load(noDefault)).toThrow(`${path.join(noDefault, 'pages', 'en.json')}: missing (the brand's default language, en, has every page)`);
  });

  it('a page the default language lacks, a file of no language, a page without its title, an unknown field', async () => {
    const lacking = await broken((brand) => editJson(path.join(brand, 'pages', 'en.json'), (pages) => {
      delete pages.privacy;
    }));
    expect(load(lacking)).toThrow(`${path.join(lacking, 'pages', 'en.json')}: privacy: missing`);
    const stray = await broken((brand) => fs.writeFile(path.join(brand, 'pages', 'pt.json'), '{}'));
    expect(load(stray)).toThrow(`${path.join(stray, 'pages', 'pt.json')}: not a language's file`);
    const untitled = await broken((brand) => editJson(path.join(brand, 'pages', 'ja.json'), (pages) => {
      delete (pages.standards as Record<string, unknown>).title;
    }));
    expect(load(untitled)).toThrow(`${path.join(untitled, 'pages', 'ja.json')}: standards.title:`);
    const unknown = await broken((brand) => editJson(path.join(brand, 'pages', 'de.json'), (pages) => {
      pages.imprint = { title: 'Impressum', sections: [{ paragraphs: ['…'] }] };
    }));
    expect(load(unknown)).toThrow(/de\.json: \(root\): .*imprint/);
    const notJson = await broken((brand) => fs.writeFile(path.join(brand, 'pages', 'es.json'), '{ "standards": '));
    expect(load(notJson)).toThrow(`${path.join(notJson, 'pages', 'es.json')}: not JSON`);
  });

  it("no catalogue, a symbol the house has no instrument for, one listed twice, an icon public/ lacks, a hot product it does not list", async () => {
    const none = await broken((brand) => fs.rm(path.join(brand, 'catalogue.json')));
    expect(load(none)).toThrow(`${path.join(none, 'catalogue.json')}: missing`);
    const wrong = await broken((brand) => editJson(path.join(brand, 'catalogue.json'), (catalogue) => {
      const symbols = catalogue.symbols as Record<string, unknown>[];
      symbols[1]!.code = 'PEPEUSDT';
      symbols[2]!.code = symbols[0]!.code;
    }));
    expect(load(wrong)).toThrow('symbols.1.code: not an instrument of server/modules/market/catalogue.ts');
    expect(load(wrong)).toThrow('symbols.2.code: ETHUSDT is listed twice');
    const icon = await broken((brand) => fs.rm(path.join(brand, 'public', 'symbols', 'XAGUSD.svg')));
    expect(load(icon)).toThrow(`${path.join(icon, 'catalogue.json')}: symbols.3.icon: /symbols/XAGUSD.svg is not in ${path.join(icon, 'public')}`);
    const hot = await broken((brand) => editJson(path.join(brand, 'catalogue.json'), (catalogue) => {
      catalogue.symbols = (catalogue.symbols as { code: string }[]).filter((symbol) => symbol.code !== 'XAUUSD');
    }));
    expect(load(hot)).toThrow(`${path.join(hot, 'config.json')}: hotProducts.1: XAUUSD is not in ${path.join(hot, 'catalogue.json')}`);
  });

  it('the server does not start with such a brand', async () => {
    const dir = await broken((brand) => fs.rm(path.join(brand, 'pages', 'en.json')));
    await expect(startTestServer(testBackends()[0]!, { BRAND_DIR: dir })).rejects.toThrow("en.json: missing (the brand's default language");
  });
});

describe.each(testBackends())('the brand page route and catalogue ($name)', (backend) => {
  let brand: TestServer;
  let shipped: TestServer;

  beforeAll(async () => {
    [brand, shipped] = await Promise.all([startTestServer(backend, { BRAND_DIR: 'brands/example' }), startTestServer(backend)]);
  });
  afterAll(async () => {
    await Promise.all([brand?.close(), shipped?.close()]);
  });

  it("answers a page in the reader's language, anonymously", async () => {
    const answer = await pageOf(brand, { page: 'standards', lang: 'ja' });
    expect(answer.code).toBe(0);
    expect(answer.data).toMatchObject({ page: 'standards', lang: 'ja', title: 'Harbor 取引ルール' });
    expect(answer.data?.sections[1]).toEqual({ heading: 'すべてのお客様に同じ価格', paragraphs: [expect.stringContaining('相場フィード')] });
    const written = JSON.parse(await fs.readFile('brands/example/pages/de.json', 'utf8')) as { agreement: unknown };
    const agreement = await pageOf(brand, { page: 'agreement', lang: 'de' });
    expect({ title: agreement.data?.title, sections: agreement.data?.sections }).toEqual(written.agreement);
  });

  it("falls back to the brand's default language when it wrote none in the reader's", async () => {
    const french = await pageOf(brand, { page: 'privacy', lang: 'fr' });
    expect(french.data).toMatchObject({ page: 'privacy', lang: 'en', title: 'Harbor privacy notice' });
    // The default brand: Indonesian has the agreement only; its standards are read in English.
    expect((await pageOf(shipped, { page: 'agreement', lang: 'id' })).data?.lang).toBe('id');
    expect((await pageOf(shipped, { page: 'standards', lang: 'id' })).data).toMatchObject({ lang: 'en', title: 'Trading standards' });
  });

  it('refuses an unknown page and a language that is not one of the twelve (1001, translated), and changes nothing', async () => {
    const before = await pageOf(brand, { page: 'standards', lang: 'en' });
    const refused: [unknown, string][] = [
      [{ page: 'imprint', lang: 'en' }, 'page: '],
      [{ page: 'standards', lang: 'pt' }, 'lang: '],
      [{ page: 'standards', lang: 'EN' }, 'lang: '],
      [{ page: 'standards' }, 'lang: '],
      [{ page: 'standards', lang: 'en', extra: 1 }, 'extra'],
    ];
    for (const [body, field] of refused) {
      const answer = (await post(brand.app, '/v1/wa-na/brand/page', body)).json() as { code: number; data: { problems: string[] } };
      expect(answer.code, JSON.stringify(body)).toBe(1001);
      expect(answer.data.problems.join('\n'), JSON.stringify(body)).toContain(field);
    }
    // The reader is told in their language (the app's catalogue of coded failures).
    const german = JSON.parse(await fs.readFile('src/shared/i18n/locales/de.json', 'utf8')) as Record<string, Record<string, string>>;
    const translate = (key: string) => german[key.split('.')[0]!]?.[key.split('.')[1]!] ?? key;
    expect(codedFailureText(1001, 'body does not match the contract', null, translate)).toBe('Fehlerhafter Parameterinhalt (1001)');
    expect(await pageOf(brand, { page: 'standards', lang: 'en' })).toEqual(before);
  });

  it("lists the brand's symbols only, with its names and icons, and option products on each", async () => {
    const catalogue = JSON.parse(await fs.readFile('brands/example/catalogue.json', 'utf8')) as { symbols: { code: string; name: string; icon: string }[] };
    const products = (await post(brand.app, '/v1/wa-na/forex/product/list', {})).json() as { data: { list: { productCode: string; productName: string; logoUrl: string }[] } };
    expect(products.data.list.map((row) => ({ code: row.productCode, name: row.productName, icon: row.logoUrl }))).toEqual(catalogue.symbols.map(({ code, name, icon }) => ({ code, name, icon })));
    const icon = await brand.app.inject({ method: 'GET', url: '/symbols/XAGUSD.svg' });
    expect(icon.statusCode).toBe(200);
    expect((await brand.app.inject({ method: 'GET', url: '/logos/XAGUSD.svg' })).statusCode).toBe(404);
    const options = (await post(brand.app, '/v1/wa-na/option/findOptionsProduct', { limit: 100 })).json() as { data: { optionsProducts: { productCode: string }[] } };
    expect(options.data.optionsProducts.map((product) => product.productCode).sort()).toEqual(catalogue.symbols.map((symbol) => symbol.code).sort());
  });
});
