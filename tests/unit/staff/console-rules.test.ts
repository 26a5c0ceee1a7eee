import { describe, expect, it } from 'vitest';
import type { Product } from '../../../src/shared/api/market';
import { describeChange } from '../../../src/staff/pages/audit-change';
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

describe('an audit row read by a person', () => {
  it('lists the fields that differ with their before and after values', () => {
    expect(describeChange({ tradeProhibited: false, reason: null }, { tradeProhibited: true, reason: 'chargeback' })).toEqual([
      { field: 'tradeProhibited', before: 'false', after: 'true' },
      { field: 'reason', before: 'null', after: 'chargeback' },
    ]);
  });

  it('follows nested fields by their path and shows what was absent as a dash', () => {
    expect(describeChange({ fields: { spread: '0.5' } }, { fields: { spread: '0.7', feeRate: '0.002' } })).toEqual([
      { field: 'fields.spread', before: '0.5', after: '0.7' },
      { field: 'fields.feeRate', before: '—', after: '0.002' },
    ]);
  });

  it('shows a created value against nothing, and a switched scalar as one line', () => {
    expect(describeChange(false, true)).toEqual([{ field: '', before: 'false', after: 'true' }]);
    expect(describeChange(null, { title: 'Hello', count: 1 })).toEqual([
      { field: 'title', before: '—', after: 'Hello' },
      { field: 'count', before: '—', after: '1' },
    ]);
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
