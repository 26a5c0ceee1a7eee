import { ErrorCode } from '../../src/shared/errors/catalogue';

/**
 * An error a user can cause (bad input, a rule of the product). Routes answer it as an
 * envelope with its code and HTTP 200; anything else is a fault and answers 500.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly httpStatus = 200,
    /** What the envelope's data carries (e.g. the seconds to wait). */
    readonly data: unknown = null,
    /** A message other than the code's own, from the locale files. */
    readonly message_?: { key: string; params: Record<string, string | number> },
  ) {
    super(detail ?? `error ${code}`);
    this.name = 'AppError';
  }
}

/** Too many attempts: code 1033, HTTP 429, and the seconds to wait in the message and the data. */
export function rateLimitedError(retryAfterSeconds: number): AppError {
  return new AppError(ErrorCode.TRY_AGAIN_LATER, 'rate limited', 429, { retryAfterSeconds }, {
    key: 'notice.request_frequency_high',
    params: { seconds: retryAfterSeconds },
  });
}

/**
 * A caller's reference reused for a different request is refused (1016), never answered with
 * the first request's result: a clientOrderId that placed another order, an Idempotency-Key
 * first sent with another body or to another call.
 */
function referenceReusedError(detail: string, key: string): AppError {
  return new AppError(ErrorCode.INCORRECT_PARAMETER_VALUE, detail, 200, null, { key, params: {} });
}

/** A clientOrderId already placed a different order: refused (1016), never answered with the first order. */
export function clientOrderReusedError(): AppError {
  return referenceReusedError('clientOrderId reused for another order', 'trade.client_order_reused');
}

/** An Idempotency-Key first sent with another body or to another call: refused (1016), nothing runs. */
export function idempotencyKeyReusedError(): AppError {
  return referenceReusedError('Idempotency-Key reused for another request', 'notice.request_reused');
}
