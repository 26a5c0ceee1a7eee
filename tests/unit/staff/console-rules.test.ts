import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/shared/api/market';
import staffEnglish from '../../../src/staff/i18n/en.json';
import { auditTargetText, auditTargetTypes, changeFieldLabelKey, changeFieldLabelParts, describeChange, type ChangeWords } from '../../../src/staff/pages/audit-change';
import { describeFacts } from '../../../src/staff/pages/review-facts';
import { changedProductFields, holdDuration, productDraftOf, productDraftProblem } from '../../../src/staff/pages/config-rules';

const product: Product = {
  productCode: 'BTCUSDT',
  productName: 'Bitcoin',
  productType: 1,
  tradeStatus: 1,
  pricePrecision: 2,
  pip: '0.01',
  multiple: 100,
  minCount: '0.01',
  maxCount: '100',
  countNum: 2,
  logoUrl: '',
  sort: 1,
  marketStartTime: [0, 0, 0, 0, 0, 0, 0],
  marketCloseTime: [86399, 86399, 86399, 86399, 86399, 86399, 86399],
  contractSize: '1',
  spread: '0.5',
  feeRate: '0.001',
  overnightRate: '0.0002',
};

describe('the product form', () => {
  it('sends only the fields that changed, comparing decimals by value', () => {
    const draft = { ...productDraftOf(product), spread: '0.50', feeRate: '0.002', tradeStatus: '0', multiple: '50' };
    expect(changedProductFields(product, draft)).toEqual({ feeRate: '0.002', tradeStatus: 0, multiple: 50 });
    expect(changedProductFields(product, productDraftOf(product))).toEqual({});
  });

  it('names the field the shared product rule refuses', () => {
    expect(productDraftProblem(product, productDraftOf(product))).toBeNull();
    expect(productDraftProblem(product, { ...productDraftOf(product), feeRate: '1' })?.field).toBe('feeRate');
    expect(productDraftProblem(product, { ...productDraftOf(product), multiple: '1001' })?.field).toBe('multiple');
    expect(productDraftProblem(product, { ...productDraftOf(product), multiple: '2.5' })?.field).toBe('multiple');
    expect(productDraftProblem(product, { ...productDraftOf(product), minCount: '200' })?.field).toBe('maxCount');
    expect(productDraftProblem(product, { ...productDraftOf(product), minCount: '0.015' })?.field).toBe('minCount');
  });
});

const words: ChangeWords = {
  yes: 'yes',
  no: 'no',
  role: (code) => `${code[0]?.toUpperCase()}${code.slice(1)} role`,
  amount: (value) => `grouped ${value}`,
  time: (ms) => new Date(ms).toISOString(),
  word: (field, code) => (code === 'pending' || code === 'approve' || code === 'withdrawal' ? `${field}:${code}` : null),
};

describe('an audit row read by a person', () => {
  it('lists the fields that differ with their before and after values', () => {
    expect(describeChange({ tradeProhibited: false, reason: null }, { tradeProhibited: true, reason: 'chargeback' }, words)).toEqual([
      { field: 'tradeProhibited', before: 'no', after: 'yes' },
      { field: 'reason', before: '—', after: 'chargeback' },
    ]);
  });

  it('follows nested fields by their path and shows what was absent as a dash', () => {
    expect(describeChange({ fields: { spread: '0.5' } }, { fields: { spread: '0.7', feeRate: '0.002' } }, words)).toEqual([
      { field: 'fields.spread', before: '0.5', after: '0.7' },
      { field: 'fields.feeRate', before: '—', after: '0.002' },
    ]);
  });

  it('shows a created value against nothing, and a switched scalar as one line', () => {
    expect(describeChange(false, true, words)).toEqual([{ field: '', before: 'no', after: 'yes' }]);
    expect(describeChange(null, { title: 'Hello', count: 1 }, words)).toEqual([
      { field: 'title', before: '—', after: 'Hello' },
      { field: 'count', before: '—', after: '1' },
    ]);
  });

  it('names roles in a list of roles, lists other arrays plainly, and labels known fields', () => {
    expect(describeChange({ roles: ['support'] }, { roles: ['admin', 'finance'] }, words)).toEqual([{ field: 'roles', before: 'Support role', after: 'Admin role, Finance role' }]);
    expect(describeChange(null, { shown: [3, 4] }, words)).toEqual([{ field: 'shown', before: '—', after: '3, 4' }]);
    expect(describeChange({ roles: ['admin'] }, { roles: [] }, words)).toEqual([{ field: 'roles', before: 'Admin role', after: '—' }]);
    expect(changeFieldLabelKey('fields.spread')).toBe('staff.products.spread');
    expect(changeFieldLabelKey('tradeProhibited')).toBe('staff.audit.fields.tradeProhibited');
    expect(changeFieldLabelKey('somethingNew')).toBeNull();
  });

  it('formats amounts, times and coded words, and lists rows by their position', () => {
    expect(describeChange({ limits: { none: { dailyWithdrawUsd: '1000.00' } } }, { limits: { none: { dailyWithdrawUsd: '1500000.00' } } }, words)).toEqual([
      { field: 'limits.none.dailyWithdrawUsd', before: 'grouped 1000.00', after: 'grouped 1500000.00' },
    ]);
    expect(describeChange({ invitationExpiresTime: null }, { invitationExpiresTime: Date.UTC(2026, 0, 2) }, words)).toEqual([
      { field: 'invitationExpiresTime', before: '—', after: '2026-01-02T00:00:00.000Z' },
    ]);
    expect(describeChange({ kind: 'withdrawal', status: 'pending' }, { kind: 'withdrawal', status: 'approved', decision: 'approve' }, words)).toEqual([
      { field: 'status', before: 'status:pending', after: 'approved' },
      { field: 'decision', before: '—', after: 'decision:approve' },
    ]);
    expect(describeChange([{ bannerUrl: '/a.svg', active: true }], [{ bannerUrl: '/a.svg', active: false }, { bannerUrl: '/b.svg', active: true }], words)).toEqual([
      { field: '0.active', before: 'yes', after: 'no' },
      { field: '1.bannerUrl', before: '—', after: '/b.svg' },
      { field: '1.active', before: '—', after: 'yes' },
    ]);
  });

  it("reads a proposal against the setting it would change, and leaves out what reads the same on both sides", () => {
    const setting = { none: { dailyWithdrawUsd: '1000.00', monthlyWithdrawUsd: '5000.00' } };
    const proposed = { none: { dailyWithdrawUsd: '2000.00', monthlyWithdrawUsd: '5000.00' } };
    expect(describeChange(setting, { proposalId: 7, kind: 'limits', proposed }, words)).toEqual([
      { field: 'proposed.none.dailyWithdrawUsd', before: 'grouped 1000.00', after: 'grouped 2000.00' },
      { field: 'proposalId', before: '—', after: '7' },
      { field: 'kind', before: '—', after: 'limits' },
    ]);
    expect(describeChange(null, { kind: 'deposit', status: null }, words)).toEqual([{ field: 'kind', before: '—', after: 'deposit' }]);
  });

  it('labels every part of a nested field: levels, positions and delivery times', () => {
    expect(changeFieldLabelParts('proposed.none.dailyWithdrawUsd')).toEqual([{ key: 'staff.audit.fields.proposed' }, { key: 'staff.limits.levels.none' }, { key: 'staff.limits.dailyWithdrawUsd' }]);
    expect(changeFieldLabelParts('1.bannerUrl')).toEqual([{ text: '2' }, { key: 'staff.audit.fields.bannerUrl' }]);
    expect(changeFieldLabelParts('setting.timeRatePayload.3')).toEqual([{ key: 'staff.audit.fields.setting' }, { key: 'staff.options.entries' }, { key: 'staff.options.entry_value', params: { index: '3' } }]);
    expect(changeFieldLabelParts('fields.spread')).toEqual([{ key: 'staff.products.spread' }]);
    expect(changeFieldLabelParts('')).toEqual([]);
  });
});

describe('review facts', () => {
  it('labels the facts the server sends and formats their values at their own precision', () => {
    const rows = describeFacts({ amount: '0.01234567', amountUsd: '12500.5', locale: 'de', channel: 'bank card', 'Real name': 'Ana Lima', unknown: 'x' }, { grouping: true });
    expect(rows).toEqual([
      { field: 'amount', labelKey: 'staff.facts.amount', value: '0.01234567', valueKey: null },
      { field: 'amountUsd', labelKey: 'staff.facts.amountUsd', value: '12,500.5 USD', valueKey: null },
      { field: 'locale', labelKey: 'staff.facts.locale', value: 'Deutsch', valueKey: null },
      { field: 'channel', labelKey: 'staff.facts.channel', value: null, valueKey: 'staff.facts.channels.bank' },
      { field: 'Real name', labelKey: 'staff.facts.realName', value: 'Ana Lima', valueKey: null },
      { field: 'unknown', labelKey: null, value: 'x', valueKey: null },
    ]);
    expect(describeFacts({ amount: '12500.50' }, { grouping: false })[0]?.value).toBe('12500.50');
  });

  it('has a console string for every label and value it names', () => {
    const keys = describeFacts(
      { currency: '', network: '', channel: 'crypto address', amount: '1', fee: '1', practical: '1', amountUsd: '1', last24hUsd: '1', paidTo: '', destination: '', locale: 'en', days: '', guarantor: '', remark: '', loan: '', owedBefore: '1', owedAfter: '1', canceled: '', 'Real name': '', 'Document type': '', 'Document number': '', 'E-mail': '', Language: 'en', 'Earlier submission': '' },
      { grouping: false },
    ).flatMap((fact) => [fact.labelKey, fact.valueKey]);
    const missing = keys.filter((key): key is string => key !== null).filter((key) => typeof key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], staffEnglish) !== 'string');
    expect(missing).toEqual([]);
  });
});

describe('the cooling-off named on the limits tab', () => {
  it('says whole hours in hours and anything else in minutes, never 0 h for a short hold', () => {
    expect(holdDuration(86_400)).toEqual({ unit: 'hours', count: 24 });
    expect(holdDuration(1800)).toEqual({ unit: 'minutes', count: 30 });
    expect(holdDuration(240)).toEqual({ unit: 'minutes', count: 4 });
    expect(holdDuration(5400)).toEqual({ unit: 'minutes', count: 90 });
    expect(holdDuration(61)).toEqual({ unit: 'minutes', count: 2 });
    expect(holdDuration(0)).toEqual({ unit: 'hours', count: 0 });
  });
});

describe("an audit row's target", () => {
  const german: Record<string, string> = { customer: 'Kunde', staff: 'Mitarbeiter', switch: 'Schalter', review: 'Prüfung' };
  const label = (type: string) => german[type] ?? type;

  it('reads as the kind and the id the way that kind is known', () => {
    expect(auditTargetText('customer', '1007', label)).toBe('Kunde UID 1007');
    expect(auditTargetText('staff', '3', label)).toBe('Mitarbeiter #3');
    expect(auditTargetText('switch', 'Contract', label)).toBe('Schalter Contract');
  });

  it('is the kind alone when the row names no one thing, and a kind the console does not know shows as stored', () => {
    expect(auditTargetText('review', null, label)).toBe('Prüfung');
    expect(auditTargetText('wallet', '12', label)).toBe('wallet 12');
  });

  it('has a label for every kind the server records', () => {
    const recorded = new Set<string>();
    for (const entry of fs.readdirSync('server', { recursive: true, withFileTypes: true }) as fs.Dirent[]) {
      if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
      const source = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
      for (const match of source.matchAll(/targetType: '([A-Za-z]+)'/g)) recorded.add(match[1]!);
    }
    expect(recorded.size).toBeGreaterThan(5);
    expect([...recorded].filter((type) => !(auditTargetTypes as readonly string[]).includes(type))).toEqual([]);
  });
});
