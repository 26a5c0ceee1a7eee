import { readAccessToken } from '../../../../shared/session/token';
import { sessionSignal } from '../../../engine/signals';

/**
 * The signed-in session's `aesKey`, read from its access token: the key personal fields
 * travel under (src/shared/money/encoded-field.ts). Empty when signed out.
 */
export function sessionAesKey(): string {
  const token = sessionSignal.peek().token;
  return (token ? readAccessToken(token)?.aesKey : undefined) ?? '';
}
