import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import type { ApiContract } from '../../../src/shared/api/contract';
import { staffLogout, staffMe, staffPassword, staffPathPrefix } from '../../../src/shared/api/staff';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { staffAccessAllows, staffRouteAccess, staffSignedOutPaths, type StaffAccess } from '../../../src/shared/staff/access';
import { reviewKindRole, reviewKinds, type ReviewKind } from '../../../src/shared/staff/roles';
import { AppError } from '../../http/app-error';
import { defineRoute } from '../../http/define-route';
import { answerError } from '../../http/error-handler';
import { normalizedPath } from '../../http/signed-in';
import type { StaffActor } from './audit';
import type { StaffSession, StaffSessions } from './staff-sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff member of a staff call; non-null in every route of the staff scope ({@link StaffRequest}). */
    staff: StaffActor | null;
    /** The staff session behind {@link staff}. */
    staffSession: StaffSession | null;
  }
  interface FastifyContextConfig {
    /** Declared through the staff scope (every `/v1/staff/` route must be). */
    staffScope?: boolean;
  }
}

export type StaffRequest = FastifyRequest & { staff: StaffActor; staffSession: StaffSession };

export interface StaffRoutes {
  /** Access comes from the shared route table src/shared/staff/access.ts (staffRouteAccess); a path missing there throws at start. */
  route<B extends z.ZodMiniType, D extends z.ZodMiniType>(contract: ApiContract<B, D>, handler: (body: z.output<B>, request: StaffRequest) => Promise<z.input<D>>): void;
  /** A GET path of the table answering bytes of its own (the staff file route), behind the same checks. */
  getRoute(path: string, handler: (request: StaffRequest, reply: FastifyReply) => Promise<unknown>): void;
  /** Every declared route with its access, for the role-matrix test. */
  table(): ReadonlyArray<{ path: string; access: StaffAccess }>;
}

/** What a staff member with a one-time password may still do: see who they are, change it, leave. */
const beforePasswordChange = new Set<string>([staffMe.path, staffPassword.path, staffLogout.path]);

function isStaffPath(path: string): boolean {
  return path.startsWith(staffPathPrefix);
}

function accessOf(path: string): StaffAccess | undefined {
  return (staffRouteAccess as Record<string, StaffAccess | undefined>)[path];
}

function bearerOf(request: FastifyRequest): string {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
}

function isStaffRequest(request: FastifyRequest): request is StaffRequest {
  return request.staff !== null && request.staffSession !== null;
}

/**
 * The staff scope: every `/v1/staff/` route is declared here, with the access the shared
 * route table gives its path. Each call is checked in this order: a valid staff token
 * (else 401 NOT_LOGGED_IN; a customer's token is not one), a live session (else 23519),
 * a changed one-time password (else 2002, but for me, password and logout), then the role
 * (else 2001, HTTP 403) — before the body is validated, except for routes whose access
 * depends on the body's review kind. A `/v1/staff/` path no route matched is checked too,
 * so no spelling of one answers anything but 401 without a staff token.
 */
export function registerStaffScope(app: FastifyInstance, sessions: StaffSessions) {
  const declared: { path: string; access: StaffAccess }[] = [];
  app.decorateRequest('staff', null);
  app.decorateRequest('staffSession', null);

  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const checked = await sessions.check(bearerOf(request));
    if (checked.kind === 'none') return answerError(request, reply, new AppError(ErrorCode.NOT_LOGGED_IN, 'no valid staff bearer token', 401));
    if (checked.kind === 'ended') return answerError(request, reply, new AppError(ErrorCode.SESSION_ENDED));
    const { session } = checked;
    request.staffSession = session;
    request.staff = { staffId: session.staffId, email: session.email, roles: session.roles, address: request.ip };
  }

  function authorize(access: StaffAccess, path: string) {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const session = request.staffSession;
      if (!session) return; // authenticate answered already
      if (session.mustChangePassword && !beforePasswordChange.has(path)) return answerError(request, reply, new AppError(ErrorCode.STAFF_PASSWORD_CHANGE_REQUIRED));
      let kindRole;
      if (access === 'byReviewKind') {
        const kind = (request.body as { kind?: unknown } | null | undefined)?.kind;
        if (typeof kind !== 'string' || !(reviewKinds as readonly string[]).includes(kind)) {
          return answerError(request, reply, new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'kind: expected a review kind'));
        }
        kindRole = reviewKindRole[kind as ReviewKind];
      }
      if (!staffAccessAllows(session.roles, access, kindRole)) return answerError(request, reply, new AppError(ErrorCode.STAFF_ROLE_REQUIRED, `${path} needs another role`, 403));
    };
  }

  // What no route matched is checked by the path the router would have read.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404 || !isStaffPath(normalizedPath(request.url))) return;
    const checked = await sessions.check(bearerOf(request));
    if (checked.kind === 'none') return answerError(request, reply, new AppError(ErrorCode.NOT_LOGGED_IN, 'no valid staff bearer token', 401));
  });
  app.addHook('onRoute', (route) => {
    if (!isStaffPath(normalizedPath(route.url)) || route.config?.staffScope === true) return;
    throw new Error(`${route.method} ${route.url} is a staff path: declare it through the staff scope`);
  });

  const staffRoutes: StaffRoutes = {
    route(contract, handler) {
      const access = accessOf(contract.path);
      if (access === undefined) throw new Error(`${contract.path} is not in the staff route table (src/shared/staff/access.ts)`);
      declared.push({ path: contract.path, access });
      defineRoute(
        app,
        contract,
        (body, request) => {
          // Only a bug reaches this: the hooks answered every request without a staff session.
          if (!isStaffRequest(request)) throw new Error(`${contract.path} reached without a staff session`);
          return handler(body, request);
        },
        { config: { staffScope: true }, onRequest: authenticate, preHandler: authorize(access, contract.path) },
      );
    },
    getRoute(path, handler) {
      const access = accessOf(path);
      if (access === undefined) throw new Error(`${path} is not in the staff route table (src/shared/staff/access.ts)`);
      if (access === 'byReviewKind') throw new Error(`${path}: a GET route has no body to read a review kind from`);
      declared.push({ path, access });
      app.get(path, { config: { staffScope: true }, onRequest: authenticate, preHandler: authorize(access, path) }, async (request, reply) => {
        if (!isStaffRequest(request)) throw new Error(`${path} reached without a staff session`);
        return handler(request, reply);
      });
    },
    table: () => declared.map((entry) => ({ ...entry })),
  };

  /** login and refresh: staff paths that take no staff token. */
  function signedOutRoute<B extends z.ZodMiniType, D extends z.ZodMiniType>(
    contract: ApiContract<B, D>,
    handler: (body: z.output<B>, request: FastifyRequest, reply: FastifyReply) => Promise<z.input<D>>,
  ) {
    if (!(staffSignedOutPaths as readonly string[]).includes(contract.path)) throw new Error(`${contract.path} is not a signed-out staff path`);
    defineRoute(app, contract, handler, { config: { staffScope: true } });
  }

  return { staffRoutes, signedOutRoute };
}
