import * as z from 'zod/mini';
import { contactMaxLength, passwordMaxLength } from '../auth/validation';
import { contract } from './contract';

/**
 * The signed-in customer's credentials: the password change (every session of the user ends
 * on success) and binding an e-mail to a phone-registered account (a code sent to the address
 * first: `user/bindEmail/sendCode`, then `user/bindEmail` with that code; ../shared/API.md lists
 * only `email`, the code is this product's addition).
 */
export const passwordSubmit = contract(
  '/v1/waa/user/passwordSubmit',
  z.strictObject({ oldPassword: z.string().check(z.minLength(1), z.maxLength(passwordMaxLength)), newPassword: z.string().check(z.minLength(1), z.maxLength(passwordMaxLength)), metaData: z.optional(z.string().check(z.maxLength(2000))) }),
  z.null(),
);

const email = z.string().check(z.trim(), z.minLength(1), z.maxLength(contactMaxLength));

export const bindEmailSendCode = contract('/v1/waa/user/bindEmail/sendCode', z.strictObject({ email, locale: z._default(z.string().check(z.trim(), z.maxLength(10)), 'en') }), z.null());

export const bindEmail = contract('/v1/waa/user/bindEmail', z.strictObject({ email, code: z.string().check(z.trim(), z.regex(/^\d{6}$/)) }), z.null());
