import crypto from 'node:crypto';
import type { TokenPair } from '../../../src/shared/api/auth';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { bookOf, VirtualStatus } from '../../../src/shared/session/token';
import { AppError } from '../../http/app-error';
import type { LiveSession } from '../../http/signed-in';
import type { IdentityContext, IdentityDependencies } from './identity-context';

/** A session as an access token names it. */
interface SessionOfToken {
  uid: number;
  fid?: string | undefined;
  virtualStatus: number;
}

/**
 * Sessions: a family per sign-in, refresh tokens that rotate within it (reusing a spent
 * one ends the family), the real ⇄ demo switch, and whether a session still lives.
 */
export function createSessions(deps: IdentityDependencies, context: IdentityContext) {
  const { repository, tokens, cipher, settings, events } = deps;
  const { nowMs, now } = context;

  async function issueSession(uid: number, virtualStatus: number, familyId: string): Promise<TokenPair> {
    const refreshToken = crypto.randomBytes(32).toString('base64url');
    await repository.insertRefreshToken({
      tokenHash: cipher.digest(`refresh:${refreshToken}`),
      familyId,
      virtualStatus,
      expiresAt: new Date(nowMs() + settings.refreshTokenTtlSeconds * 1000),
      createdAt: now(),
    });
    const { token } = await tokens.issueAccessToken({ uid, virtualStatus, aesKey: cipher.derive(`aes:${familyId}`, 16), fid: familyId });
    return { token, refreshToken };
  }

  async function endFamilyForReuse(familyId: string): Promise<never> {
    await repository.revokeFamily(familyId, 'refresh-token-reuse', now());
    events.sessionsEnded.announce({ fid: familyId });
    throw new AppError(ErrorCode.SESSION_ENDED);
  }

  return {
    /** A new session (family) for a user who just signed in, on the real account. */
    async startSession(uid: number): Promise<TokenPair> {
      const familyId = crypto.randomUUID();
      await repository.createFamily(familyId, uid, now());
      return issueSession(uid, 0, familyId);
    },

    /** Spends a refresh token for a new pair; reusing a spent one ends the whole family. */
    async refresh(refreshToken: string): Promise<TokenPair> {
      const tokenHash = cipher.digest(`refresh:${refreshToken}`);
      const stored = await repository.findRefreshToken(tokenHash);
      if (!stored) throw new AppError(ErrorCode.SESSION_ENDED);
      const family = await repository.findFamily(stored.family_id);
      if (!family || family.revoked_at) throw new AppError(ErrorCode.SESSION_ENDED);
      if (stored.used_at) return endFamilyForReuse(family.id);
      if (stored.expires_at.getTime() <= nowMs()) throw new AppError(ErrorCode.SESSION_ENDED);
      const user = await repository.findUserByUid(family.uid);
      if (!user || user.blocked) throw new AppError(ErrorCode.SESSION_ENDED);
      const next = crypto.randomBytes(32).toString('base64url');
      const rotated = await repository.rotateRefreshToken(
        tokenHash,
        { tokenHash: cipher.digest(`refresh:${next}`), familyId: family.id, virtualStatus: stored.virtual_status, expiresAt: new Date(nowMs() + settings.refreshTokenTtlSeconds * 1000) },
        now(),
      );
      if (!rotated) return endFamilyForReuse(family.id);
      const { token } = await tokens.issueAccessToken({ uid: user.uid, virtualStatus: stored.virtual_status, aesKey: cipher.derive(`aes:${family.id}`, 16), fid: family.id });
      return { token, refreshToken: next };
    },

    /**
     * A verified access token's session if it is still alive (not ended server-side), with
     * what the same read learnt of its user; null when it has ended.
     */
    async liveSession(auth: SessionOfToken): Promise<LiveSession | null> {
      if (!auth.fid) return null;
      const state = await repository.sessionState(auth.fid);
      if (!state || state.revoked_at || state.uid !== auth.uid) return null;
      if (state.user_uid === null || state.blocked !== false) return null;
      if (bookOf(auth) === 'demo' && !(await deps.switches()).VIRTUAL_CURRENCY_TRADE) return null;
      return { tradeProhibited: state.trade_prohibited !== false };
    },

    async logout(auth: { fid?: string | undefined }) {
      if (!auth.fid) return;
      await repository.revokeFamily(auth.fid, 'logout', now());
      events.sessionsEnded.announce({ fid: auth.fid });
    },

    /** Every session of a user ends (a password reset). */
    async endAllSessions(uid: number, reason: string) {
      await repository.revokeFamiliesOfUser(uid, reason, now());
      events.sessionsEnded.announce({ uid });
    },

    /** Real ⇄ demo: new tokens for the other account in the same session. */
    async switchAccount(auth: SessionOfToken): Promise<TokenPair> {
      if (!auth.fid) throw new AppError(ErrorCode.SESSION_ENDED);
      const toDemo = bookOf(auth) === 'real';
      const user = await repository.findUserByUid(auth.uid);
      if (!user) throw new AppError(ErrorCode.SESSION_ENDED);
      if (toDemo) {
        if (!(await deps.switches()).VIRTUAL_CURRENCY_TRADE) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'demo trading is off');
        // Marked and checked in one statement: two parallel switches cannot both be the first.
        const first = await repository.markVirtualUsed(user.uid, now());
        if (settings.virtualTradingOnce && !first) throw new AppError(ErrorCode.VIRTUAL_TRADING_ONLY_ONCE);
      }
      await repository.spendFamilyTokens(auth.fid, now());
      return issueSession(user.uid, toDemo ? VirtualStatus.demo : VirtualStatus.real, auth.fid);
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
