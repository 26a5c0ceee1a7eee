import type * as z from 'zod/mini';
import type { ApiContract } from '../../../src/shared/api/contract';
import { ErrorCode } from '../../../src/shared/errors/catalogue';

type AnyContract = ApiContract<z.ZodMiniType, z.ZodMiniType>;

/** What a handler answers: the call's data, or a refusal with a catalogue code. */
export class Refusal {
  constructor(
    readonly code: number,
    readonly message = '',
    readonly data: unknown = null,
    /** The answer's Content-Language: the language `message` is written in (none when absent). */
    readonly language: string | null = null,
  ) {}
}

/** One request the views made, as the server received it. */
export interface ReceivedCall {
  path: string;
  body: unknown;
  headers: Record<string, string>;
  /** The multipart parts other than metaData, for an upload. */
  files: Record<string, File>;
}

type Handler = (body: never, call: ReceivedCall) => unknown;

/**
 * The back end as the request client sees it: the app's real `createHttpClient` is given
 * this as its `fetch`, so envelopes, codes and the contracts' schemas are parsed as in the
 * app. Each contract answers what its test says; a call nobody answers fails the call (and
 * is listed in `unanswered`, which tests check stays empty).
 */
export function createFakeServer() {
  const handlers = new Map<string, Handler>();
  const calls: ReceivedCall[] = [];
  const unanswered: string[] = [];

  function on<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(
    contract: ApiContract<TBody, TData>,
    handler: (body: z.output<TBody>, call: ReceivedCall) => z.input<TData> | Refusal | Promise<z.input<TData> | Refusal>,
  ) {
    handlers.set(contract.path, handler as Handler);
  }

  async function readBody(init: RequestInit | undefined): Promise<{ body: unknown; files: Record<string, File> }> {
    const raw = init?.body;
    if (raw instanceof FormData) {
      const files: Record<string, File> = {};
      let body: unknown = null;
      for (const [name, value] of raw.entries()) {
        if (name === 'metaData' && typeof value === 'string') body = JSON.parse(value);
        else if (typeof value !== 'string') files[name] = value;
      }
      return { body, files };
    }
    return { body: typeof raw === 'string' ? JSON.parse(raw) : null, files: {} };
  }

  const fetchImpl: typeof fetch = async (input, init) => {
    const path = new URL(String(input), 'http://app.test').pathname;
    const { body, files } = await readBody(init);
    const call: ReceivedCall = { path, body, headers: { ...(init?.headers as Record<string, string>) }, files };
    calls.push(call);
    const handler = handlers.get(path);
    if (!handler) {
      unanswered.push(path);
      return Response.json({ code: ErrorCode.INCORRECT_PARAMETER_VALUE, msg: `no answer for ${path} in this test` });
    }
    const answer = await handler(body as never, call);
    if (answer instanceof Refusal) {
      return Response.json({ code: answer.code, msg: answer.message, data: answer.data }, answer.language ? { headers: { 'content-language': answer.language } } : {});
    }
    return Response.json({ code: ErrorCode.SUCCESS, msg: 'success', data: answer ?? null });
  };

  /** The bodies the views sent to one contract, in order. */
  const bodiesOf = (contract: AnyContract) => calls.filter((call) => call.path === contract.path).map((call) => call.body);
  const callsOf = (contract: AnyContract) => calls.filter((call) => call.path === contract.path);

  return { on, fetchImpl, calls, unanswered, bodiesOf, callsOf };
}

export type FakeServer = ReturnType<typeof createFakeServer>;
