import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../../src/shared/errors/catalogue';
import { createImagePool } from '../../../../../server/modules/uploads/image-pool';

/** A job that ends when the test says so. */
function heldJob() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { job: () => done, finish };
}

describe('the image pool', () => {
  it('runs `concurrency` jobs, queues `queueLimit` more and refuses the next with 1033, then takes work again', async () => {
    const pool = createImagePool({ concurrency: 1, queueLimit: 2 });
    const jobs = [heldJob(), heldJob(), heldJob()];
    const order: number[] = [];
    const runs = jobs.map((held, index) => pool.run(async () => { order.push(index); await held.job(); }));
    expect(pool.load).toEqual({ running: 1, waiting: 2 });
    await expect(pool.run(async () => undefined)).rejects.toMatchObject({ code: ErrorCode.TRY_AGAIN_LATER, message_: { key: 'upload.busy' } });
    for (const held of jobs) {
      held.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(runs);
    expect(order).toEqual([0, 1, 2]);
    expect(pool.load).toEqual({ running: 0, waiting: 0 });
    await expect(pool.run(async () => 'again')).resolves.toBe('again');
  });

  it('frees its place when a job fails', async () => {
    const pool = createImagePool({ concurrency: 1, queueLimit: 0 });
    await expect(pool.run(async () => { throw new Error('corrupt'); })).rejects.toThrow('corrupt');
    await expect(pool.run(async () => 'next')).resolves.toBe('next');
  });
});
