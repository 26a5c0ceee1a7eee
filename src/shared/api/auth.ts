import { z } from 'zod';
import { contract, noBody } from './contract';
import { captchaMaxLength, contactMaxLength, passwordMaxLength } from '../auth/validation';

/** 'E' e-mail, 'P' phone (digits with country code, no plus sign). */
export const contactType = z.enum(['E', 'P']);
export type ContactType = z.infer<typeof contactType>;
const contact = z.string().trim().min(1).max(contactMaxLength);
const password = z.string().min(1).max(passwordMaxLength);
const code = z.string().trim().regex(/^\d{6}$/);
const locale = z.string().trim().max(10).default('en');

export const tokenPair = z.object({ token: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

/** Login; a user with a second factor first gets qrcodeStatus 0 and empty tokens, then sends command 'verification' with authCode. */
export const login = contract(
  '/v1/wa-na/login',
  z.strictObject({
    username: contact,
    password,
    type: contactType,
    command: z.literal('verification').optional(),
    authCode: z.string().trim().regex(/^\d{1,6}$/).optional(),
  }),
  z.object({ token: z.string(), refreshToken: z.string(), qrcodeStatus: z.union([z.literal(0), z.literal(1)]) }),
);

/** Code purposes: 1 register, 2 forgot, 4 register-complete mail. */
export const codePurpose = z.enum(['1', '2', '4']);

export const sendMail = contract(
  '/v1/wa-na/sendMail',
  z.strictObject({ email: contact, type: codePurpose, locale }),
  z.null(),
);

export const sendPhone = contract(
  '/v1/wa-na/sendPhone',
  z.strictObject({ phone: z.string().trim().regex(/^\d{6,15}$/), type: codePurpose, locale }),
  z.null(),
);

export const register = contract(
  '/v1/wa-na/register',
  z.strictObject({
    username: contact,
    password,
    type: contactType,
    code: z.string().trim().max(6).default(''),
    locale,
    inviteCode: z.string().trim().max(32).optional(),
    uuid: z.string().trim().max(64).optional(),
    captcha: z.string().trim().max(captchaMaxLength).optional(),
  }),
  z.null(),
);

export const forgot = contract(
  '/v1/wa-na/forgot',
  z.strictObject({ username: contact, password, type: contactType, code }),
  z.null(),
);

export const getImageCode = contract('/v1/wa-na/getImageCode', noBody, z.object({ image: z.string(), uuid: z.string() }));

export const refresh = contract('/v1/wa-na/refresh', z.strictObject({ refreshToken: z.string().min(1).max(200), token: z.string().max(4096).default('') }), tokenPair);

export const checkToken = contract('/v1/waa/user/checkToken', noBody, z.null());
export const logout = contract('/v1/waa/user/logout', noBody, z.null());
export const switchAccount = contract('/v1/waa/user/switch', noBody, tokenPair);

export const twoFactorSetup = contract('/v1/waa/user/twoFactor/setup', noBody, z.object({ otpauthUrl: z.string(), secret: z.string() }));
export const twoFactorEnable = contract('/v1/waa/user/twoFactor/enable', z.strictObject({ code }), z.null());
export const twoFactorDisable = contract('/v1/waa/user/twoFactor/disable', z.strictObject({ code }), z.null());
export const twoFactorStatus = contract('/v1/waa/user/twoFactor/status', noBody, z.object({ enabled: z.boolean() }));

/** What a rate-limited call (code 1033, HTTP 429) carries. */
export const rateLimitedData = z.object({ retryAfterSeconds: z.number().int().positive() });
