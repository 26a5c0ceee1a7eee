import { checkToken, refresh } from '../../shared/api/auth';
import { ErrorCode } from '../../shared/errors/catalogue';
import { OptionStatus, optionOrderList, optionRunningLimitMax, type OptionOrder } from '../../shared/api/options';
import type { SessionApi } from '../engine/session-clock';

const httpUnauthorized = 401;

async function postEnvelope(url: string, body: unknown, token?: string): Promise<{ status: number; code: number | null; data: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json().catch(() => null)) as { code?: unknown; data?: unknown } | null;
  return { status: response.status, code: typeof envelope?.code === 'number' ? envelope.code : null, data: envelope?.data };
}

/** The session clock's calls over fetch, under the brand's API root. */
export function fetchSessionApi(apiRoot: string): SessionApi {
  return {
    async checkToken(token) {
      try {
        const answer = await postEnvelope(`${apiRoot}${checkToken.path}`, {}, token);
        // The server answers a token it no longer accepts with LIST_FAILURE, an ended session with SESSION_ENDED.
        if (answer.status === httpUnauthorized || answer.code === ErrorCode.LIST_FAILURE || answer.code === ErrorCode.SESSION_ENDED) return 'invalid';
        return answer.code === ErrorCode.SUCCESS ? 'valid' : 'unreachable';
      } catch {
        return 'unreachable';
      }
    },
    async refresh(tokens) {
      try {
        const answer = await postEnvelope(`${apiRoot}${refresh.path}`, { refreshToken: tokens.refreshToken, token: tokens.token });
        if (answer.status >= 500 || answer.code === null) return { kind: 'unreachable' };
        if (answer.code !== ErrorCode.SUCCESS) return { kind: 'ended' };
        const parsed = refresh.data.safeParse(answer.data);
        return parsed.success ? { kind: 'ok', tokens: parsed.data } : { kind: 'unreachable' };
      } catch {
        return { kind: 'unreachable' };
      }
    },
  };
}

/** The account's running options, for the countdowns; null when the server cannot answer. */
export async function fetchRunningOptions(apiRoot: string, token: string): Promise<OptionOrder[] | null> {
  try {
    const answer = await postEnvelope(`${apiRoot}${optionOrderList.path}`, { page: 1, limit: optionRunningLimitMax, positionStatus: OptionStatus.running }, token);
    if (answer.code !== ErrorCode.SUCCESS) return null;
    const parsed = optionOrderList.data.safeParse(answer.data);
    return parsed.success ? parsed.data.items : null;
  } catch {
    return null;
  }
}
