import type { BannerRow, CustomerLink, SystemConfigItem } from '../../../src/shared/api/anonymous';
import { safeBannerUrl } from '../../../src/shared/config/banner-url';
import { customerLinkSettingProblem, parseCustomerLinkSetting } from '../../../src/shared/config/customer-link';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { afterCommit, type Executor } from '../../db/after-commit';
import { AppError } from '../../http/app-error';
import { switchesFromItems, type Switches } from '../../../src/shared/config/switches';
import { customerLinkSettingKey, type SiteRepository } from './site-repository';

const noCustomerLink: CustomerLink = { url: '', telegram: '', whatsapp: '', email: '', mode: 0 };

export function createSiteService(repository: SiteRepository, options: { switchesCacheMs: number }) {
  const { switchesCacheMs } = options;
  let cached: { atMs: number; value: Promise<Switches> } | null = null;

  async function allBanners(executor?: Executor): Promise<{ bannerUrl: string; sort: number; active: boolean }[]> {
    const rows = await repository.listAllBanners(executor);
    return rows.map((row) => ({ bannerUrl: row.banner_url, sort: row.sort, active: row.active }));
  }
  return {
    /** The feature switches as a map (defaults for names the table lacks). */
    switches(): Promise<Switches> {
      const now = Date.now();
      if (!cached || now - cached.atMs > switchesCacheMs) {
        const value = repository.listSwitches().then((rows) => switchesFromItems(rows.map((row) => ({ name: row.name, enable: row.enabled }))));
        value.catch(() => (cached = null));
        cached = { atMs: now, value };
      }
      return cached.value;
    },
    async configStatus(): Promise<{ items: SystemConfigItem[] }> {
      const rows = await repository.listSwitches();
      return { items: rows.map((row) => ({ name: row.name, enable: row.enabled })) };
    },
    async banners(): Promise<{ rows: BannerRow[] }> {
      const rows = await repository.listActiveBanners();
      return { rows: rows.map((row) => ({ bannerUrl: row.banner_url })) };
    },
    // The back office: each change in the caller's transaction, answering what it was and became.

    /** Turns a switch on or off; an unknown name is DATA_NOT_FOUND. The next read (and `getAllConfigStatusWeb`) answers the change. */
    async setSwitch(executor: Executor, name: string, enable: boolean) {
      const before = await repository.lockSwitch(executor, name);
      if (!before) throw new AppError(ErrorCode.DATA_NOT_FOUND, `no switch ${name}`);
      await repository.setSwitchIn(executor, name, enable);
      // The server's own cached copy must not keep the old value either.
      afterCommit(executor, () => (cached = null));
      return { before: { name, enable: before.enabled }, after: { name, enable } };
    },

    /** Every banner, active or not. */
    allBanners,

    /** Replaces the banners with these rows (order by `sort`; inactive ones stay stored but unshown). */
    async setBanners(executor: Executor, rows: readonly { bannerUrl: string; sort: number; active: boolean }[]) {
      const unsafe = rows.find((row) => safeBannerUrl(row.bannerUrl) === null);
      if (unsafe) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, `bannerUrl must be a path on this site (/…): ${unsafe.bannerUrl}`);
      const before = await allBanners(executor);
      await repository.replaceBanners(executor, rows);
      return { before, after: await allBanners(executor) };
    },

    /** The customer-service setting as stored (`mode|json array`). */
    async customerLinkSetting(): Promise<string> {
      return (await repository.getSetting(customerLinkSettingKey)) ?? '';
    },

    /** Stores a customer-service setting that passes the shared rules (INCORRECT_PARAMETER_VALUE otherwise). */
    async setCustomerLinkSetting(executor: Executor, value: string) {
      const problem = customerLinkSettingProblem(value);
      if (problem) throw new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, `service link ${problem}`);
      const before = await repository.lockSetting(executor, customerLinkSettingKey);
      await repository.putSettingIn(executor, customerLinkSettingKey, value);
      return { before: { value: before }, after: { value } };
    },

    /** A stored value that does not parse answers empty links rather than a broken page. */
    async customerLink(): Promise<CustomerLink> {
      const value = await repository.getSetting(customerLinkSettingKey);
      return (value && parseCustomerLinkSetting(value)) || noCustomerLink;
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
