import * as z from 'zod/mini';
import { contract, noBody } from './contract';
import { decimalString } from './envelope';
import { passwordMaxLength } from '../auth/validation';
import { signInCodeLength } from '../auth/sign-in-code';
import { productSchema } from './market';
import { optionOrder, optionProduct } from './options';
import { tradeOrder } from './trading';
import { withdrawFeeTypes } from '../money/currency-config';
import { limitsByLevelInput, verificationLevels } from '../money/withdrawal-limits';
import { openReviewFilter, reviewDecisions, reviewKinds, reviewStatuses, staffRoles } from '../staff/roles';

/**
 * The staff back office (../shared/API.md "Staff back office"), under `{apiRoot}/v1/staff/`.
 * Staff tokens are not customers' tokens: each side's token answers 401 on the other's paths.
 * Every call but `login` and `refresh` takes a staff bearer token; until a new staff member
 * has changed the one-time password, every call but `me`, `password` and `logout` is refused.
 */

export const staffPathPrefix = '/v1/staff/';

const email = z.string().check(z.trim(), z.toLowerCase(), z.email(), z.maxLength(254));
const password = z.string().check(z.minLength(1), z.maxLength(passwordMaxLength));
const totpCode = z.string().check(z.trim(), z.regex(/^\d{6}$/));
const role = z.enum(staffRoles);
const roles = z.array(role).check(z.minLength(1), z.maxLength(staffRoles.length), z.refine((list) => new Set(list).size === list.length, 'roles repeat'));
const page = z._default(z.int().check(z.minimum(1)), 1);
const limit = z._default(z.int().check(z.minimum(1), z.maximum(100)), 20);
const uid = z.int().check(z.positive());
const staffId = z.int().check(z.positive());
/** Why a staff member did something: kept in the audit trail. */
const reason = z.string().check(z.trim(), z.minLength(1), z.maxLength(500));
const timeMs = z.int();
const paged = <T extends z.ZodMiniType>(row: T) => z.object({ list: z.array(row), pages: z.int().check(z.minimum(0)) });

// ── Sign-in and the staff member's own account ──────────────────────────────

export const staffLogin = contract(
  '/v1/staff/login',
  z.strictObject({ email, password, code: totpCode, signInCode: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(signInCodeLength * 2))) }),
  z.object({ token: z.string(), refreshToken: z.string(), roles: z.array(role), mustChangePassword: z.boolean() }),
);
/** A sign-in code to the member's e-mail (for `login`'s signInCode while the account's delay runs); the same answer for any address. */
export const staffLoginCode = contract('/v1/staff/login/code', z.strictObject({ email }), z.null());
export const staffRefresh = contract('/v1/staff/refresh', z.strictObject({ refreshToken: z.string().check(z.minLength(1), z.maxLength(2000)) }), z.object({ token: z.string(), refreshToken: z.string() }));
export const staffLogout = contract('/v1/staff/logout', z.strictObject({ refreshToken: z.string().check(z.minLength(1), z.maxLength(2000)) }), z.null());
export const staffMe = contract('/v1/staff/me', noBody, z.object({ staffId, email: z.string(), roles: z.array(role), mustChangePassword: z.boolean() }));
export const staffPassword = contract('/v1/staff/password', z.strictObject({ oldPassword: password, newPassword: password }), z.null());

// ── Conflict of interest: the member's own identity document and customer accounts ─

/** A document number as typed: at least 4 characters besides spaces and dashes (conflict-of-interest.ts reads it canonically). */
const documentNumber = z.string().check(z.trim(), z.maxLength(64), z.refine((value) => value.replace(/[\s-]/g, '').length >= 4, 'documentNumber: at least 4 characters'));
export const staffDeclarations = contract(
  '/v1/staff/me/declarations',
  noBody,
  z.object({
    /** The member's declared document as staff see numbers (its first and last 2 characters); null until declared. */
    document: z.nullable(z.object({ masked: z.string(), declaredTime: timeMs })),
    /** Customer accounts recorded as the member's own, oldest first, and who recorded each. */
    accounts: z.array(z.object({ uid, recordedBy: z.string(), time: timeMs })),
  }),
);
/** Declares the member's own identity document, once (2020 when declared already, or by another member). */
export const staffDeclareDocument = contract('/v1/staff/me/declareDocument', z.strictObject({ documentNumber }), z.null());
/** Declares a customer account (by its UID) as the member's own: they decide none of its review items. */
export const staffDeclareAccount = contract('/v1/staff/me/declareAccount', z.strictObject({ uid }), z.null());

// ── Staff management (admin) ────────────────────────────────────────────────

export const staffMember = z.object({
  staffId,
  email: z.string(),
  roles: z.array(role),
  disabled: z.boolean(),
  mustChangePassword: z.boolean(),
  /** False while an invited member has not yet set their password and confirmed their authenticator. */
  enrolled: z.boolean(),
  /** A member not enrolled yet: when their latest link stops (or stopped) working; null once enrolled. */
  invitationExpiresTime: z.nullable(timeMs),
  createdTime: timeMs,
  lastSignInTime: z.nullable(timeMs),
  /** Whether the member declared their own identity document (they decide no review item before). */
  documentDeclared: z.boolean(),
  /** Customer accounts recorded as the member's own. */
  linkedUids: z.array(uid),
});
export type StaffMember = z.infer<typeof staffMember>;

export const staffList = contract('/v1/staff/staff/list', z.strictObject({ page, limit }), paged(staffMember));
/** Invites a member: the invitation goes to their address; no password and no secret reach the admin. */
export const staffCreate = contract('/v1/staff/staff/create', z.strictObject({ email, roles }), z.object({ staffId, invitationSentTo: z.string() }));

// ── Enrolment by invitation (anonymous: the link's token is the credential) ─

/** The token of an invitation link (32 random bytes, base64url). */
const invitationToken = z.string().check(z.trim(), z.minLength(16), z.maxLength(128));
export const staffEnrol = contract('/v1/staff/enrol', z.strictObject({ token: invitationToken, password }), z.object({ otpauthUrl: z.string() }));
export const staffEnrolConfirm = contract('/v1/staff/enrol/confirm', z.strictObject({ token: invitationToken, code: totpCode }), z.null());
/** A member not enrolled yet gets a new invitation; their older links stop working. */
export const staffResendInvitation = contract('/v1/staff/staff/resendInvitation', z.strictObject({ staffId }), z.object({ staffId, invitationSentTo: z.string() }));
export const staffSetRoles = contract('/v1/staff/staff/setRoles', z.strictObject({ staffId, roles }), z.null());
export const staffDisable = contract('/v1/staff/staff/disable', z.strictObject({ staffId }), z.null());
/** Records a customer account as another member's own (compliance, admin): what a member left undeclared. */
export const staffRecordAccountLink = contract('/v1/staff/staff/recordAccountLink', z.strictObject({ staffId, uid }), z.null());

// ── Customers ───────────────────────────────────────────────────────────────

export const customerRow = z.object({
  uid,
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  nick: z.string(),
  createdTime: timeMs,
  tradeProhibited: z.boolean(),
  blocked: z.boolean(),
  verifiedStatus: z.int(),
});
export type CustomerRow = z.infer<typeof customerRow>;

export const customersSearch = contract(
  '/v1/staff/customers/search',
  z.strictObject({ query: z.string().check(z.trim(), z.minLength(1), z.maxLength(254)), page, limit }),
  paged(customerRow),
);

const bookBalance = z.object({ balanceAmount: decimalString, lockMargin: decimalString });

export const customerDetail = z.object({
  profile: z.extend(customerRow, {
    registerType: z.string(),
    locale: z.string(),
    inviteCode: z.string(),
    twoFactorEnabled: z.boolean(),
    /** The reason given when trading was last prohibited or allowed; null when never changed. */
    tradeProhibitedReason: z.nullable(z.string()),
    /** Whether finance blocked the customer's deposits, and the reason given; null when not blocked. */
    depositBlocked: z.boolean(),
    depositBlockReason: z.nullable(z.string()),
  }),
  balances: z.object({ real: bookBalance, demo: bookBalance }),
  /** One row per currency wallet (empty until the money part has wallets). */
  wallets: z.array(z.object({ currency: z.string(), balance: decimalString })),
  verification: z.object({ verifiedStatus: z.int() }),
  openOrders: z.array(z.extend(tradeOrder, { book: z.enum(['real', 'demo']) })),
  openOptions: z.array(z.extend(optionOrder, { book: z.enum(['real', 'demo']) })),
});
export type CustomerDetail = z.infer<typeof customerDetail>;

export const customersGet = contract('/v1/staff/customers/get', z.strictObject({ uid }), customerDetail);

/** One line of a journal that touched the customer's accounts. */
export const ledgerLine = z.object({
  journalId: z.int(),
  journalKind: z.string(),
  /** The account's book and kind, e.g. `real` / `cash`. */
  book: z.string(),
  accountKind: z.string(),
  amount: decimalString,
  time: timeMs,
  reference: z.nullable(z.string()),
});
export type LedgerLine = z.infer<typeof ledgerLine>;

export const customersLedger = contract('/v1/staff/customers/ledger', z.strictObject({ uid, page, limit }), paged(ledgerLine));
export const customersSetTradingProhibited = contract(
  '/v1/staff/customers/setTradingProhibited',
  z.strictObject({ uid, prohibited: z.boolean(), reason }),
  z.null(),
);
export const customersSetDepositBlocked = contract(
  '/v1/staff/customers/setDepositBlocked',
  z.strictObject({ uid, blocked: z.boolean(), reason }),
  z.null(),
);
/** A customer's own deposit address on a coin network (walletType 1 while they have any); '' removes it. */
export const customersSetOwnDepositAddress = contract(
  '/v1/staff/customers/setOwnDepositAddress',
  z.strictObject({ uid, coinId: z.int().check(z.positive()), address: z.string().check(z.trim(), z.maxLength(128)), reason }),
  z.null(),
);
export const customersEndSessions = contract('/v1/staff/customers/endSessions', z.strictObject({ uid, reason }), z.null());

// ── Review queues ───────────────────────────────────────────────────────────

export const reviewKind = z.enum(reviewKinds);
export const reviewStatus = z.enum(reviewStatuses);

export const reviewItem = z.object({
  id: z.int(),
  kind: reviewKind,
  status: reviewStatus,
  uid,
  /** The kind's facts to show (amount, currency, name…), as label → value; values are display strings. */
  facts: z.record(z.string(), z.string()),
  /** The item's worth in USD where it has one (four-eyes compares it with FOUR_EYES_USD). */
  amountUsd: z.nullable(decimalString),
  /** Whether a second, different approver is needed. */
  needsTwoApprovals: z.boolean(),
  createdTime: timeMs,
  decidedTime: z.nullable(timeMs),
});
export type ReviewItem = z.infer<typeof reviewItem>;

export const reviewsList = contract(
  '/v1/staff/reviews/list',
  // `open`: pending or awaiting a second approval, what a reviewer's queue shows first.
  z.strictObject({ kind: reviewKind, status: z.optional(z.union([reviewStatus, z.literal(openReviewFilter)])), page, limit }),
  z.extend(paged(reviewItem), {
    /** Open items (pending or awaiting a second approval) per kind the caller may review. */
    counts: z.partialRecord(reviewKind, z.int().check(z.minimum(0))),
  }),
);

export const reviewDecisionRow = z.object({
  staff: z.string(),
  decision: z.enum(reviewDecisions),
  reason: z.nullable(z.string()),
  time: timeMs,
  /** When a first approval was voided (its approver disabled before the second one); null while it stands. */
  voidedTime: z._default(z.nullable(timeMs), null),
});

export const reviewsGet = contract(
  '/v1/staff/reviews/get',
  z.strictObject({ kind: reviewKind, id: z.int().check(z.positive()) }),
  z.object({
    item: reviewItem,
    /** Files through the authorised staff file route (`GET /v1/staff/file/{fileId}`). */
    files: z.array(z.object({ name: z.string(), url: z.string() })),
    decisions: z.array(reviewDecisionRow),
  }),
);

export const reviewsDecide = contract(
  '/v1/staff/reviews/decide',
  z.strictObject({
    kind: reviewKind,
    id: z.int().check(z.positive()),
    decision: z.enum(reviewDecisions),
    reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
    requestId: z.string().check(z.trim(), z.minLength(8), z.maxLength(64)),
  }),
  z.object({ status: reviewStatus }),
);

// ── Audit trail (compliance) ────────────────────────────────────────────────

export const auditRow = z.object({
  id: z.int(),
  staffId: z.nullable(z.int()),
  staffEmail: z.nullable(z.string()),
  action: z.string(),
  targetType: z.string(),
  targetId: z.nullable(z.string()),
  before: z.unknown(),
  after: z.unknown(),
  time: timeMs,
  address: z.nullable(z.string()),
});
export type AuditRow = z.infer<typeof auditRow>;

export const auditList = contract(
  '/v1/staff/audit/list',
  z.strictObject({ page, limit, staffId: z.optional(staffId), uid: z.optional(uid), action: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))) }),
  paged(auditRow),
);

// ── Configuration (admin) ───────────────────────────────────────────────────

export const configSwitches = contract('/v1/staff/config/switches', noBody, z.object({ items: z.array(z.object({ name: z.string(), enable: z.boolean() })) }));
export const configSetSwitch = contract('/v1/staff/config/setSwitch', z.strictObject({ name: z.string().check(z.trim(), z.minLength(1), z.maxLength(64)), enable: z.boolean() }), z.null());

/** What staff may change on a product: never a price. */
export const productFields = z.strictObject({
  tradeStatus: z.optional(z.union([z.literal(0), z.literal(1)])),
  spread: z.optional(decimalString),
  feeRate: z.optional(decimalString),
  overnightRate: z.optional(decimalString),
  /** The highest leverage offered; the ticket offers the standard steps up to it. */
  multiple: z.optional(z.int().check(z.minimum(1), z.maximum(1000))),
  minCount: z.optional(decimalString),
  maxCount: z.optional(decimalString),
});
export type ProductFields = z.infer<typeof productFields>;

export const configProducts = contract('/v1/staff/config/products', noBody, z.object({ list: z.array(productSchema) }));
/** What a dual-controlled change answers: it waits for a second admin (config/proposals/decide). */
export const proposedChange = z.object({ proposalId: z.int().check(z.positive()), status: z.literal('proposed') });
export const configSetProduct = contract('/v1/staff/config/setProduct', z.strictObject({ productCode: z.string().check(z.trim(), z.minLength(1), z.maxLength(32)), fields: productFields }), proposedChange);
export const configOptionProducts = contract('/v1/staff/config/optionProducts', noBody, z.object({ list: z.array(optionProduct) }));
export const configSetOptionProduct = contract(
  '/v1/staff/config/setOptionProduct',
  z.strictObject({
    id: z.int().check(z.positive()),
    tradeStatus: z.union([z.literal(0), z.literal(1)]),
    feeRate: decimalString,
    timeRatePayload: z.record(z.string().check(z.maxLength(8)), z.string().check(z.maxLength(200))),
  }),
  proposedChange,
);

export const staffBannerRow = z.strictObject({ bannerUrl: z.string().check(z.trim(), z.minLength(1), z.maxLength(500)), sort: z.int().check(z.minimum(0), z.maximum(9999)), active: z.boolean() });
export const configBanners = contract('/v1/staff/config/banners', noBody, z.object({ rows: z.array(staffBannerRow) }));
export const configSetBanners = contract('/v1/staff/config/setBanners', z.strictObject({ rows: z.array(staffBannerRow).check(z.maxLength(20)) }), z.null());
export const configServiceLink = contract('/v1/staff/config/serviceLink', noBody, z.object({ value: z.string() }));
export const configSetServiceLink = contract('/v1/staff/config/setServiceLink', z.strictObject({ value: z.string().check(z.trim(), z.maxLength(500)) }), z.null());

// Currencies and their networks (admin). Contents are checked by src/shared/money/currency-config.ts (1016).
const configId = z.int().check(z.positive());
export const staffCoinNetwork = z.object({
  id: configId,
  currencyId: configId,
  network: z.string(),
  depositAddress: z.string(),
  minWithdraw: decimalString,
  maxWithdraw: decimalString,
  withdrawFeeType: z.enum(withdrawFeeTypes),
  withdrawFee: decimalString,
  enabled: z.boolean(),
});
export type StaffCoinNetwork = z.infer<typeof staffCoinNetwork>;
export const staffCurrency = z.object({
  id: configId,
  code: z.string(),
  name: z.string(),
  decimals: z.int(),
  icon: z.string(),
  /** The market product whose live price values it in USD; null when USD-pegged. */
  valuedByProduct: z.nullable(z.string()),
  transferFeeRate: decimalString,
  enabled: z.boolean(),
  sort: z.int(),
  networks: z.array(staffCoinNetwork),
});
export type StaffCurrency = z.infer<typeof staffCurrency>;
export const configCurrencies = contract('/v1/staff/config/currencies', noBody, z.object({ list: z.array(staffCurrency) }));
/** Adds a currency (no id) or changes one (its id; the code of an existing currency never changes). */
export const configSetCurrency = contract(
  '/v1/staff/config/setCurrency',
  z.strictObject({
    id: z.optional(configId),
    code: z.string().check(z.trim(), z.maxLength(12)),
    name: z.string().check(z.maxLength(60)),
    decimals: z.int(),
    icon: z._default(z.string().check(z.trim(), z.maxLength(300)), ''),
    valuedByProduct: z.nullable(z.string().check(z.trim(), z.maxLength(32))),
    transferFeeRate: z.string().check(z.trim(), z.maxLength(40)),
    enabled: z.boolean(),
    sort: z.int(),
  }),
  proposedChange,
);
export type ConfigSetCurrencyBody = z.input<typeof configSetCurrency.body>;
/** Adds a network to a currency (no id) or changes one (its id; it stays on its currency). */
export const configSetCoinNetwork = contract(
  '/v1/staff/config/setCoinNetwork',
  z.strictObject({
    id: z.optional(configId),
    currencyId: configId,
    network: z.string().check(z.maxLength(32)),
    depositAddress: z.string().check(z.trim(), z.maxLength(128)),
    minWithdraw: z.string().check(z.trim(), z.maxLength(40)),
    maxWithdraw: z.string().check(z.trim(), z.maxLength(40)),
    withdrawFeeType: z.string().check(z.maxLength(20)),
    withdrawFee: z.string().check(z.trim(), z.maxLength(40)),
    enabled: z.boolean(),
  }),
  proposedChange,
);
export type ConfigSetCoinNetworkBody = z.input<typeof configSetCoinNetwork.body>;

// Dual control (admin): changes that move money wait for a second admin.
export const proposalStatuses = ['proposed', 'approved', 'rejected', 'voided'] as const;
export type ProposalStatus = (typeof proposalStatuses)[number];
export const configProposal = z.object({
  id: z.int(),
  /** The registered kind: currency, product, optionProduct (and any the server adds). */
  kind: z.string(),
  /** The setting it changes (a currency id or code, a product code); null for a new one. */
  target: z.nullable(z.string()),
  status: z.enum(proposalStatuses),
  proposedBy: z.object({ staffId: z.int(), email: z.string() }),
  proposedTime: timeMs,
  /** The setting when proposed and what it becomes on approval. */
  before: z.unknown(),
  after: z.unknown(),
  decidedBy: z.nullable(z.object({ staffId: z.int(), email: z.string() })),
  decidedTime: z.nullable(timeMs),
  reason: z.nullable(z.string()),
});
export type ConfigProposal = z.infer<typeof configProposal>;
export const configProposalsList = contract(
  '/v1/staff/config/proposals/list',
  z.strictObject({ status: z.optional(z.enum(proposalStatuses)), page, limit }),
  paged(configProposal),
);
export const configProposalsDecide = contract(
  '/v1/staff/config/proposals/decide',
  z.strictObject({
    proposalId: z.int().check(z.positive()),
    decision: z.enum(reviewDecisions),
    reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
    requestId: z.string().check(z.trim(), z.minLength(8), z.maxLength(64)),
  }),
  z.object({ status: z.enum(proposalStatuses) }),
);
// Limits by verification level (admin; issue 31). The contents' rules: src/shared/money/withdrawal-limits.ts.
const levelLimits = z.object({ dailyWithdrawUsd: decimalString, monthlyWithdrawUsd: decimalString, depositMaxUsd: decimalString });
export const configLimits = contract(
  '/v1/staff/config/limits',
  noBody,
  z.object({
    limits: z.object({ none: levelLimits, junior: levelLimits, full: levelLimits }),
    /** The server's settings around them: every deposit's maximum (DEPOSIT_MAX_USD), the cooling-off, the level a withdrawal needs. */
    depositMaxUsd: decimalString,
    holdSeconds: z.int(),
    withdrawMinLevel: z.enum(verificationLevels),
  }),
);
export const configSetLimits = contract('/v1/staff/config/setLimits', z.strictObject({ limits: limitsByLevelInput }), proposedChange);

// ── Notices (support) ───────────────────────────────────────────────────────

export const noticesSend = contract(
  '/v1/staff/notices/send',
  z.strictObject({ uid: z.optional(uid), title: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)), content: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)) }),
  z.object({ count: z.int().check(z.minimum(0)) }),
);
