import * as z from 'zod/mini';

/** Every answered call: `{ code, msg, data }`; code 0 is success. */
export interface Envelope<TData> {
  code: number;
  msg: string;
  data: TData;
}

/** The envelope before its `data` is known to be of the call's shape (errors carry other data). */
export const envelopeSchema = z.object({
  code: z.int(),
  // Some brands' back ends answer `message` instead of `msg`; both are accepted.
  msg: z.optional(z.string()),
  message: z.optional(z.string()),
  data: z.optional(z.unknown()),
});

/** Money and prices travel as exact decimal strings, never numbers. */
export const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/, 'expected an exact decimal string'));
