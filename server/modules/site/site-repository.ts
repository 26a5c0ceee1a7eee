import type { Kysely } from 'kysely';
import { switchDefaults, switchNames, type SwitchName } from '../../../src/shared/config/switches';
import type { Executor } from '../../db/after-commit';
import type { Database } from '../../db/schema';

export const customerLinkSettingKey = 'customer_service_link';

export function createSiteRepository(db: Kysely<Database>) {
  return {
    async listSwitches() {
      return db.selectFrom('system_switch').select(['name', 'enabled']).orderBy('name').execute();
    },
    async setSwitch(name: string, enabled: boolean) {
      await db
        .updateTable('system_switch')
        .set({ enabled, updated_at: new Date() })
        .where('name', '=', name)
        .execute();
    },
    /** The switch's row locked in the caller's transaction; undefined for a name the table lacks. */
    lockSwitch(executor: Executor, name: string) {
      return executor.selectFrom('system_switch').select(['name', 'enabled']).where('name', '=', name).forUpdate().executeTakeFirst();
    },
    async setSwitchIn(executor: Executor, name: string, enabled: boolean) {
      await executor.updateTable('system_switch').set({ enabled, updated_at: new Date() }).where('name', '=', name).execute();
    },
    /** Every banner, active or not, in the order the app shows them. */
    listAllBanners(executor: Executor = db) {
      return executor.selectFrom('banner').select(['banner_url', 'sort', 'active']).orderBy('sort').orderBy('id').execute();
    },
    /** Replaces every banner with these rows. */
    async replaceBanners(executor: Executor, rows: readonly { bannerUrl: string; sort: number; active: boolean }[]) {
      await executor.deleteFrom('banner').execute();
      if (rows.length === 0) return;
      await executor.insertInto('banner').values(rows.map((row) => ({ banner_url: row.bannerUrl, sort: row.sort, active: row.active }))).execute();
    },
    /** A setting's value, its row locked in the caller's transaction. */
    async lockSetting(executor: Executor, key: string): Promise<string | null> {
      const row = await executor.selectFrom('site_setting').select('value').where('key', '=', key).forUpdate().executeTakeFirst();
      return row?.value ?? null;
    },
    async putSettingIn(executor: Executor, key: string, value: string) {
      await executor
        .insertInto('site_setting')
        .values({ key, value })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
        .execute();
    },
    async listActiveBanners() {
      return db
        .selectFrom('banner')
        .select(['banner_url'])
        .where('active', '=', true)
        .orderBy('sort')
        .orderBy('id')
        .execute();
    },
    async getSetting(key: string): Promise<string | null> {
      const row = await db.selectFrom('site_setting').select('value').where('key', '=', key).executeTakeFirst();
      return row?.value ?? null;
    },
    async putSetting(key: string, value: string) {
      await db
        .insertInto('site_setting')
        .values({ key, value })
        .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
        .execute();
    },

    /**
     * First-start data: every switch at the specification's default with the brand's seed
     * over it, banners, service links. A switch already stored keeps its value; the
     * overrides (SWITCHES) are set at every start. Answers whether this was the first start
     * (no switch stored before), when the brand's other seeds (fees, limits) are stored too.
     */
    async seedDefaults(defaults: {
      banners: string[];
      customerLink: string;
      /** The brand's switches (its seed.json), over the specification's defaults. */
      brandSwitches?: Partial<Record<SwitchName, boolean>>;
      switchOverrides?: Partial<Record<SwitchName, boolean>>;
    }): Promise<{ firstStart: boolean }> {
      const seeded: Record<SwitchName, boolean> = { ...switchDefaults, ...defaults.brandSwitches };
      const inserted = await db
        .insertInto('system_switch')
        .values(switchNames.map((name) => ({ name, enabled: seeded[name] })))
        .onConflict((conflict) => conflict.column('name').doNothing())
        .returning('name')
        .execute();
      const firstStart = inserted.length === switchNames.length;
      for (const [name, enabled] of Object.entries(defaults.switchOverrides ?? {})) {
        await db.updateTable('system_switch').set({ enabled, updated_at: new Date() }).where('name', '=', name).execute();
      }
      const banners = await db.selectFrom('banner').select('id').limit(1).execute();
      if (banners.length === 0) {
        await db
          .insertInto('banner')
          .values(defaults.banners.map((bannerUrl, index) => ({ banner_url: bannerUrl, sort: index })))
          .execute();
      }
      await db
        .insertInto('site_setting')
        .values({ key: customerLinkSettingKey, value: defaults.customerLink })
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute();
      return { firstStart };
    },
  };
}

export type SiteRepository = ReturnType<typeof createSiteRepository>;
