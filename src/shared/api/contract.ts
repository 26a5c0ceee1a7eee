import { z } from 'zod';

/**
 * One call of the API: its path, the request body schema (strict: unknown fields are
 * rejected) and the `data` schema of its answer. The server validates requests with
 * `body` and answers with `data`; the app parses answers with `data`.
 */
export interface ApiContract<TBody extends z.ZodType, TData extends z.ZodType> {
  path: string;
  body: TBody;
  data: TData;
}

export function contract<TBody extends z.ZodType, TData extends z.ZodType>(path: string, body: TBody, data: TData): ApiContract<TBody, TData> {
  return { path, body, data };
}

/** The body of a call that takes none: an empty object, nothing else. */
export const noBody = z.strictObject({});

/** A positive amount or price as the client sends it: up to 22 integer and 8 fraction digits. */
export const moneyInput = z.string().trim().regex(/^\d{1,22}(\.\d{1,8})?$/);
