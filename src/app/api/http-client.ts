import type * as z from 'zod/mini';
import type { ApiContract, ApiRoot } from '../../shared/api/contract';
import { idempotencyHeader } from '../../shared/api/idempotency';
import { AppErrorCode } from '../../shared/errors/app-codes';
import type { CallFailure } from '../../shared/errors/describe-failure';
import type { ServerDateSample } from '../../shared/time/server-clock';

/** Why a call failed, in the terms the user is told. */
export type RequestFailure = CallFailure;

export class RequestError extends Error {
  constructor(readonly failure: RequestFailure) {
    super(failure.kind === 'code' ? `code ${failure.code}` : failure.kind);
    this.name = 'RequestError';
  }
}

export interface RequestOptions {
  /** Do not show the failure to the user (list polling, background checks). */
  silent?: boolean;
  signal?: AbortSignal;
  /**
   * The Idempotency-Key of a customer money call: one fresh key per user action
   * ({@link newIdempotencyKey}), the same key again when that action is retried, so the
   * server moves the money once.
   */
  idempotencyKey?: string;
  /**
   * A multipart call (API.md "Multipart calls"): the body goes as the JSON `metaData` text
   * part and these as file parts, named as the table names them.
   */
  files?: Record<string, File>;
}

/** A fresh Idempotency-Key for one user action. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** A body as JSON, or as multipart form data when the call sends files. */
function requestBody(body: unknown, files: Record<string, File> | undefined): { body: BodyInit; contentType: string | null } {
  if (!files) return { body: JSON.stringify(trimStrings(body)), contentType: 'application/json' };
  const form = new FormData();
  form.append('metaData', JSON.stringify(trimStrings(body)));
  for (const [name, file] of Object.entries(files)) form.append(name, file, file.name);
  // The browser writes the multipart boundary into the content type itself.
  return { body: form, contentType: null };
}

export interface HttpClientOptions {
  /** The brand's roots (config.json); each contract names the one that serves it. */
  roots: Record<ApiRoot, string>;
  /** 0 for none; a 700 ms grace is added to any other value. */
  timeoutMs: number;
  getToken: () => string | null;
  getLanguage: () => string;
  /** Tells the user; the client has already decided that the failure is worth telling. */
  report: (failure: RequestFailure) => void;
  /** HTTP 401 on a signed-in path, or code 23519: the session is over. */
  /** The answer refused the session that made the request (its token, to end only that one). */
  onSessionLost: (reason: 'unauthorized' | 'ended-by-server' | 'invalid', token: string) => void;
  fetchImpl?: typeof fetch;
  /** Each answer's `Date` header with when the call went out and came back (the server clock's estimate). */
  onServerDate?: (sample: ServerDateSample) => void;
  /** The device's clock (tests set their own). */
  nowMs?: () => number;
}

const timeoutGraceMs = 700;

/** The call whose 1002 (no such user) ends the session. */
const userInfoPath = '/v1/waa/user/info';

/** Where a call goes: its path and the root that serves it (a contract holds them with its schemas). */
export type CallTarget = Pick<ApiContract<z.ZodMiniType, z.ZodMiniType>, 'path' | 'root'>;

/** Calls that carry the user's token: `/waa/` on the API root and every exchange call. */
function isSignedInCall(target: CallTarget): boolean {
  return target.root === 'exchange' || target.path.includes('/waa/');
}

/**
 * The envelope's schema, fetched with the first answer: zod comes into the page with the
 * first contract a screen loads (by then it is there), never with the first load
 * (tests/unit/build/budgets.ts).
 */
const answerSchemas = () => import('./answer-schemas');

/**
 * The one request client: base URL, bearer token, language header, the response
 * envelope, timeouts and error reporting. Views never call fetch themselves.
 */
export function createHttpClient(options: HttpClientOptions) {
  const fetchImpl = options.fetchImpl ?? ((input, init) => fetch(input, init));
  const nowMs = options.nowMs ?? Date.now;

  /**
   * Sends a call and reads its answer as JSON. Fails here: the network, the timeout, a
   * refused session (HTTP 401 on a signed-in call) and a body that is not JSON.
   */
  async function exchange(target: CallTarget, body: unknown, requestOptions: RequestOptions, fail: (failure: RequestFailure) => never) {
    const controller = new AbortController();
    const timer =
      options.timeoutMs > 0 ? setTimeout(() => controller.abort('timeout'), options.timeoutMs + timeoutGraceMs) : null;
    requestOptions.signal?.addEventListener('abort', () => controller.abort('cancelled'));

    const encoded = requestBody(body, requestOptions.files);
    const headers: Record<string, string> = { 'accept-language': options.getLanguage() };
    if (encoded.contentType) headers['content-type'] = encoded.contentType;
    const token = options.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    if (requestOptions.idempotencyKey) headers[idempotencyHeader] = requestOptions.idempotencyKey;

    let response: Response;
    const sentAtMs = nowMs();
    try {
      response = await fetchImpl(`${options.roots[target.root]}${target.path}`, {
        method: 'POST',
        headers,
        body: encoded.body,
        signal: controller.signal,
      });
    } catch {
      if (controller.signal.aborted && controller.signal.reason === 'timeout') return fail({ kind: 'timeout' });
      if (controller.signal.aborted) throw new RequestError({ kind: 'network' });
      return fail({ kind: 'network' });
    } finally {
      if (timer) clearTimeout(timer);
    }

    // Readable on the app's own origin; a root on another origin shows it only if it exposes it (CORS).
    const date = response.headers.get('date');
    if (date !== null && options.onServerDate) options.onServerDate({ serverDateMs: Date.parse(date), sentAtMs, receivedAtMs: nowMs() });

    // Only the session that made the request can be ended by its answer: a late refusal of
    // a token already replaced (a new sign-in after a password change) leaves the new one be.
    const sessionLost = (reason: 'unauthorized' | 'ended-by-server' | 'invalid') => {
      if (token && options.getToken() === token) options.onSessionLost(reason, token);
    };
    if (response.status === 401 && isSignedInCall(target)) {
      sessionLost('unauthorized');
      throw new RequestError({ kind: 'http', status: 401 });
    }

    let json: unknown;
    try {
      json = await response.json();
    } catch {
      return fail(response.ok ? { kind: 'malformed' } : { kind: 'http', status: response.status });
    }
    return { json, response, sessionLost };
  }

  function failWith(requestOptions: RequestOptions) {
    return (failure: RequestFailure): never => {
      if (!requestOptions.silent) options.report(failure);
      throw new RequestError(failure);
    };
  }

  async function call<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(
    contract: ApiContract<TBody, TData>,
    body: z.input<TBody>,
    requestOptions: RequestOptions = {},
  ): Promise<z.output<TData>> {
    const fail = failWith(requestOptions);
    const schemas = answerSchemas().catch(() => null);
    const { json, response, sessionLost } = await exchange(contract, body, requestOptions, fail);
    // Not fetched (a lost connection): the answer cannot be read, as if it had not come.
    const { envelopeSchema } = (await schemas) ?? fail({ kind: 'network' });
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      return fail(response.ok ? { kind: 'malformed' } : { kind: 'http', status: response.status });
    }
    const { code, msg, message } = envelope.data;
    const messageLanguage = response.headers.get('content-language');
    if (code === AppErrorCode.SESSION_ENDED) {
      sessionLost('ended-by-server');
      return fail({ kind: 'code', code, serverMessage: msg ?? message ?? '', messageLanguage });
    }
    // The account behind the token is gone: the user info call says so, and the session ends.
    if (code === AppErrorCode.USER_NOT_FOUND && contract.path === userInfoPath) {
      sessionLost('invalid');
      return fail({ kind: 'code', code, serverMessage: msg ?? message ?? '', messageLanguage });
    }
    // The error's data travels with it: a rate-limited answer names the seconds to wait.
    if (code !== AppErrorCode.SUCCESS) return fail({ kind: 'code', code, serverMessage: msg ?? message ?? '', messageLanguage, data: envelope.data.data });
    if (!response.ok) return fail({ kind: 'http', status: response.status });
    const data = contract.data.safeParse(envelope.data.data);
    if (!data.success) return fail({ kind: 'malformed' });
    return data.data;
  }

  /**
   * A call's answer as it came (its JSON, envelope and all), for a caller that has it
   * checked elsewhere: the start's switches, which the engine checks with their schema
   * (src/app/boot/switches.ts). Fails as `call` does for the transport and an HTTP error.
   */
  async function answerOf(target: CallTarget, body: unknown, requestOptions: RequestOptions = {}): Promise<unknown> {
    const fail = failWith(requestOptions);
    const { json, response } = await exchange(target, body, requestOptions, fail);
    if (!response.ok) return fail({ kind: 'http', status: response.status });
    return json;
  }

  /** Tells the user of a failure a caller kept silent and then chose not to handle itself. */
  const report = (failure: RequestFailure) => options.report(failure);

  /**
   * The bytes of an owner-only file (`GET /v1/waa/file/:id`, API.md "Multipart calls"): an
   * `<img src>` cannot send the token, so views fetch it here and show an object URL. Silent:
   * a missing image is the view's to show.
   */
  async function fetchFile(path: string, signal?: AbortSignal): Promise<Blob> {
    const token = options.getToken();
    let response: Response;
    try {
      response = await fetchImpl(`${options.roots.api}${path}`, { method: 'GET', headers: token ? { authorization: `Bearer ${token}` } : {}, ...(signal ? { signal } : {}) });
    } catch {
      throw new RequestError({ kind: 'network' });
    }
    if (!response.ok) throw new RequestError({ kind: 'http', status: response.status });
    return response.blob();
  }

  return { call, answerOf, report, fetchFile };
}

export type HttpClient = ReturnType<typeof createHttpClient>;

/** All string values in payloads are trimmed before sending. */
export function trimStrings<T>(value: T): T {
  if (typeof value === 'string') return value.trim() as T;
  if (Array.isArray(value)) return value.map((item: unknown) => trimStrings(item)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimStrings(item)])) as T;
  }
  return value;
}
