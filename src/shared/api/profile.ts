import * as z from 'zod/mini';
import { contract, noBody } from './contract';

/** The spec's text input limit: a nickname holds at most 140 characters (code points, as a person counts them). */
export const nickMaxLength = 140;

export const characterCount = (text: string) => [...text].length;

/**
 * `user/infoSubmit` (multipart): this body is its `metaData` part; the optional new avatar
 * is the `avatar` file part ({@link avatarPartName}). The nickname is required (p_t_nickname).
 */
export const infoSubmitMeta = z.strictObject({
  nickName: z.string().check(z.trim(), z.minLength(1), z.refine((nick) => characterCount(nick) <= nickMaxLength, { message: `at most ${nickMaxLength} characters` })),
});
export const infoSubmit = contract('/v1/waa/user/infoSubmit', infoSubmitMeta, z.null());

/** The file part of `user/infoSubmit` that carries a new avatar. */
export const avatarPartName = 'avatar';

/**
 * `invite/info`: the customer's own invite code, the sign-up link with it filled in
 * (`/register?inviteCode=…` on the app's origin) and how many accounts signed up with it.
 */
export const inviteInfoData = z.object({
  inviteCode: z.string(),
  inviteLink: z.string(),
  invitedCount: z.int(),
});
export type InviteInfo = z.infer<typeof inviteInfoData>;
export const inviteInfo = contract('/v1/waa/invite/info', noBody, inviteInfoData);

/** The query parameter of the register screen that carries an invite code. */
export const inviteCodeQuery = 'inviteCode';

/** The sign-up link for an invite code on the app at `origin`. */
export function inviteLinkFor(origin: string, inviteCode: string): string {
  return `${origin.replace(/\/+$/, '')}/register?${inviteCodeQuery}=${encodeURIComponent(inviteCode)}`;
}
