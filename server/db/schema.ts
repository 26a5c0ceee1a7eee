import type { ColumnType, Generated } from 'kysely';

/** The database as Kysely sees it; one interface per table, named as the table. */
export interface Database {
  system_switch: SystemSwitchTable;
  banner: BannerTable;
  site_setting: SiteSettingTable;
}

export interface SystemSwitchTable {
  name: string;
  enabled: boolean;
  updated_at: ColumnType<Date, never, Date>;
}

export interface BannerTable {
  id: Generated<number>;
  banner_url: string;
  sort: number;
  active: Generated<boolean>;
}

export interface SiteSettingTable {
  key: string;
  value: string;
}
