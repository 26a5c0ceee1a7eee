import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { switchDefaults } from '../../../../src/shared/config/switches';
import { createFakeClock } from '../../support/fake-clock';
import { createTestHost } from '../../support/engine-harness';

// A tab fetches config.json and the switches; the engine checks them (its schemas and zod are
// not in the page's first load), so a tab starts on what the engine accepted.
describe("the engine's checks of what a tab reads at start", () => {
  it('gives config.json its defaults, and refuses a wrong or unknown field by its name', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const shipped = JSON.parse(fs.readFileSync(new URL('../../../../brands/default/config.json', import.meta.url), 'utf8')) as unknown;
    expect(await host.api.checkBrandConfig(shipped)).toMatchObject({ ok: true });
    expect(await host.api.checkBrandConfig({ siteName: 'Brand' })).toMatchObject({ ok: true, config: { siteName: 'Brand', batchWindowMs: 100, hotProducts: ['BTCUSDT', 'EURUSD', 'XAUUSD'] } });
    const refused = await host.api.checkBrandConfig({ upDownTemplate: 2, colour: 'red' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.problems.map((problem) => problem.split(':')[0])).toEqual(expect.arrayContaining(['upDownTemplate', '(root)']));
  });

  it("takes the switches' items from a successful answer and refuses any other", async () => {
    const host = createTestHost({ time: createFakeClock() });
    const items = [{ name: 'VIRTUAL_CURRENCY_TRADE', enable: true }, { name: 'PHONE_REGISTER', enable: !switchDefaults.PHONE_REGISTER }];
    expect(await host.api.checkSwitchesAnswer({ code: 0, msg: 'success', data: { items } })).toEqual({ ok: true, items });
    expect(await host.api.checkSwitchesAnswer({ code: 1000, msg: 'no', data: null })).toEqual({ ok: false, problem: 'code 1000' });
    expect(await host.api.checkSwitchesAnswer({ code: 0, msg: 'success', data: { items: [{ name: 'PHONE_REGISTER', enable: 'yes' }] } })).toMatchObject({ ok: false });
    expect(await host.api.checkSwitchesAnswer('not an envelope')).toMatchObject({ ok: false });
  });
});
