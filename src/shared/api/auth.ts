import * as z from 'zod/mini';
import { contract, noBody } from './contract';
import { captchaMaxLength, contactMaxLength, passwordMaxLength } from '../auth/validation';
import { signInCodeLength } from '../auth/sign-in-code';

/** 'E' e-mail, 'P' phone (digits with country code, no plus sign). */
export const contactType = z.enum(['E', 'P']);
export type ContactType = z.infer<typeof contactType>;
const contact = z.string().check(z.trim(), z.minLength(1), z.maxLength(contactMaxLength));
const password = z.string().check(z.minLength(1), z.maxLength(passwordMaxLength));
const code = z.string().check(z.trim(), z.regex(/^\d{6}$/));
const locale = z._default(z.string().check(z.trim(), z.maxLength(10)), 'en');

export const tokenPair = z.object({ token: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

/**
 * Login; a user with a second factor first gets qrcodeStatus 0 and empty tokens, then sends command 'verification' with authCode.
 * While the account's delay holds a new device back (1033), a code sent to the account (sendMail / sendPhone type 3) as
 * `signInCode` lets one try through; a browser that signed in before carries a device cookie and is not held back.
 */
export const login = contract(
  '/v1/wa-na/login',
  z.strictObject({
    username: contact,
    password,
    type: contactType,
    command: z.optional(z.literal('verification')),
    authCode: z.optional(z.string().check(z.trim(), z.regex(/^\d{1,6}$/))),
    signInCode: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(signInCodeLength * 2))),
  }),
  z.object({ token: z.string(), refreshToken: z.string(), qrcodeStatus: z.union([z.literal(0), z.literal(1)]) }),
);

/** Code purposes: 1 register, 2 forgot, 3 sign-in code (skips the account's delay once), 4 register-complete mail. */
export const codePurpose = z.enum(['1', '2', '3', '4']);

export const sendMail = contract(
  '/v1/wa-na/sendMail',
  z.strictObject({ email: contact, type: codePurpose, locale }),
  z.null(),
);

export const sendPhone = contract(
  '/v1/wa-na/sendPhone',
  z.strictObject({ phone: z.string().check(z.trim(), z.regex(/^\d{6,15}$/)), type: codePurpose, locale }),
  z.null(),
);

export const register = contract(
  '/v1/wa-na/register',
  z.strictObject({
    username: contact,
    password,
    type: contactType,
    code: z._default(z.string().check(z.trim(), z.maxLength(6)), ''),
    locale,
    inviteCode: z.optional(z.string().check(z.trim(), z.maxLength(32))),
    uuid: z.optional(z.string().check(z.trim(), z.maxLength(64))),
    captcha: z.optional(z.string().check(z.trim(), z.maxLength(captchaMaxLength))),
  }),
  z.null(),
);

export const forgot = contract(
  '/v1/wa-na/forgot',
  z.strictObject({ username: contact, password, type: contactType, code }),
  z.null(),
);

export const getImageCode = contract('/v1/wa-na/getImageCode', noBody, z.object({ image: z.string(), uuid: z.string() }));

export const refresh = contract('/v1/wa-na/refresh', z.strictObject({ refreshToken: z.string().check(z.minLength(1), z.maxLength(200)), token: z._default(z.string().check(z.maxLength(4096)), '') }), tokenPair);

export const checkToken = contract('/v1/waa/user/checkToken', noBody, z.null());
export const logout = contract('/v1/waa/user/logout', noBody, z.null());
export const switchAccount = contract('/v1/waa/user/switch', noBody, tokenPair);

export const twoFactorSetup = contract('/v1/waa/user/twoFactor/setup', noBody, z.object({ otpauthUrl: z.string(), secret: z.string() }));
export const twoFactorEnable = contract('/v1/waa/user/twoFactor/enable', z.strictObject({ code }), z.null());
export const twoFactorDisable = contract('/v1/waa/user/twoFactor/disable', z.strictObject({ code }), z.null());
export const twoFactorStatus = contract('/v1/waa/user/twoFactor/status', noBody, z.object({ enabled: z.boolean() }));

/** What a rate-limited call (code 1033, HTTP 429) carries. */
export const rateLimitedData = z.object({ retryAfterSeconds: z.int().check(z.positive()) });
