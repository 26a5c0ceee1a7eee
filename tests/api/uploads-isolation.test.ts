import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { inTransaction } from '../../server/db/after-commit';
import { diskFileStore } from '../../server/modules/uploads/file-store';
import { createImagePool } from '../../server/modules/uploads/image-pool';
import { createUploadsService, sweepGraceMs } from '../../server/modules/uploads/uploads-service';
import { startTestServer, testBackends, type TestServer } from './harness';
import { call } from './identity-support';
import { newCustomer } from './reviews-support';
import { getFile, jpegImage, multipartBody, multipartCall } from './uploads-support';

type Customer = Awaited<ReturnType<typeof newCustomer>>;

/**
 * Issue 31, finding 6: uploads that stall everyone. Replaced avatars were never deleted (10
 * uploads added 38 MB), a file was written before its row (a crash left orphans nothing
 * swept), and nothing limited how many images one account sent.
 */
describe.each(testBackends())('uploads kept in bounds on $name', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { UPLOADS_PER_10_MIN: '3', CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const setAvatar = async (who: Customer, width: number) => {
    const body = multipartBody({ metaData: JSON.stringify({ nickName: 'Pat' }) }, [{ field: 'avatar', filename: 'me.jpg', bytes: await jpegImage(width, 200), type: 'image/jpeg' }]);
    return multipartCall(server, '/v1/waa/user/infoSubmit', body, who.token);
  };
  const avatarUrl = async (who: Customer) => ((await call(server, '/v1/waa/user/info', {}, who.token)).data as { avator: string }).avator;
  const storedOf = async (uid: number) => (await server.database.db.selectFrom('stored_file').select('id').where('uid', '=', uid).execute()).map((row) => row.id);

  it('deletes the avatar a new one replaces: its file answers 404 and only the new one is kept', async () => {
    const who = await newCustomer(server, 'avatar');
    expect((await setAvatar(who, 300)).code).toBe(0);
    const first = await avatarUrl(who);
    expect((await getFile(server, first, who.token)).status).toBe(200);
    expect((await setAvatar(who, 320)).code).toBe(0);
    const second = await avatarUrl(who);
    expect(second).not.toBe(first);
    await server.app.uploads.settled();
    expect((await getFile(server, first, who.token)).status).toBe(404);
    expect((await getFile(server, second, who.token)).status).toBe(200);
    expect(await storedOf(who.uid)).toHaveLength(1);
  });

  it('limits the images one account uploads (1033 with the wait), not another account', async () => {
    const who = await newCustomer(server, 'many');
    const codes = [];
    for (let i = 0; i < 4; i += 1) codes.push((await setAvatar(who, 300 + i)).code);
    expect(codes).toEqual([0, 0, 0, ErrorCode.TRY_AGAIN_LATER]);
    const refused = await setAvatar(who, 310);
    expect(refused).toMatchObject({ status: 429, code: ErrorCode.TRY_AGAIN_LATER });
    expect((refused.data as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect(await storedOf(who.uid)).toHaveLength(1);
    const other = await newCustomer(server, 'other');
    expect((await setAvatar(other, 300)).code).toBe(0);
  });

  it('the sweep settles what a crash left: orphans and uncommitted files removed, a committed pending file kept', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-sweep-'));
    let clock = Date.now();
    const uploads = createUploadsService({ db: server.database.db, store: diskFileStore(folder), pool: createImagePool({ concurrency: 1, queueLimit: 2 }), nowMs: () => clock });
    const owner = await newCustomer(server, 'sweep');
    // A file kept normally, and one whose row committed just before a crash (its rename never ran).
    const kept = await uploads.storeImage(undefined, { uid: owner.uid, purpose: 'avatar', bytes: await jpegImage(), filename: 'a.jpg' });
    const second = await jpegImage(330, 200);
    const crashedAfterCommit = await inTransaction(server.database.db, (trx) => uploads.storeImage(trx, { uid: owner.uid, purpose: 'avatar', bytes: second, filename: 'b.jpg' }));
    await uploads.settled();
    fs.renameSync(path.join(folder, `${crashedAfterCommit}.jpg`), path.join(folder, `${crashedAfterCommit}.jpg.pending`));
    // What older crashes left: a file written before its row (the old order) and a pending file whose transaction never committed.
    const orphan = crypto.randomBytes(16).toString('base64url');
    const uncommitted = crypto.randomBytes(16).toString('base64url');
    fs.writeFileSync(path.join(folder, `${orphan}.jpg`), await jpegImage());
    fs.writeFileSync(path.join(folder, `${uncommitted}.jpg.pending`), await jpegImage());

    // Within the grace period nothing is touched: a transaction may still be open.
    clock = Date.now();
    expect(await uploads.sweep()).toEqual({ committed: 0, removed: 0 });
    clock += sweepGraceMs + 1000;
    expect(await uploads.sweep()).toEqual({ committed: 1, removed: 2 });
    expect(fs.readdirSync(folder).sort()).toEqual([`${kept}.jpg`, `${crashedAfterCommit}.jpg`].sort());
    expect((await uploads.anyFile(crashedAfterCommit))?.contentType).toBe('image/jpeg');
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
