/** The specification's limits for sign-in and sign-up fields (the phone rules: `phone.ts`, loaded only where phone fields are). */
export const contactMaxLength = 140;
export const passwordMinLength = 7;
export const passwordMaxLength = 140;
export const captchaMaxLength = 12;
export const verificationCodeLength = 6;
export const resendCodeAfterSeconds = 60;
export const captchaRefreshCooldownSeconds = 3;

/** A standard address pattern: one @, a dot in the domain, no spaces or angle brackets. */
const emailPattern = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[A-Za-z]{2,}$/;

export function isValidEmail(value: string): boolean {
  return value.length <= contactMaxLength && emailPattern.test(value);
}

/** Sign-in password: required, at most 140 characters. */
export function isValidLoginPassword(value: string): boolean {
  return value.length > 0 && value.length <= passwordMaxLength;
}

/** Sign-up and reset password: 7 to 140 characters. */
export function isValidNewPassword(value: string): boolean {
  return value.length >= passwordMinLength && value.length <= passwordMaxLength;
}

export function isValidVerificationCode(value: string): boolean {
  return /^\d{6}$/.test(value);
}

export function isValidCaptchaText(value: string): boolean {
  return value.length > 0 && value.length <= captchaMaxLength;
}

/** Trims every string value of a payload (the specification trims all before sending). */
export function trimmed<T extends Record<string, unknown>>(payload: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) out[key] = typeof value === 'string' ? value.trim() : value;
  return out as T;
}
