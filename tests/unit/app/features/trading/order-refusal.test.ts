import { describe, expect, it } from 'vitest';
import { orderRefusalDecision } from '../../../../../src/app/features/trading/order-refusal';
import { ErrorCode } from '../../../../../src/shared/errors/catalogue';

const insufficient = { kind: 'code', code: ErrorCode.INSUFFICIENT_BALANCE, serverMessage: 'Insufficient available balance' } as const;
const real = { signedIn: true, book: 'real' } as const;
const demo = { signedIn: true, book: 'demo' } as const;

describe('how an order refusal is told', () => {
  it('203 on the demo account is the plain message: no deposit, no switch', () => {
    expect(orderRefusalDecision(insufficient, demo, true)).toEqual({ kind: 'plain' });
    expect(orderRefusalDecision(insufficient, demo, false)).toEqual({ kind: 'plain' });
  });

  it('203 on the real account offers a deposit, and the demo account only when the brand has demo trading', () => {
    expect(orderRefusalDecision(insufficient, real, true)).toEqual({ kind: 'insufficient-real', actions: ['deposit', 'switch-to-demo'] });
    expect(orderRefusalDecision(insufficient, real, false)).toEqual({ kind: 'insufficient-real', actions: ['deposit'] });
    // A session that names no book trades on the real one.
    expect(orderRefusalDecision(insufficient, { signedIn: true, book: null }, false)).toEqual({ kind: 'insufficient-real', actions: ['deposit'] });
  });

  it('any other failure, or a signed-out one, is the plain message', () => {
    expect(orderRefusalDecision({ kind: 'code', code: ErrorCode.MINIMUM_HOLDING_TIME, serverMessage: '' }, real, true)).toEqual({ kind: 'plain' });
    expect(orderRefusalDecision({ kind: 'network' }, real, true)).toEqual({ kind: 'plain' });
    expect(orderRefusalDecision(insufficient, { signedIn: false, book: null }, true)).toEqual({ kind: 'plain' });
  });
});
