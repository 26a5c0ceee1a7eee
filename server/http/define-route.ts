import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type * as z from 'zod/mini';
import type { ApiContract } from '../../src/shared/api/contract';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { AppError } from './app-error';
import { contractProblems } from './contract-problems';
import { rememberContractBody } from './idempotency';
import { success } from './envelope';

export type RouteHandler<TBody extends z.ZodMiniType, TData extends z.ZodMiniType> = (
  body: z.output<TBody>,
  request: FastifyRequest,
  /** For a header of the answer (the sign-in calls' device cookie); the body is the handler's result. */
  reply: FastifyReply,
) => Promise<z.input<TData>>;

/**
 * Registers one contract as a POST route: the body is validated with the contract's
 * schema (unknown fields rejected), the handler runs one use case, and its result is
 * checked against the contract before it is sent, so the server cannot drift from it.
 * Whatever fails is answered by the error handler (error-handler.ts). `options` adds the
 * route's own hooks and config (the staff scope's checks).
 */
export function defineRoute<TBody extends z.ZodMiniType, TData extends z.ZodMiniType>(
  app: FastifyInstance,
  contract: ApiContract<TBody, TData>,
  handler: RouteHandler<TBody, TData>,
  options: RouteShorthandOptions = {},
) {
  app.post(contract.path, options, async (request, reply) => {
    const parsed = contract.body.safeParse(request.body ?? {});
    if (!parsed.success) {
      throw new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'body does not match the contract', 200, { problems: contractProblems(parsed.error, '(body)') });
    }
    rememberContractBody(request, parsed.data);
    const data = await handler(parsed.data, request, reply);
    return reply.send(success(contract.data.parse(data)));
  });
}
