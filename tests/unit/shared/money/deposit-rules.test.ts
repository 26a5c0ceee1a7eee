import { describe, expect, it } from 'vitest';
import { depositAmountProblem, depositAmountUnits, minimumDepositUsd } from '../../../../src/shared/money/deposit-rules';
import { money } from '../../../../src/shared/money/money';

describe('deposit rules', () => {
  it('asks for an amount when it is empty or starts with a dot', () => {
    expect(depositAmountProblem('')).toBe('required');
    expect(depositAmountProblem('   ')).toBe('required');
    expect(depositAmountProblem('.5')).toBe('leadingDot');
    expect(depositAmountProblem('12a')).toBe('required');
  });

  it('takes at most 5 decimals and refuses zero', () => {
    expect(depositAmountProblem('100.12345')).toBeNull();
    expect(depositAmountProblem('100.123456')).toBe('tooManyDecimals');
    expect(depositAmountProblem('0')).toBe('notPositive');
    expect(depositAmountProblem('0.00000')).toBe('notPositive');
    expect(depositAmountUnits(' 250.5 ')).toBe(money('250.5'));
  });

  it('sets the minimum by language: 1000 USD in English and Indonesian, 30 in Thai, Japanese and German', () => {
    expect(['en', 'id', 'th', 'ja', 'de', 'DE'].map(minimumDepositUsd)).toEqual(['1000', '1000', '30', '30', '30', '30']);
    // Languages the specification does not name take the English text's minimum.
    expect(minimumDepositUsd('fr')).toBe('1000');
    expect(minimumDepositUsd('xx')).toBe('1000');
  });
});
