import crypto from 'node:crypto';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import type { StaffRole } from '../../../src/shared/staff/roles';
import { AppError } from '../../http/app-error';
import type { StaffContext, StaffDependencies } from './staff-context';
import { storedRoles, type StaffDb } from './staff-repository';

/** A staff member's live session, as a verified token and the database say. */
export interface StaffSession {
  staffId: number;
  familyId: string;
  email: string;
  roles: StaffRole[];
  mustChangePassword: boolean;
}

/** What a staff bearer token turned out to be. */
export type StaffSessionCheck = { kind: 'none' } | { kind: 'ended' } | { kind: 'live'; session: StaffSession };

/**
 * Staff sessions, as identity's are for customers: a family per sign-in, refresh tokens
 * that rotate within it (reusing a spent one ends the family), and whether a session lives
 * (not ended, the member not disabled), asked on every call.
 */
export function createStaffSessions(deps: StaffDependencies, context: StaffContext) {
  const { repository, tokens, cipher, settings, audit } = deps;
  const { nowMs, now } = context;
  const refreshHash = (refreshToken: string) => cipher.digest(`staff-refresh:${refreshToken}`);
  const refreshExpiry = () => new Date(nowMs() + settings.refreshTokenTtlSeconds * 1000);

  async function issue(staffId: number, familyId: string): Promise<{ token: string; refreshToken: string }> {
    const refreshToken = crypto.randomBytes(32).toString('base64url');
    await repository.insertRefreshToken({ tokenHash: refreshHash(refreshToken), familyId, expiresAt: refreshExpiry(), createdAt: now() });
    const { token } = await tokens.issueStaffAccessToken({ sid: staffId, fid: familyId });
    return { token, refreshToken };
  }

  async function endFamilyForReuse(familyId: string): Promise<never> {
    await repository.revokeFamily(familyId, 'refresh-token-reuse', now());
    throw new AppError(ErrorCode.SESSION_ENDED);
  }

  return {
    async startSession(staffId: number) {
      const familyId = crypto.randomUUID();
      await repository.createFamily(familyId, staffId, now());
      return issue(staffId, familyId);
    },

    /** Spends a refresh token for a new pair (one audit row); reusing a spent one ends the whole family. */
    async refresh(refreshToken: string, address: string): Promise<{ token: string; refreshToken: string }> {
      const tokenHash = refreshHash(refreshToken);
      const stored = await repository.findRefreshToken(tokenHash);
      if (!stored) throw new AppError(ErrorCode.SESSION_ENDED);
      const session = await repository.findSession(stored.family_id);
      if (!session || session.revoked_at || session.disabled_at) throw new AppError(ErrorCode.SESSION_ENDED);
      if (stored.used_at) return endFamilyForReuse(stored.family_id);
      if (stored.expires_at.getTime() <= nowMs()) throw new AppError(ErrorCode.SESSION_ENDED);
      const next = crypto.randomBytes(32).toString('base64url');
      const rotated = await repository.rotateRefreshToken(tokenHash, { tokenHash: refreshHash(next), familyId: stored.family_id, expiresAt: refreshExpiry() }, now());
      if (!rotated) return endFamilyForReuse(stored.family_id);
      const { token } = await tokens.issueStaffAccessToken({ sid: session.staffId, fid: stored.family_id });
      await audit.append(repository.db, { staffId: session.staffId, address }, { action: 'staff.refresh', targetType: 'staff', targetId: String(session.staffId), before: null, after: null });
      return { token, refreshToken: next };
    },

    /** A bearer token's session: none (no valid staff token), ended, or live with the member's current roles. */
    async check(bearer: string): Promise<StaffSessionCheck> {
      const payload = bearer ? await tokens.verifyStaffAccessToken(bearer) : null;
      if (!payload) return { kind: 'none' };
      const row = await repository.findSession(payload.fid);
      if (!row || row.staffId !== payload.sid || row.revoked_at || row.disabled_at) return { kind: 'ended' };
      return {
        kind: 'live',
        session: { staffId: row.staffId, familyId: row.familyId, email: row.email, roles: storedRoles(row.roles), mustChangePassword: row.must_change_password },
      };
    },

    /** Ends the session, with one audit row. */
    async logout(familyId: string, by: { staffId: number; address: string }) {
      await repository.revokeFamily(familyId, 'logout', now());
      await audit.append(repository.db, by, { action: 'staff.signOut', targetType: 'staff', targetId: String(by.staffId), before: null, after: null });
    },

    /** Ends a staff member's sessions (all, or all but one) in the caller's transaction. */
    async endSessions(trx: StaffDb, staffId: number, reason: string, keepFamilyId?: string) {
      await repository.revokeFamiliesOf(trx, staffId, reason, now(), keepFamilyId);
    },
  };
}

export type StaffSessions = ReturnType<typeof createStaffSessions>;
