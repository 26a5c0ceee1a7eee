import type { ColumnType, Generated } from 'kysely';

/** The database as Kysely sees it; one interface per table, named as the table. */
export interface Database {
  system_switch: SystemSwitchTable;
  banner: BannerTable;
  site_setting: SiteSettingTable;
  product: ProductTable;
  kline: KlineTable;
  app_user: AppUserTable;
  verification_code: VerificationCodeTable;
  image_captcha: ImageCaptchaTable;
  session_family: SessionFamilyTable;
  refresh_token: RefreshTokenTable;
  auth_throttle: AuthThrottleTable;
  code_request: CodeRequestTable;
  ledger_account: LedgerAccountTable;
  ledger_journal: LedgerJournalTable;
  ledger_entry: LedgerEntryTable;
  trade_order: TradeOrderTable;
  option_product: OptionProductTable;
  option_order: OptionOrderTable;
  option_tick: OptionTickTable;
}

/** BIGINT arrives as a string from PostgreSQL and as a number from PGlite. */
type BigintColumn = ColumnType<string | number, string | number, string | number>;
type NullableBigintColumn = ColumnType<string | number | null, string | number | null | undefined, string | number | null>;

export interface OptionProductTable {
  id: Generated<number>;
  product_code: string;
  trade_status: number;
  fee_rate: string;
  /** Key → 'timeLong;profitRate;chips;max;min[;name]'; written as JSON text. */
  time_rate_payload: ColumnType<Record<string, string>, string, string>;
  sort: number;
}

export interface OptionOrderTable {
  id: Generated<number>;
  order_no: string;
  uid: number;
  book: Book;
  client_order_id: string;
  option_product_id: number;
  symbol: string;
  direction: number;
  time_long: number;
  profit_rate: string;
  amount: string;
  fee: string;
  start_price: string;
  start_tick_ms: BigintColumn;
  begin_ms: BigintColumn;
  end_ms: BigintColumn;
  status: Generated<number>;
  end_price: string | null;
  end_tick_ms: NullableBigintColumn;
  outcome: string | null;
  void_reason: string | null;
  win_lost: string | null;
  settled_ms: NullableBigintColumn;
}

export interface OptionTickTable {
  id: ColumnType<string | number, never, never>;
  symbol: string;
  time_ms: BigintColumn;
  price: string;
}

export interface TradeOrderTable {
  id: Generated<number>;
  order_no: string;
  uid: number;
  book: Book;
  client_order_id: string;
  symbol: string;
  direction: number;
  price_type: number;
  status: number;
  volume: string;
  leverage: number;
  contract_size: string;
  limit_price: string | null;
  open_price: string | null;
  close_price: string | null;
  stop_loss: string | null;
  take_profit: string | null;
  margin: string;
  fee: Generated<string>;
  profit_loss: string | null;
  close_reason: string | null;
  open_tick_ms: string | null;
  close_tick_ms: string | null;
  created_at: Date;
  opened_at: Date | null;
  closed_at: Date | null;
}

export type { Book } from '../../src/shared/session/token';
import type { Book } from '../../src/shared/session/token';

/** Numeric amounts travel as exact decimal strings. */
export interface LedgerAccountTable {
  id: Generated<number>;
  owner_uid: number | null;
  book: Book;
  kind: string;
  balance: ColumnType<string, string | undefined, string>;
}

export interface LedgerJournalTable {
  id: Generated<number>;
  idempotency_key: string;
  book: Book;
  kind: string;
  uid: number | null;
  reference: string | null;
  created_at: Date;
}

export interface LedgerEntryTable {
  id: Generated<number>;
  journal_id: number;
  account_id: number;
  amount: string;
}

export interface AppUserTable {
  uid: Generated<number>;
  email: string | null;
  phone: string | null;
  register_type: 'E' | 'P';
  password_hash: string;
  nick: string;
  invite_code: string;
  invited_by: number | null;
  locale: Generated<string>;
  blocked: Generated<boolean>;
  totp_secret: string | null;
  totp_enabled: Generated<boolean>;
  /** The last second-factor step spent (a code is accepted once). */
  totp_last_step: NullableBigintColumn;
  virtual_used_at: Date | null;
  created_at: Generated<Date>;
  trade_prohibited: Generated<boolean>;
}

export interface VerificationCodeTable {
  id: Generated<number>;
  destination: string;
  purpose: number;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Date;
}

export interface ImageCaptchaTable {
  uuid: string;
  answer_hash: string;
  expires_at: Date;
  used_at: Date | null;
}

export interface CodeRequestTable {
  key: string;
  last_at: Date;
  window_start: Date;
  window_count: number;
}

export interface AuthThrottleTable {
  key: string;
  failures: number;
  blocked_until: Date;
  last_failure_at: Date;
}

export interface SessionFamilyTable {
  id: string;
  uid: number;
  created_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface RefreshTokenTable {
  token_hash: string;
  family_id: string;
  virtual_status: number;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
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
