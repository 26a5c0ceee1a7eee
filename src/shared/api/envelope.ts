import { z } from 'zod';

/** Every answered call: `{ code, msg, data }`; code 0 is success. */
export interface Envelope<TData> {
  code: number;
  msg: string;
  data: TData;
}

/** The envelope before its `data` is known to be of the call's shape (errors carry other data). */
export const envelopeSchema = z.object({
  code: z.number().int(),
  // Some brands' back ends answer `message` instead of `msg`; both are accepted.
  msg: z.string().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});

/** Money and prices travel as exact decimal strings, never numbers. */
export const decimalString = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'expected an exact decimal string');
