import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../../src/shared/errors/catalogue';
import { diskFileStore } from '../../../../../server/modules/uploads/file-store';

const id = 'abcdefghijklmnop1234';

describe('the disk file store on a full disk', () => {
  afterEach(() => vi.restoreAllMocks());

  it('refuses the write with the translated 1033, leaves no partial file, tells the operator, and stores again once there is room', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'file-store-'));
    const full: Error[] = [];
    const store = diskFileStore(folder, (error) => full.push(error));
    const realWrite = fs.writeFile;
    // The disk fills half-way through the write, as ENOSPC does: part of the file is on disk.
    vi.spyOn(fs, 'writeFile').mockImplementationOnce(async (file, bytes, options) => {
      await realWrite(file, (bytes as Buffer).subarray(0, 2), options);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    await expect(store.writePending(id, Buffer.from('jpeg bytes'))).rejects.toMatchObject({ code: ErrorCode.TRY_AGAIN_LATER, message_: { key: 'upload.storage_full' } });
    expect(await fs.readdir(folder)).toEqual([]);
    expect(full.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['ENOSPC']);

    await store.writePending(id, Buffer.from('jpeg bytes'));
    await store.commit(id);
    expect((await store.read(id))?.toString()).toBe('jpeg bytes');
    await fs.rm(folder, { recursive: true, force: true });
  });

  it('lets another failure through as it is', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'file-store-'));
    const store = diskFileStore(folder);
    vi.spyOn(fs, 'writeFile').mockRejectedValueOnce(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    await expect(store.writePending(id, Buffer.from('x'))).rejects.toMatchObject({ code: 'EACCES' });
    await fs.rm(folder, { recursive: true, force: true });
  });
});
