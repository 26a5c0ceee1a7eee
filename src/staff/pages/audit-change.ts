/** One changed field of an audit row, as text a person reads. */
export interface ChangeLine {
  /** The field's path (`tradeProhibited`, `fields.spread`); empty when the whole value is a scalar. */
  field: string;
  before: string;
  after: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The words a change's values read in: the console's yes, no, role names, amounts, times and coded words. */
export interface ChangeWords {
  yes: string;
  no: string;
  role: (code: string) => string;
  /** A decimal amount grouped the brand's way, its decimals kept ("1,000,000.00"). */
  amount: (value: string) => string;
  /** A time in milliseconds, in the console's format. */
  time: (ms: number) => string;
  /** A coded value's words (a status, a review kind, a decision), or null when it has none. */
  word: (field: WordField, code: string) => string | null;
}

/** Fields whose value is a money amount (limits, coin networks' bounds and fees). */
const amountFields = new Set(['dailyWithdrawUsd', 'monthlyWithdrawUsd', 'depositMaxUsd', 'minWithdraw', 'maxWithdraw', 'withdrawFee', 'amount']);
/** Fields whose value is a time in milliseconds. */
const timeFields = new Set(['invitationExpiresTime']);
const wordFields = new Set(['status', 'kind', 'decision', 'via'] as const);
/** Fields whose value is a code with words of its own: a status, a review kind, a decision, how a member signed in. */
export type WordField = 'status' | 'kind' | 'decision' | 'via';

function show(value: unknown, field: string, words: ChangeWords): string {
  // Absent and empty (null) read alike: a dash, never the word "null".
  if (value === undefined || value === null) return '—';
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  const name = lastSegment(field);
  if ((typeof value === 'string' || typeof value === 'number') && amountFields.has(name) && /^-?\d+(\.\d+)?$/.test(String(value))) return words.amount(String(value));
  if (typeof value === 'number' && timeFields.has(name)) return words.time(value);
  if (typeof value === 'string' && (wordFields as Set<string>).has(name)) return words.word(name as WordField, value) ?? value;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string' || typeof item === 'number')) {
    if (value.length === 0) return '—';
    const items = value.map(String);
    return (lastSegment(field) === 'roles' ? items.map(words.role) : items).join(', ');
  }
  return JSON.stringify(value);
}

function lastSegment(field: string): string {
  return field.slice(field.lastIndexOf('.') + 1);
}

/**
 * Each audited field with a label the console already has (the screen that edits it), or one
 * of its own under staff.audit.fields; any other keeps its name.
 */
const fieldLabelKeys: Readonly<Record<string, string>> = {
  spread: 'staff.products.spread',
  feeRate: 'staff.products.fee_rate',
  overnightRate: 'staff.products.overnight_rate',
  multiple: 'staff.products.leverage',
  minCount: 'staff.products.min_volume',
  maxCount: 'staff.products.max_volume',
  tradeStatus: 'staff.products.trade_status',
  code: 'staff.currencies.code',
  name: 'staff.currencies.name',
  decimals: 'staff.currencies.decimals',
  icon: 'staff.currencies.icon',
  valuedByProduct: 'staff.currencies.price_product',
  transferFeeRate: 'staff.currencies.transfer_fee_rate',
  enabled: 'staff.currencies.enabled',
  sort: 'staff.currencies.sort',
  network: 'staff.currencies.network',
  depositAddress: 'staff.currencies.deposit_address',
  minWithdraw: 'staff.currencies.min_withdraw',
  maxWithdraw: 'staff.currencies.max_withdraw',
  withdrawFeeType: 'staff.currencies.fee_type',
  withdrawFee: 'staff.currencies.fee',
  dailyWithdrawUsd: 'staff.limits.dailyWithdrawUsd',
  monthlyWithdrawUsd: 'staff.limits.monthlyWithdrawUsd',
  depositMaxUsd: 'staff.limits.depositMaxUsd',
  roles: 'staff.members.roles',
  email: 'staff.members.email',
  status: 'staff.reviews.status',
  kind: 'staff.ledger.kind',
  title: 'staff.notices.title_label',
  tradeProhibited: 'staff.audit.fields.tradeProhibited',
  reason: 'staff.audit.fields.reason',
  blocked: 'staff.audit.fields.blocked',
  liveSessions: 'staff.audit.fields.liveSessions',
  decision: 'staff.audit.fields.decision',
  mustChangePassword: 'staff.audit.fields.mustChangePassword',
  enrolled: 'staff.audit.fields.enrolled',
  passwordSet: 'staff.audit.fields.passwordSet',
  query: 'staff.audit.fields.query',
  page: 'staff.audit.fields.page',
  shown: 'staff.audit.fields.shown',
  via: 'staff.audit.fields.via',
  firstApproverId: 'staff.audit.fields.firstApproverId',
  setting: 'staff.audit.fields.setting',
  proposed: 'staff.audit.fields.proposed',
  proposalId: 'staff.audit.fields.proposalId',
  target: 'staff.audit.target',
  proposedBy: 'staff.proposals.proposed_by',
  invitationExpiresTime: 'staff.audit.fields.invitationExpiresTime',
  to: 'staff.audit.fields.to',
  content: 'staff.audit.fields.content',
  recipients: 'staff.audit.fields.recipients',
  disabled: 'staff.members.state_disabled',
  bannerUrl: 'staff.audit.fields.bannerUrl',
  active: 'staff.banners.active',
  timeRatePayload: 'staff.options.entries',
  productCode: 'staff.audit.fields.productCode',
  enable: 'staff.audit.fields.enable',
  limits: 'staff.audit.fields.limits',
  rows: 'staff.audit.fields.rows',
};

/** Containers whose name adds nothing to their fields' labels (`fields.spread` reads "Spread"). */
const silentSegments = new Set(['fields']);
const levelNames = new Set(['none', 'junior', 'full']);

/** One part of a field's label: a key with its parameters, or text as it is (a number). */
export type LabelPart = { key: string; params?: Record<string, string> } | { text: string };

/**
 * A change's field as the parts of its label, outermost first: `limits.none.dailyWithdrawUsd`
 * reads "Limits › Unverified › Withdrawals per 24 hours", `rows.1.bannerUrl` "Rows › 2 ›
 * Image address", `timeRatePayload.3` "Delivery times › Delivery time 3". A part the console
 * has no label for keeps its name.
 */
export function changeFieldLabelParts(field: string): LabelPart[] {
  if (field === '') return [];
  const segments = field.split('.');
  return segments.flatMap((segment, index): LabelPart[] => {
    const parent = segments[index - 1];
    if (silentSegments.has(segment)) return [];
    if (parent === 'timeRatePayload') return [{ key: 'staff.options.entry_value', params: { index: segment } }];
    if (/^\d+$/.test(segment)) return [{ text: String(Number(segment) + 1) }];
    if (levelNames.has(segment)) return [{ key: `staff.limits.levels.${segment}` }];
    const key = fieldLabelKeys[segment];
    return [key ? { key } : { text: segment }];
  });
}

/** The label key of a change's field (by its last part: `fields.spread` is a spread), or null. */
export function changeFieldLabelKey(field: string): string | null {
  return fieldLabelKeys[lastSegment(field)] ?? null;
}

function flatten(value: unknown, prefix: string, into: Map<string, unknown>) {
  const listOfObjects = Array.isArray(value) && value.some((item) => isPlainObject(item) || Array.isArray(item));
  if ((isPlainObject(value) && Object.keys(value).length > 0) || listOfObjects) {
    // A list of rows (the banners) by each row's position, so a reader sees which one changed.
    for (const [key, inner] of Object.entries(value as object)) flatten(inner, prefix ? `${prefix}.${key}` : key, into);
  } else if (prefix !== '' || (value !== null && value !== undefined)) {
    // A row with nothing before (a creation) or after lists only the other side's fields.
    into.set(prefix, value);
  }
}

/**
 * An audit row's before and after as the fields that differ (nested objects by their paths),
 * so a reader sees "Trading prohibited: No → Yes" rather than two JSON documents.
 */
export function describeChange(before: unknown, after: unknown, words: ChangeWords): ChangeLine[] {
  const left = new Map<string, unknown>();
  const right = new Map<string, unknown>();
  // A proposal's row (config.propose) keeps the setting as it is beside `{ proposalId, kind, proposed }`:
  // read against `proposed`, it lists what the proposal would change, not every field twice.
  const proposing = isPlainObject(after) && isPlainObject(after.proposed) && !(isPlainObject(before) && 'proposed' in before);
  flatten(proposing ? { proposed: before } : before, '', left);
  flatten(after, '', right);
  const fields = [...new Set([...left.keys(), ...right.keys()])];
  return (
    fields
      .map((field) => ({ field, before: show(left.get(field), field, words), after: show(right.get(field), field, words) }))
      // Absent and empty read alike, so a line whose two sides read the same says nothing.
      .filter((line) => line.before !== line.after)
  );
}

/** The kinds of thing an audit row names as its target (server `audit.record` callers' `targetType`). */
export const auditTargetTypes = ['customer', 'staff', 'review', 'file', 'notice', 'proposal', 'switch', 'product', 'optionProduct', 'banners', 'serviceLink', 'currency', 'coinNetwork', 'limits'] as const;
export type AuditTargetType = (typeof auditTargetTypes)[number];

const isAuditTargetType = (type: string): type is AuditTargetType => (auditTargetTypes as readonly string[]).includes(type);

/**
 * An audit row's target as a person reads it: the kind's label and the id the way that kind
 * is known ("Kunde UID 1007", "Mitarbeiter #3", "Schalter Contract"); the kind alone when the
 * row names no one thing (a list read). A kind the console does not know yet shows as stored.
 */
export function auditTargetText(type: string, id: string | null, label: (type: AuditTargetType) => string): string {
  if (!isAuditTargetType(type)) return id ? `${type} ${id}` : type;
  const kind = label(type);
  if (!id) return kind;
  if (type === 'customer') return `${kind} UID ${id}`;
  // Rows of the back office's own tables are known by number; switches, products and currencies by their code.
  if (/^\d+$/.test(id) && ['staff', 'review', 'file', 'notice', 'proposal', 'optionProduct', 'coinNetwork'].includes(type)) return `${kind} #${id}`;
  return `${kind} ${id}`;
}
