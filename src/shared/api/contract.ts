import * as z from 'zod/mini';
import { unsignedMoneyPattern } from '../money/money';

/** Which of the brand's roots (`apiRoot`, `marketRoot`, `exchangeRoot`) serves a call. */
export type ApiRoot = 'api' | 'market' | 'exchange';

/** The root of a path, by its service prefix (API.md "Roots and transport"). */
export function rootOfPath(path: string): ApiRoot {
  if (path.startsWith('/exchange/')) return 'exchange';
  if (path.startsWith('/market/')) return 'market';
  return 'api';
}

/**
 * One call of the API: its path, the root that serves it, the request body schema
 * (strict: unknown fields are rejected) and the `data` schema of its answer. The server
 * validates requests with `body` and answers with `data`; the app parses answers with `data`.
 */
export interface ApiContract<TBody extends z.ZodMiniType, TData extends z.ZodMiniType> {
  path: string;
  root: ApiRoot;
  body: TBody;
  data: TData;
}

export function contract<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(path: string, body: TBody, data: TData): ApiContract<TBody, TData> {
  return { path, root: rootOfPath(path), body, data };
}

/** The body of a call that takes none: an empty object, nothing else. */
export const noBody = z.strictObject({});

/** A positive amount or price as the client sends it: up to 22 integer and 8 fraction digits (the one decimal rule, money.ts). */
export const moneyInput = z.string().check(z.trim(), z.regex(unsignedMoneyPattern));

/**
 * A row's id where a form part may carry it as text (multipart metaData): a positive integer,
 * or its canonical decimal string ("7", never "07", "0x7", "7e0", " 7"); `true` and `[7]` are not ids.
 */
export const positiveId = z.pipe(
  z.union([z.int().check(z.positive()), z.string().check(z.regex(/^[1-9]\d{0,15}$/))]),
  z.pipe(z.transform((value: number | string) => Number(value)), z.int().check(z.positive())),
);

/** The contract with its path's `:name` segments filled (encoded) from `parameters`. */
export function withPathParameters<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(
  base: ApiContract<TBody, TData>,
  parameters: Record<string, string>,
): ApiContract<TBody, TData> {
  const path = base.path.replace(/:([A-Za-z]+)/g, (segment, name: string) => {
    const value = parameters[name];
    return value === undefined ? segment : encodeURIComponent(value);
  });
  return { ...base, path };
}
