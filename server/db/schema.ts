import type { ColumnType, Generated } from 'kysely';
import type { ReviewDecision, ReviewKind, ReviewStatus } from '../../src/shared/staff/roles';

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
  staff_member: StaffMemberTable;
  staff_session_family: StaffSessionFamilyTable;
  staff_refresh_token: StaffRefreshTokenTable;
  staff_audit: StaffAuditTable;
  staff_invitation: StaffInvitationTable;
  staff_customer_link: StaffCustomerLinkTable;
  config_proposal: ConfigProposalTable;
  notice: NoticeTable;
  review_item: ReviewItemTable;
  review_decision: ReviewDecisionTable;
  review_file: ReviewFileTable;
  stored_file: StoredFileTable;
  deposit: DepositTable;
  deposit_block: DepositBlockTable;
  own_deposit_address: OwnDepositAddressTable;
  identity_verification: IdentityVerificationTable;
  identity_submission: IdentitySubmissionTable;
  verified_document: VerifiedDocumentTable;
  currency: CurrencyTable;
  coin_network: CoinNetworkTable;
  idempotency_key: IdempotencyKeyTable;
  saved_crypto_address: SavedCryptoAddressTable;
  bank_card: BankCardTable;
  bank_withdraw_channel: BankWithdrawChannelTable;
  withdrawal: WithdrawalTable;
  loan: LoanTable;
  loan_repayment: LoanRepaymentTable;
  leader_lease: LeaderLeaseTable;
  outbox_message: OutboxMessageTable;
  rate_limit: RateLimitTable;
  open_connection: OpenConnectionTable;
  withdrawal_limit: WithdrawalLimitTable;
  trusted_device: TrustedDeviceTable;
  sign_in_code: SignInCodeTable;
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
  /** The overnight fees charged so far (also counted in `fee`). */
  overnight_fee: Generated<string>;
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
  /** The currency the account holds ('USD' for the trading accounts and every account before wallets). */
  currency: ColumnType<string, string | undefined, never>;
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
  /** The avatar's stored_file id (migration 0020); null: none chosen. */
  avatar_file_id: string | null;
  invite_code: string;
  invited_by: number | null;
  locale: Generated<string>;
  blocked: Generated<boolean>;
  totp_secret: string | null;
  totp_enabled: Generated<boolean>;
  /** The last second-factor step spent (a code is accepted once). */
  totp_last_step: NullableBigintColumn;
  /** The idempotent request that spent that step (0039): its retry may present the code again; null for a sign-in's. */
  totp_last_request: string | null;
  virtual_used_at: Date | null;
  created_at: Generated<Date>;
  trade_prohibited: Generated<boolean>;
  /** Why the back office last prohibited or allowed trading, and when (null: never changed). */
  trade_prohibited_reason: string | null;
  trade_prohibited_changed_at: Date | null;
  /** When the password, the second factor or the e-mail last changed (0026): withdrawals cool off after it. */
  security_changed_at: Date | null;
}

export interface NoticeTable {
  id: Generated<number>;
  uid: number;
  /** 0 unread, 1 read. */
  read_status: Generated<number>;
  action_type: number;
  alarm_type: number | null;
  title: string;
  content: string;
  remark: string | null;
  payment_price: string | null;
  /** A coded notice's parameters (currency, event: src/shared/notices/notice-codes.ts); null for others. */
  params: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  created_at: Generated<Date>;
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

export interface StaffMemberTable {
  id: Generated<number>;
  email: string;
  /** Null until an invited member enrols (0030). */
  password_hash: string | null;
  /** Written as a text[] literal; read back as a string array. */
  roles: ColumnType<string[], string[], string[]>;
  /** Encrypted with the data key; null until an invited member enrols. */
  totp_secret: string | null;
  totp_last_step: NullableBigintColumn;
  must_change_password: Generated<boolean>;
  disabled_at: Date | null;
  created_at: Date;
  last_sign_in_at: Date | null;
  /** When the member confirmed their second factor; null: invited, cannot sign in yet (0030). */
  enrolled_at: Date | null;
  /** The keyed digest of the member's own identity document number, and its mask; null until declared (0041). */
  document_digest: Generated<string | null>;
  document_masked: Generated<string | null>;
  document_declared_at: Generated<Date | null>;
}

/** A customer account declared as a staff member's own (0041): they decide none of its review items. */
export interface StaffCustomerLinkTable {
  staff_id: number;
  uid: number;
  recorded_by: number;
  created_at: Generated<Date>;
}

/** A staff member's single-use invitation (0030): only the token's digest is kept. */
export interface StaffInvitationTable {
  id: Generated<number>;
  staff_id: number;
  token_hash: string;
  expires_at: Date;
  password_set_at: Date | null;
  confirmed_at: Date | null;
  created_at: Date;
  /** When a newer invitation replaced this one (0040): its link no longer works. */
  voided_at: Date | null;
}

/** A dual-control change awaiting a second admin (0032). */
export interface ConfigProposalTable {
  id: Generated<number>;
  kind: string;
  target: string | null;
  /** JSON, written as text. */
  payload: ColumnType<unknown, string, never>;
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  status: ColumnType<'proposed' | 'approved' | 'rejected' | 'voided', undefined, 'approved' | 'rejected' | 'voided'>;
  proposed_by: number;
  proposed_at: Date;
  decided_by: number | null;
  decided_at: Date | null;
  reason: string | null;
  request_id: string | null;
}

export interface StaffSessionFamilyTable {
  id: string;
  staff_id: number;
  created_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
}

export interface StaffRefreshTokenTable {
  token_hash: string;
  family_id: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

/** Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE. */
export interface StaffAuditTable {
  id: ColumnType<string | number, never, never>;
  staff_id: number | null;
  action: string;
  target_type: string;
  target_id: string | null;
  uid: number | null;
  /** JSON, written as text. */
  before: ColumnType<unknown, string | null, never>;
  after: ColumnType<unknown, string | null, never>;
  at: Date;
  address: string | null;
}

/** The staff review queues (0014-reviews). */
export interface ReviewItemTable {
  id: Generated<number>;
  kind: ReviewKind;
  status: ColumnType<ReviewStatus, ReviewStatus | undefined, ReviewStatus>;
  uid: number;
  subject_ref: string;
  /** Label → display string; written as JSON text. */
  facts: ColumnType<Record<string, string>, string, string>;
  amount_usd: string | null;
  needs_two_approvals: boolean;
  created_at: ColumnType<Date, Date | undefined, never>;
  decided_at: Date | null;
}

export interface ReviewDecisionTable {
  id: Generated<number>;
  review_id: number;
  staff_id: number;
  decision: ReviewDecision;
  reason: string | null;
  request_id: string;
  resulting_status: ReviewStatus;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** Set when the approval was voided (its approver disabled before the second approval, 0031). */
  voided_at: ColumnType<Date | null, never, Date>;
}

export interface ReviewFileTable {
  review_id: number;
  file_id: string;
  name: string;
}

export type StoredFilePurpose = 'depositProof' | 'avatar' | 'identityDocument';

export interface StoredFileTable {
  id: string;
  uid: number;
  purpose: StoredFilePurpose;
  content_type: string;
  size: number;
  created_at: ColumnType<Date, Date | undefined, never>;
}

export interface DepositTable {
  id: Generated<number>;
  uid: number;
  coin_id: number;
  currency: string;
  network: string;
  amount: string;
  amount_usd: string;
  proof_file_id: string;
  locale: string;
  /** 0 waiting (in review), 1 success, 2 fail. */
  pay_state: ColumnType<number, number | undefined, number>;
  failure_reason: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  decided_at: Date | null;
}

export interface DepositBlockTable {
  uid: number;
  reason: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A customer's own deposit address on a coin network (walletType 1, 0052). */
export interface OwnDepositAddressTable {
  uid: number;
  coin_network_id: number;
  address: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CurrencyTable {
  id: Generated<number>;
  code: string;
  name: string;
  decimals: number;
  icon: string;
  /** The market product whose live price values the currency in USD; null when pegged to the USD. */
  price_product: string | null;
  transfer_fee_rate: ColumnType<string, string | undefined, string>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  sort: ColumnType<number, number | undefined, number>;
}

/** The empty type charges no fee (0053). */
export type WithdrawFeeType = 'PERCENTAGE' | 'FIX_AMOUNT' | '';

export interface CoinNetworkTable {
  id: Generated<number>;
  currency_id: number;
  network: string;
  deposit_address: string;
  min_withdraw: string;
  max_withdraw: string;
  withdraw_fee_type: WithdrawFeeType;
  withdraw_fee: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
}

export interface IdempotencyKeyTable {
  uid: number;
  key: string;
  path: string;
  answer: string | null;
  created_at: Date;
  /** The first request's fingerprint (0037-idempotency-request-hash); null for older keys. */
  request_hash: string | null;
}

/** A customer's saved crypto address, sealed with the data key named by key_id (0017-withdrawals). */
export interface SavedCryptoAddressTable {
  id: Generated<number>;
  uid: number;
  coin_network_id: number;
  address_sealed: string;
  key_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A customer's bank card; the personal fields sealed with the data key named by key_id. */
export interface BankCardTable {
  id: Generated<number>;
  uid: number;
  bank_name: string;
  bank_code: string;
  bank_address: string;
  swift_code: string;
  branch_code: string;
  bank_country: string;
  post_code: string;
  account_type: string;
  ins_num: string;
  tra_num: string;
  name_sealed: string;
  account_sealed: string;
  address_sealed: string;
  id_number_sealed: string;
  phone_sealed: string;
  key_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** The bank card channel's terms (one row). */
export interface BankWithdrawChannelTable {
  id: number;
  currency_id: number;
  min_amount: string | null;
  max_amount: string | null;
  fee_type: WithdrawFeeType;
  fee_num: string;
  enabled: boolean;
}

export type WithdrawalStatus = 'pending' | 'paid' | 'rejected' | 'canceled';

/** A withdrawal: its hold in the ledger (hold_key), its review item (subject_ref = id). */
export interface WithdrawalTable {
  id: Generated<number>;
  uid: number;
  channel: 'crypto' | 'bank';
  currency_id: number;
  coin_network_id: number | null;
  bank_card_id: number | null;
  destination_sealed: string;
  key_id: string;
  amount: string;
  fee: string;
  practical: string;
  amount_usd: string;
  status: ColumnType<WithdrawalStatus, WithdrawalStatus | undefined, WithdrawalStatus>;
  hold_key: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  decided_at: Date | null;
  /** The reviewer's reason of a rejected withdrawal (0018). */
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A customer's loan (0021): 0 waiting for review, 1 active, 2 rejected, 100 repaid. */
export interface LoanTable {
  id: Generated<number>;
  uid: number;
  amount: string;
  days: number;
  guarantor_uid: number;
  remark: string;
  status: ColumnType<number, number | undefined, number>;
  owed: string;
  reject_reason: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  approved_at: Date | null;
  repayment_date: Date | null;
  decided_at: Date | null;
  ended_at: Date | null;
}

/** A repayment of a loan (0021): 0 waiting for review, 1 approved, 2 rejected. */
export interface LoanRepaymentTable {
  id: Generated<number>;
  loan_id: number;
  uid: number;
  amount: string;
  amount_owed: string;
  status: ColumnType<number, number | undefined, number>;
  reject_reason: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  decided_at: Date | null;
}

/** One row per customer and verification level: the lock every submission of that level takes. */
export interface IdentityVerificationTable {
  uid: number;
  level: 'full' | 'junior';
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** One identity submission; the latest of a customer's level is their status. The number is sealed (key_id) and masked, never clear. */
export interface IdentitySubmissionTable {
  id: Generated<number>;
  uid: number;
  level: 'full' | 'junior';
  status: ColumnType<'pending' | 'approved' | 'rejected' | 'replaced', 'pending' | undefined, 'approved' | 'rejected' | 'replaced'>;
  real_name: string;
  id_type: number;
  auth_email: ColumnType<string, string | undefined, string>;
  id_card_sealed: string;
  id_card_masked: string;
  key_id: string;
  front_file_id: string | null;
  reverse_file_id: string | null;
  avatar_file_id: string | null;
  locale: string;
  failure_reason: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  decided_at: Date | null;
  /** A keyed hash of the document number (0038-verified-documents); null for older rows. */
  document_digest: ColumnType<string | null, string | null | undefined, never>;
}

/** An approved document number's keyed hash and the one account it verified (0038). */
export interface VerifiedDocumentTable {
  digest: string;
  uid: number;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** The holder of a role that runs in one process at a time, until `expires_at` unless renewed (0024). */
export interface LeaderLeaseTable {
  role: string;
  holder: string;
  expires_at: Date;
  acquired_at: ColumnType<Date, Date | undefined, Date>;
  /** Take-overs of the role so far (0042): raised by each, kept by renewals; what a leader publishes and writes is fenced by it. */
  epoch: ColumnType<string | number, string | number | undefined, string | number>;
}

/** A mail or SMS waiting for, or past, its delivery; its content sealed with the data key (key_id) until sent. */
export interface OutboxMessageTable {
  id: ColumnType<string | number, never, never>;
  channel: 'email' | 'sms';
  sealed: string | null;
  key_id: string;
  status: ColumnType<'pending' | 'sending' | 'failed' | 'sent', 'pending' | undefined, 'pending' | 'sending' | 'failed' | 'sent'>;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: Date;
  claimed_until: Date | null;
  created_at: Date;
  sent_at: Date | null;
}

/** One fixed window of a rate limit, shared by every server process. */
export interface RateLimitTable {
  key: string;
  window_start: Date;
  hits: number;
  expires_at: Date;
}

/** One open socket counted against a connection limit, under its process's lease. */
export interface OpenConnectionTable {
  id: string;
  key: string;
  holder: string;
  lease_until: Date;
}

/** Per verification level, the withdrawal limits and the largest single deposit in USD (0026). */
export interface WithdrawalLimitTable {
  level: 'none' | 'junior' | 'full';
  daily_withdraw_usd: string;
  monthly_withdraw_usd: string;
  deposit_max_usd: string;
  updated_at: Generated<Date>;
}

/** A browser that signed in to an account: its device cookie's nonce (hashed) and its failures in a row. */
export interface TrustedDeviceTable {
  id: string;
  account: string;
  failures: ColumnType<number, number | undefined, number>;
  last_failure_at: ColumnType<Date, Date | undefined, Date>;
  created_at: Date;
  expires_at: Date;
}

/** A sign-in code sent to an account: spent once, within its time. */
export interface SignInCodeTable {
  id: ColumnType<string | number, never, never>;
  account: string;
  code_hash: string;
  created_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}
