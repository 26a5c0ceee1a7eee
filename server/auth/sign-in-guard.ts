import { ErrorCode } from '../../src/shared/errors/catalogue';
import { AppError } from '../http/app-error';
import type { DataCipher } from './data-key';
import { createDeviceCookies, deviceCookieHeader, readCookie } from './device-cookies';
import type { FailureThrottle } from './failure-throttle';
import { claimTry, enforceLimit } from './limit-checks';
import type { RateLimiter } from './rate-limiter';
import type { SignInCodes } from './sign-in-codes';
import type { TrustedDevices } from './trusted-devices';

/** One sign-in try as the guard weighs it. */
export interface SignInAttempt {
  /** What the device cookie and the sign-in codes are bound to: "customer:E|a@b.example", "staff:a@b.example". */
  account: string;
  /** The untrusted clients' delay of this account, whatever the address. */
  delayKey: string;
  /** The untrusted clients' limit per address (customers: per address and account). */
  addressKey: string;
  /** The client address (sign-in code checks are limited per address). */
  address: string;
  /** The request's Cookie header. */
  cookieHeader: string | undefined;
  /** A code sent to the account, typed on the sign-in form. */
  signInCode?: string | undefined;
}

/** How a try was let through: what a success forgives and whether the browser gets a device cookie. */
export type SignInPass = { account: string; addressKey: string } & (
  | { via: 'device'; deviceId: string }
  | { via: 'code'; signInCode: string }
  | { via: 'untrusted'; delayKey: string }
);

/**
 * Who is held back at sign-in (OWASP's device-cookie scheme), one rule for customers and
 * staff. A try from a browser that signed in to the account before (a valid device cookie
 * of that account, not at its failure maximum) is not held back by anyone else's
 * failures: only its own count. A try with a live sign-in code of the account skips the
 * account's delay and the address limit (only code checks are limited per address); the sign-in spends it. Any other try is an untrusted
 * client's: the per-address limit and the account's growing delay, counted before the
 * password is checked, so the right password waits too while it runs. Every check and
 * count is one statement in the database, shared by every server process.
 */
export function createSignInGuard(deps: {
  cipher: DataCipher;
  devices: TrustedDevices;
  codes: SignInCodes;
  limits: { perAddress: RateLimiter; accountDelay: FailureThrottle; codeChecks: RateLimiter };
  /** The sign-in call the cookie is sent to, and how long it lasts. */
  cookie: { path: string; maxAgeSeconds: number };
}) {
  const { cipher, devices, codes, limits } = deps;
  const cookies = createDeviceCookies(cipher);
  const accountHash = (account: string) => cipher.digest(`sign-in-account:${account}`);
  const deviceId = (nonce: string) => cipher.digest(`device:${nonce}`);

  return {
    /** Lets a try go on to the credentials check, or refuses it: 1033 with the wait, 1020 for a sign-in code that is not live. */
    async admit(attempt: SignInAttempt): Promise<SignInPass> {
      const account = accountHash(attempt.account);
      const nonce = cookies.verify(attempt.account, readCookie(attempt.cookieHeader, cookies.name(attempt.account)));
      if (nonce !== null && (await devices.claim(deviceId(nonce), account))) {
        return { via: 'device', deviceId: deviceId(nonce), account, addressKey: attempt.addressKey };
      }
      if (attempt.signInCode !== undefined) {
        // The code's own per-address limit only: an owner behind the attacker's address (one
        // office, one carrier's NAT) still gets in, and a code cannot be guessed (2^40) anyway.
        await enforceLimit(limits.codeChecks, attempt.address);
        if (!(await codes.isLive(account, attempt.signInCode))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
        return { via: 'code', signInCode: attempt.signInCode, account, addressKey: attempt.addressKey };
      }
      await enforceLimit(limits.perAddress, attempt.addressKey);
      const delayKey = await claimTry(limits.accountDelay, cipher, attempt.delayKey);
      return { via: 'untrusted', delayKey, account, addressKey: attempt.addressKey };
    },

    /**
     * A try whose credentials were right. A sign-in code is spent now (not when the try
     * came in: a mistyped password, or the second factor's first step, keeps it), once:
     * of two tries with one code only one signs in, the other is refused (1020). Then its counts are forgiven (the device's, or an untrusted client's
     * per address and, for a try that waited its turn, the account's). A device that was
     * trusted keeps its cookie; any other gets one: answers its Set-Cookie header, or null.
     * A trusted device's success does not clear the account's delay: an attacker elsewhere
     * gets no fresh free tries from the owner signing in.
     */
    async succeeded(pass: SignInPass, request: { secure: boolean; account: string }): Promise<string | null> {
      if (pass.via === 'device') {
        await devices.forgive(pass.deviceId);
        return null;
      }
      if (pass.via === 'code' && !(await codes.spend(pass.account, pass.signInCode))) throw new AppError(ErrorCode.INVALID_VERIFICATION_CODE);
      await limits.perAddress.reset(pass.addressKey);
      if (pass.via === 'untrusted') await limits.accountDelay.reset(pass.delayKey);
      const issued = cookies.issue(request.account);
      await devices.trust(deviceId(issued.nonce), pass.account);
      return deviceCookieHeader(cookies.name(request.account), issued.value, { ...deps.cookie, secure: request.secure });
    },

    /** A new sign-in code for the account, to be sent to it (the caller decides whether the account exists). */
    issueCode: (account: string) => codes.issue(accountHash(account)),
  };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;

/** What the guard reads of a sign-in request. */
export interface SignInClient {
  address: string;
  cookieHeader: string | undefined;
  /** The request came over https (directly, or through a trusted proxy, or BEHIND_TLS): the cookie is Secure. */
  secure: boolean;
}

export function signInClientOf(request: { ip: string; protocol: string; headers: { cookie?: string | undefined } }, behindTls: boolean): SignInClient {
  return { address: request.ip, cookieHeader: request.headers.cookie, secure: behindTls || request.protocol === 'https' };
}
