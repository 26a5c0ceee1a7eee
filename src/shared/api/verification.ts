import * as z from 'zod/mini';
import { contract, noBody } from './contract';

/**
 * Identity verification (../shared/API.md `user/auth/*`, `user/firstAuth/*`; the
 * specification's "Identity verification" entity, status table and validation rules).
 * `user/auth/submit` is multipart: this body is its `metaData` part; the three images are
 * the file parts named in {@link verificationPartNames}; the `Idempotency-Key` header is
 * required (one click, one submission).
 */

/** verifiedStatus: −1 not loaded (the app's own), 0 not submitted, 1 authenticating, 2 authenticated, 3 failed. */
export const VerifiedStatus = { notLoaded: -1, none: 0, authenticating: 1, authenticated: 2, failed: 3 } as const;
export type VerifiedStatus = (typeof VerifiedStatus)[keyof typeof VerifiedStatus];

/** Fields and submission are allowed only in statuses 0, 1 and 3 (the specification's table). */
export function verificationEditable(status: number): boolean {
  return status === VerifiedStatus.none || status === VerifiedStatus.authenticating || status === VerifiedStatus.failed;
}

/** idType: 0 ID card, 1 passport, 2 driving licence. */
export const idTypes = [0, 1, 2] as const;
export type IdType = (typeof idTypes)[number];

/** Inputs are at most 140 characters (the specification). */
export const verificationFieldMax = 140;

/** The image file parts of `user/auth/submit`. */
export const verificationPartNames = {
  front: 'cardImgFront',
  reverse: 'cardImgReverse',
  avatar: 'cardImgAvatar',
} as const;

/** The message keys of the specification's validation rules (in the `verify` namespace). */
export const verificationMessageKeys = {
  realName: 'verify.p_t_real_name',
  idCard: 'verify.p_t_id_card',
  front: 'verify.p_u_id_card_front',
  reverse: 'verify.p_u_id_card_reverse',
  avatar: 'verify.p_u_id_card_avatar',
  authEmail: 'verify.p_t_auth_email',
} as const;

/**
 * The form's field problems, the same on both sides: real name and ID number required
 * (trimmed), each at most 140 characters; the e-mail, when asked for, a plausible address.
 */
export function verificationFieldProblem(fields: { realName: string; idCard: string; authEmail?: string | undefined }, askEmail: boolean): keyof typeof verificationMessageKeys | null {
  if (fields.realName.trim() === '' || fields.realName.length > verificationFieldMax) return 'realName';
  if (fields.idCard.trim() === '' || fields.idCard.length > verificationFieldMax) return 'idCard';
  if (askEmail) {
    const email = (fields.authEmail ?? '').trim();
    if (email === '' || email.length > verificationFieldMax || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return 'authEmail';
  }
  return null;
}

/** A document number as staff see it: its first 2 and last 2 characters, the rest as stars (at least 4). */
export function maskIdNumber(idCard: string): string {
  const value = idCard.trim();
  if (value.length <= 4) return '*'.repeat(Math.max(4, value.length));
  return `${value.slice(0, 2)}${'*'.repeat(Math.max(4, value.length - 4))}${value.slice(-2)}`;
}

const text = z.string().check(z.maxLength(verificationFieldMax));

export const verificationSubmitMeta = z.strictObject({
  realName: text,
  idCard: text,
  authEmail: z._default(text, ''),
  idType: z._default(z.pipe(z.coerce.number(), z.union([z.literal(0), z.literal(1), z.literal(2)])), 0),
  locale: z.string().check(z.minLength(2), z.maxLength(10)),
});
export const juniorVerificationSubmitMeta = z.strictObject({
  realName: text,
  idCard: text,
  locale: z.string().check(z.minLength(2), z.maxLength(10)),
});

/** What the owner reads back: the status, the name, the number masked, and the stored images' owner URLs. */
export const verificationData = z.object({
  verifiedStatus: z.int(),
  realName: z.string(),
  /** Masked: the full number never leaves the server after submission. */
  idCard: z.string(),
  idType: z.int(),
  authEmail: z.string(),
  /** The reviewer's reason when the status is 3. */
  failReason: z.nullable(z.string()),
  cardImgFront: z.nullable(z.string()),
  cardImgReverse: z.nullable(z.string()),
  cardImgAvatar: z.nullable(z.string()),
});
export type VerificationData = z.infer<typeof verificationData>;

export const juniorVerificationData = z.pick(verificationData, { verifiedStatus: true, realName: true, idCard: true, failReason: true });
export type JuniorVerificationData = z.infer<typeof juniorVerificationData>;

export const verificationGet = contract('/v1/waa/user/auth/get', noBody, verificationData);
export const verificationSubmit = contract('/v1/waa/user/auth/submit', verificationSubmitMeta, z.null());
export const juniorVerificationGet = contract('/v1/waa/user/firstAuth/get', noBody, juniorVerificationData);
export const juniorVerificationSubmit = contract('/v1/waa/user/firstAuth/submit', juniorVerificationSubmitMeta, z.null());
