import { ErrorCode } from '../../../shared/errors/catalogue';
import type { SessionSnapshot } from '../../../shared/protocol/engine';
import type { RequestFailure } from '../../api/http-client';

/** A way forward an order refusal can offer. */
export type RefusalAction = 'deposit' | 'switch-to-demo';

/**
 * How an order's failure is told: insufficient available balance (203) on the real account
 * offers a deposit, and the demo account when the brand has demo trading; anything else (203
 * on demo included, where a deposit cannot help) is the request client's plain message.
 */
export function orderRefusalDecision(
  failure: RequestFailure,
  session: Pick<SessionSnapshot, 'signedIn' | 'book'>,
  demoTradingOn: boolean,
): { kind: 'plain' } | { kind: 'insufficient-real'; actions: RefusalAction[] } {
  const onReal = session.signedIn && (session.book ?? 'real') === 'real';
  if (failure.kind !== 'code' || failure.code !== ErrorCode.INSUFFICIENT_BALANCE || !onReal) return { kind: 'plain' };
  return { kind: 'insufficient-real', actions: demoTradingOn ? ['deposit', 'switch-to-demo'] : ['deposit'] };
}
