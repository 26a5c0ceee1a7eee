import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';

/** The pool is full: the upload is refused at once (1033, "try again"), never queued without bound. */
export function imagePoolFull(): AppError {
  return new AppError(ErrorCode.TRY_AGAIN_LATER, 'image pool full', 200, null, { key: 'upload.busy', params: {} });
}

/**
 * Image work (decoding, re-encoding) a few at a time, apart from everything else: libvips
 * runs its pipelines on libuv's threadpool, the same four threads that verify every
 * signed-in call's token (WebCrypto) and read files; four uploads at once took all of them
 * and a customer's balance waited seconds. `concurrency` jobs run, `queueLimit` wait, and
 * one more is refused ({@link imagePoolFull}).
 */
export function createImagePool(options: { concurrency: number; queueLimit: number }) {
  let running = 0;
  const waiting: (() => void)[] = [];

  function release() {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }

  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (running < options.concurrency) running += 1;
      else if (waiting.length < options.queueLimit) await new Promise<void>((resolve) => waiting.push(resolve));
      else throw imagePoolFull();
      try {
        return await job();
      } finally {
        release();
      }
    },
    /** Jobs running and waiting (for tests and the operator's view). */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}

export type ImagePool = ReturnType<typeof createImagePool>;
