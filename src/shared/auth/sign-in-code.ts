/**
 * The code a sign-in from a new device can carry instead of waiting out the account's
 * delay (sent by e-mail or SMS on request). Eight characters that cannot be confused with
 * one another, about 2^40 values: far too many to guess within its ten minutes under the
 * per-address limits, so no per-code try count is needed, and an attacker has no count to
 * use up and lock the owner out with.
 */
export const signInCodeAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const signInCodeLength = 8;

/** What a person typed ("k7qm-3xpa", with spaces) as the code itself, or null when it cannot be one. */
export function normalizeSignInCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== signInCodeLength) return null;
  for (const char of code) if (!signInCodeAlphabet.includes(char)) return null;
  return code;
}

/** The code as a message shows it: two groups of four. */
export function formatSignInCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
