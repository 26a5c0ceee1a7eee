import type * as z from 'zod/mini';
import type { ApiContract } from '../../shared/api/contract';
import { envelopeSchema } from '../../shared/api/envelope';
import { staffLogin, staffLogout, staffRefresh } from '../../shared/api/staff';
import { ErrorCode } from '../../shared/errors/catalogue';
import type { CallFailure } from '../../shared/errors/describe-failure';
import { staffSignedOutPaths } from '../../shared/staff/access';

/** Why a staff call failed, in the terms the console tells (the console sets no timeout). */
export type StaffFailure = Exclude<CallFailure, { kind: 'timeout' }>;

export class StaffRequestError extends Error {
  constructor(readonly failure: StaffFailure) {
    super(failure.kind === 'code' ? `code ${failure.code}` : failure.kind);
    this.name = 'StaffRequestError';
  }
}

export interface StaffTokens {
  token: string;
  refreshToken: string;
}

/** Where the staff member's tokens live between calls (sessionStorage in the browser, a map in tests). */
export interface TokenStore {
  read(): StaffTokens | null;
  write(tokens: StaffTokens | null): void;
}

/** Why the console returns to the sign-in screen. */
export type SignedOutReason = 'expired' | 'ended-by-server';

export interface StaffClientOptions {
  apiRoot: string;
  tokens: TokenStore;
  getLanguage: () => string;
  /** Tells the staff member of a failure (a toast); not called for `silent` calls. */
  report: (failure: StaffFailure) => void;
  /** The tokens are gone (refresh refused, or the server ended the session): back to sign-in. */
  onSignedOut: (reason: SignedOutReason) => void;
  fetchImpl?: typeof fetch;
}

type Contract = ApiContract<z.ZodMiniType, z.ZodMiniType>;

function isSignedOutCall(contract: Contract): boolean {
  return (staffSignedOutPaths as readonly string[]).includes(contract.path);
}

/**
 * The console's request client for `/v1/staff/*`: the staff bearer token, the envelope, and
 * refresh rotation. An HTTP 401 on a signed-in call triggers one refresh (shared by every call
 * that failed meanwhile, since a refresh token is good for one rotation only), then the call is
 * retried once with the new token; a refused refresh signs the console out.
 */
export function createStaffClient(options: StaffClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  let refreshing: Promise<boolean> | null = null;

  async function send(contract: Contract, body: unknown, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'accept-language': options.getLanguage() };
    if (token) headers.authorization = `Bearer ${token}`;
    return fetchImpl(`${options.apiRoot}${contract.path}`, { method: 'POST', headers, body: JSON.stringify(body ?? {}) });
  }

  async function readEnvelope<T>(contract: ApiContract<z.ZodMiniType, z.ZodMiniType<T>>, response: Response): Promise<{ ok: true; data: T } | { ok: false; failure: StaffFailure }> {
    let json: unknown;
    try {
      json = await response.json();
    } catch {
      return { ok: false, failure: response.ok ? { kind: 'malformed' } : { kind: 'http', status: response.status } };
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) return { ok: false, failure: response.ok ? { kind: 'malformed' } : { kind: 'http', status: response.status } };
    const { code, msg, message } = envelope.data;
    if (code !== ErrorCode.SUCCESS) return { ok: false, failure: { kind: 'code', code, serverMessage: msg ?? message ?? '', messageLanguage: response.headers.get('content-language'), data: envelope.data.data } };
    if (!response.ok) return { ok: false, failure: { kind: 'http', status: response.status } };
    const data = contract.data.safeParse(envelope.data.data);
    return data.success ? { ok: true, data: data.data } : { ok: false, failure: { kind: 'malformed' } };
  }

  function signOut(reason: SignedOutReason) {
    options.tokens.write(null);
    options.onSignedOut(reason);
  }

  /** One rotation for every caller waiting on it; true when new tokens are stored. */
  function refresh(): Promise<boolean> {
    refreshing ??= (async () => {
      const current = options.tokens.read();
      if (!current) return false;
      try {
        const response = await send(staffRefresh, { refreshToken: current.refreshToken }, null);
        const answer = await readEnvelope(staffRefresh, response);
        if (!answer.ok) return false;
        options.tokens.write({ token: answer.data.token, refreshToken: answer.data.refreshToken });
        return true;
      } catch {
        return false;
      }
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  async function call<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(
    contract: ApiContract<TBody, TData>,
    body: z.input<TBody>,
    callOptions: { silent?: boolean } = {},
  ): Promise<z.output<TData>> {
    const fail = (failure: StaffFailure): never => {
      if (!callOptions.silent) options.report(failure);
      throw new StaffRequestError(failure);
    };
    for (let attempt = 0; ; attempt += 1) {
      const tokenUsed = options.tokens.read()?.token ?? null;
      let response: Response;
      try {
        response = await send(contract, body, tokenUsed);
      } catch {
        return fail({ kind: 'network' });
      }
      if (response.status === 401 && !isSignedOutCall(contract)) {
        // Another call may have rotated the tokens while this one was under way: retry with those.
        const rotatedMeanwhile = (options.tokens.read()?.token ?? null) !== tokenUsed;
        if (attempt === 0 && (rotatedMeanwhile || (await refresh()))) continue;
        signOut('expired');
        throw new StaffRequestError({ kind: 'http', status: 401 });
      }
      const answer = await readEnvelope(contract, response);
      if (answer.ok) return answer.data as z.output<TData>;
      if (answer.failure.kind === 'code' && answer.failure.code === ErrorCode.SESSION_ENDED) {
        signOut('ended-by-server');
      }
      return fail(answer.failure);
    }
  }

  /** Signs in with the password and the authenticator's code; the tokens are kept for later calls. */
  async function signIn(body: z.input<typeof staffLogin.body>) {
    const answer = await call(staffLogin, body);
    options.tokens.write({ token: answer.token, refreshToken: answer.refreshToken });
    return answer;
  }

  /** Ends the session on the server (best effort) and forgets the tokens. */
  async function signOutNow() {
    const current = options.tokens.read();
    options.tokens.write(null);
    if (!current) return;
    try {
      await send(staffLogout, { refreshToken: current.refreshToken }, current.token);
    } catch {
      // The tokens are forgotten here either way; the server's session expires on its own.
    }
  }

  /**
   * A file behind the authorised staff file route (`GET /v1/staff/file/{id}`): fetched with the
   * bearer token (an <img src> could not send it), refreshed once on 401 like any call.
   */
  async function fetchFile(url: string): Promise<Blob> {
    // The bearer token goes to the file route under the console's own API root and nowhere
    // else, whatever address an answer names (another host, `//host`, another staff path):
    // a file id is URL-safe characters (no slash, no escapes that could spell `..`).
    if (!/^\/v1\/staff\/file\/[A-Za-z0-9_-][A-Za-z0-9._~-]*$/.test(url)) throw new StaffRequestError({ kind: 'http', status: 400 });
    const address = `${options.apiRoot}${url}`;
    for (let attempt = 0; ; attempt += 1) {
      const tokenUsed = options.tokens.read()?.token ?? null;
      const response = await fetchImpl(address, { method: 'GET', headers: tokenUsed ? { authorization: `Bearer ${tokenUsed}` } : {} });
      if (response.status === 401) {
        const rotatedMeanwhile = (options.tokens.read()?.token ?? null) !== tokenUsed;
        if (attempt === 0 && (rotatedMeanwhile || (await refresh()))) continue;
        signOut('expired');
        throw new StaffRequestError({ kind: 'http', status: 401 });
      }
      if (!response.ok) throw new StaffRequestError({ kind: 'http', status: response.status });
      return response.blob();
    }
  }

  return { call, fetchFile, signIn, signOut: signOutNow, hasTokens: () => options.tokens.read() !== null };
}

export type StaffClient = ReturnType<typeof createStaffClient>;

const storageKey = 'tradeweb-staff-tokens';

/**
 * sessionStorage: a reload keeps the staff member signed in (no second TOTP code for F5), but
 * the tokens die with the tab, are never shared with other tabs or written to disk for later
 * visits, and are apart from the customer app's storage (IndexedDB, the engine).
 */
export function sessionTokenStore(storage: Storage): TokenStore {
  return {
    read() {
      try {
        const raw = storage.getItem(storageKey);
        if (!raw) return null;
        const parsed = JSON.parse(raw) as Partial<StaffTokens>;
        return typeof parsed.token === 'string' && typeof parsed.refreshToken === 'string' ? { token: parsed.token, refreshToken: parsed.refreshToken } : null;
      } catch {
        return null;
      }
    },
    write(tokens) {
      if (tokens) storage.setItem(storageKey, JSON.stringify(tokens));
      else storage.removeItem(storageKey);
    },
  };
}
