import type { ColumnType, Generated } from 'kysely';

/** The database as Kysely sees it; one interface per table, named as the table. */
export interface Database {
  system_switch: SystemSwitchTable;
  banner: BannerTable;
  site_setting: SiteSettingTable;
  product: ProductTable;
  kline: KlineTable;
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

/** Numeric columns travel as exact decimal strings; BIGINT as a string too. */
export interface ProductTable {
  code: string;
  name: string;
  product_type: number;
  trade_status: number;
  price_precision: number;
  volume_step: string;
  leverage: number;
  min_lots: string;
  max_lots: string;
  volume_decimals: number;
  logo_url: string;
  sort: number | null;
  market_start_time: number[];
  market_close_time: number[];
  contract_size: string;
  spread: string;
  fee_rate: string;
  overnight_rate: string;
}

export interface KlineTable {
  symbol: string;
  period: string;
  open_time: ColumnType<string | number, number, never>;
  open_price: string;
  high_price: string;
  low_price: string;
  close_price: string;
  volume: string;
  turnover: string;
}
