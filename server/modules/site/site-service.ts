import type { BannerRow, CustomerLink, SystemConfigItem } from '../../../src/shared/api/anonymous';
import { parseCustomerLinkSetting } from '../../../src/shared/config/customer-link';
import { switchesFromItems, type Switches } from '../../../src/shared/config/switches';
import { customerLinkSettingKey, type SiteRepository } from './site-repository';

const noCustomerLink: CustomerLink = { url: '', telegram: '', whatsapp: '', email: '', mode: 0 };

export function createSiteService(repository: SiteRepository, options: { switchesCacheMs: number }) {
  const { switchesCacheMs } = options;
  let cached: { atMs: number; value: Promise<Switches> } | null = null;
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
    /** A stored value that does not parse answers empty links rather than a broken page. */
    async customerLink(): Promise<CustomerLink> {
      const value = await repository.getSetting(customerLinkSettingKey);
      return (value && parseCustomerLinkSetting(value)) || noCustomerLink;
    },
  };
}

export type SiteService = ReturnType<typeof createSiteService>;
