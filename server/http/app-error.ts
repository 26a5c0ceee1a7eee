import type { ErrorCode } from '../../src/shared/errors/catalogue';

/**
 * An error a user can cause (bad input, a rule of the product). Routes answer it as an
 * envelope with its code and HTTP 200; anything else is a fault and answers 500.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly httpStatus = 200,
  ) {
    super(detail ?? `error ${code}`);
    this.name = 'AppError';
  }
}
