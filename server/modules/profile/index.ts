import type { FastifyRequest } from 'fastify';
import { avatarPartName, infoSubmit, inviteInfo } from '../../../src/shared/api/profile';
import type { DatabaseHandle } from '../../db/database';
import type { SignedInRoutes } from '../../http/signed-in';
import type { UploadsService } from '../uploads';
import { createProfileRepository } from './profile-repository';
import { createProfileService, type ProfileService } from './profile-service';

export type { ProfileService } from './profile-service';

/**
 * The origin of the app that asks (its `Origin` header, sent with every browser POST), for
 * the invite link; without one (a script), this server's own origin, where the app is served.
 */
function appOriginOf(request: FastifyRequest): string {
  const header = request.headers.origin;
  if (typeof header === 'string') {
    try {
      const url = new URL(header);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    } catch {
      // not a URL: fall back to this server's origin
    }
  }
  return `${request.protocol}://${request.host}`;
}

/**
 * Profile and invite: `user/infoSubmit` (multipart: nickname, optional avatar through the
 * upload pipeline, read back by its owner at `user/info`'s `avator` URL) and `invite/info`.
 * Sign-up with an invite code (identity's) records who invited whom; this counts them.
 */
export async function registerProfile(deps: { database: DatabaseHandle; signedIn: SignedInRoutes; uploads: UploadsService }): Promise<ProfileService> {
  const db = deps.database.db;
  const profile = createProfileService({ db, repository: createProfileRepository(db), uploads: deps.uploads });
  await deps.signedIn((scope) => {
    scope.multipartRoute(infoSubmit, [avatarPartName], async (meta, files, request) => {
      await profile.submit(request.session.uid, { nick: meta.nickName, avatar: files[avatarPartName] });
      return null;
    });
    scope.route(inviteInfo, async (_body, request) => profile.inviteInfo(request.session.uid, appOriginOf(request)));
  });
  return profile;
}
