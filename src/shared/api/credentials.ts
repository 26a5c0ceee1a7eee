import { z } from 'zod';
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
  z.strictObject({ oldPassword: z.string().min(1).max(passwordMaxLength), newPassword: z.string().min(1).max(passwordMaxLength), metaData: z.string().max(2000).optional() }),
  z.null(),
);

const email = z.string().trim().min(1).max(contactMaxLength);

export const bindEmailSendCode = contract('/v1/waa/user/bindEmail/sendCode', z.strictObject({ email, locale: z.string().trim().max(10).default('en') }), z.null());

export const bindEmail = contract('/v1/waa/user/bindEmail', z.strictObject({ email, code: z.string().trim().regex(/^\d{6}$/) }), z.null());
