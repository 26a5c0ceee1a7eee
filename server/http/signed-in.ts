import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import type { ApiContract } from '../../src/shared/api/contract';
import { checkToken } from '../../src/shared/api/auth';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { bookOf, type AccessTokenPayload, type Book } from '../../src/shared/session/token';
import { AppError } from './app-error';
import { defineRoute } from './define-route';
import { success } from './envelope';
import { answerError } from './error-handler';
import { defineMultipartRoute, type MultipartHandler } from './multipart';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified access token of a signed-in call; non-null in every route of a signed-in scope ({@link SignedInRequest}). */
    session: AccessTokenPayload | null;
    /** A route that checks its session alongside its reads: settles with what the check read once the session is known to live, rejects with SESSION_ENDED. */
    sessionLives: Promise<LiveSession> | null;
  }
  interface FastifyContextConfig {
    /** A signed-in path that checks its own credentials (the positions socket: its token is in the query). */
    signsInItself?: boolean;
    /** Declared through `routeCheckingSessionAlongside`: the hook verifies the token and starts the liveness check without waiting. */
    sessionCheckedAlongside?: boolean;
  }
}

/** The session an access token names. */
export type SessionOfToken = Pick<AccessTokenPayload, 'uid' | 'fid' | 'virtualStatus'>;

/**
 * What the liveness check read of a living session's user in its one statement, so a route
 * that needs it reads it no second time (placing an order: whether the user may trade).
 */
export interface LiveSession {
  tradeProhibited: boolean;
}

/** What the check asks: is the token well signed, and does its session still live (not ended server-side)? null: ended. */
export interface SessionCheck {
  verify(token: string): Promise<AccessTokenPayload | null>;
  alive(session: SessionOfToken): Promise<LiveSession | null>;
}

/** A request that passed the signed-in check. */
export type SignedInRequest = FastifyRequest & { session: AccessTokenPayload };

export type SignedInHandler<TBody extends z.ZodMiniType, TData extends z.ZodMiniType> = (body: z.output<TBody>, request: SignedInRequest) => Promise<z.input<TData>>;

/** A handler given its session's liveness check still running: it awaits `sessionLives` before it writes anything. */
export type SessionAlongsideHandler<TBody extends z.ZodMiniType, TData extends z.ZodMiniType> = (
  body: z.output<TBody>,
  request: SignedInRequest,
  sessionLives: Promise<LiveSession>,
) => Promise<z.input<TData>>;

/** Where signed-in routes are declared: only here, so none can miss the check. */
export interface SignedInScope {
  /** A contract's route whose handler is given the verified session. */
  route<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(contract: ApiContract<TBody, TData>, handler: SignedInHandler<TBody, TData>): void;
  /**
   * A hot route (placing and closing orders) whose first reads go out while the session's
   * liveness is still being checked: one database wait fewer per call. The handler must
   * await `sessionLives` before it writes; its answer, success or refusal, waits for the
   * check too, and an ended session answers SESSION_ENDED as on every other route.
   */
  routeCheckingSessionAlongside<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(contract: ApiContract<TBody, TData>, handler: SessionAlongsideHandler<TBody, TData>): void;
  /** A multipart contract (`metaData` checked against its body, the named file parts read whole before the handler runs). */
  multipartRoute<TMeta extends z.ZodMiniType, TData extends z.ZodMiniType>(
    contract: ApiContract<TMeta, TData>,
    fileFields: readonly string[],
    handler: MultipartHandler<TMeta, TData, SignedInRequest>,
  ): void;
  /** A GET path that answers bytes of its own (the owner's file route), behind the same check. */
  getRoute(path: string, handler: (request: SignedInRequest, reply: FastifyReply) => Promise<unknown>): void;
  /** A path the check itself answers: code 0 once the session is verified (`user/checkToken`). */
  answeredByTheCheck(path: string): void;
}

/** Registers routes in a new signed-in scope (an encapsulated plugin whose hook checks every request). */
export type SignedInRoutes = (register: (scope: SignedInScope) => void) => Promise<void>;

const signedInPrefixes = ['/v1/waa/', '/exchange/'];

/** Whether a path belongs to the signed-in calls (`/v1/waa/…`, `/exchange/…`). */
export function isSignedInPath(path: string | undefined): boolean {
  return path !== undefined && signedInPrefixes.some((prefix) => path.startsWith(prefix));
}

/** A URL's path decoded, lower-cased and with runs of slashes collapsed: no spelling of a signed-in path escapes the check. */
export function normalizedPath(url: string): string {
  const raw = url.split('?')[0] ?? '';
  let path = raw;
  try {
    path = decodeURIComponent(raw);
  } catch {
    // A malformed escape matches no route; the raw path is checked as it is.
  }
  return path.replace(/\/+/g, '/').toLowerCase();
}

/** The signed-in user of a path that exists per book: real paths take real tokens, Mock paths demo ones. */
export function sessionOnBook(session: AccessTokenPayload, book: Book): number {
  const tokenBook = bookOf(session);
  if (tokenBook !== book) throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, `${tokenBook} session on a ${book} path`);
  return session.uid;
}

function hasSession(request: FastifyRequest): request is SignedInRequest {
  return request.session !== null;
}

/**
 * The signed-in check: a bearer token, well signed, whose session lives. Refusals answer
 * 401 NOT_LOGGED_IN without a valid token and SESSION_ENDED for an ended session, except
 * `user/checkToken`, which answers LIST_FAILURE for both. Routes are declared through the
 * returned {@link SignedInRoutes}; a signed-in path registered anywhere else fails at
 * start, and a request no route matched is checked by its normalized path, so that no
 * spelling (`%2F`, case, runs of slashes) reaches the not-found answer unchecked.
 */
export function registerSignedIn(app: FastifyInstance, sessions: SessionCheck): SignedInRoutes {
  const scopes = new WeakSet<FastifyInstance>();
  app.decorateRequest('session', null);
  app.decorateRequest('sessionLives', null);

  async function check(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
    const payload = token ? await sessions.verify(token) : null;
    const checkingToken = request.routeOptions.url === checkToken.path;
    if (!payload) {
      const refusal = checkingToken ? new AppError(ErrorCode.LIST_FAILURE) : new AppError(ErrorCode.NOT_LOGGED_IN, 'no valid bearer token', 401);
      return answerError(request, reply, refusal);
    }
    // A valid signature is not enough: the session may have been ended server-side.
    if (request.routeOptions.config.sessionCheckedAlongside === true) {
      const lives = sessions.alive(payload).then((live) => {
        if (!live) throw new AppError(ErrorCode.SESSION_ENDED);
        return live;
      });
      // Observed by the route in every path; this keeps a failure before that from being reported as unhandled.
      lives.catch(() => undefined);
      request.sessionLives = lives;
      request.session = payload;
      return;
    }
    if (!(await sessions.alive(payload))) {
      return answerError(request, reply, new AppError(checkingToken ? ErrorCode.LIST_FAILURE : ErrorCode.SESSION_ENDED));
    }
    request.session = payload;
  }

  // Matched routes are checked by their scope; what no route matched, by the path the router would have read.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404 || !isSignedInPath(normalizedPath(request.url))) return;
    return check(request, reply);
  });
  app.addHook('onRoute', function (route) {
    if (!isSignedInPath(normalizedPath(route.url)) || scopes.has(this) || route.config?.signsInItself === true) return;
    throw new Error(`${route.method} ${route.url} is a signed-in path: declare it through the signed-in scope`);
  });

  return async (register) => {
    await app.register(async (instance) => {
      scopes.add(instance);
      instance.addHook('onRequest', check);
      register({
        route(contract, handler) {
          defineRoute(instance, contract, (body, request) => {
            // Only a bug reaches this: the scope's hook answered every request without a session.
            if (!hasSession(request)) throw new Error(`${contract.path} reached without a session`);
            return handler(body, request);
          });
        },
        routeCheckingSessionAlongside(contract, handler) {
          defineRoute(
            instance,
            contract,
            async (body, request) => {
              const lives = request.sessionLives;
              if (!hasSession(request) || lives === null) throw new Error(`${contract.path} reached without a session check`);
              let data: Awaited<ReturnType<typeof handler>>;
              try {
                data = await handler(body, request, lives);
              } catch (error) {
                // An ended session answers as such, not with whatever the handler refused first.
                await lives;
                throw error;
              }
              await lives;
              return data;
            },
            { config: { sessionCheckedAlongside: true } },
          );
        },
        multipartRoute(contract, fileFields, handler) {
          defineMultipartRoute(instance, contract, fileFields, handler, (request) => {
            if (!hasSession(request)) throw new Error(`${contract.path} reached without a session`);
            return request;
          });
        },
        getRoute(path, handler) {
          instance.get(path, async (request, reply) => {
            if (!hasSession(request)) throw new Error(`${path} reached without a session`);
            return handler(request, reply);
          });
        },
        answeredByTheCheck(path) {
          instance.post(path, async () => success(null));
        },
      });
    });
  };
}
