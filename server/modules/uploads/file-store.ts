import fs from 'node:fs/promises';
import path from 'node:path';

/** Where stored files' bytes live, by their random id: a folder under DATA_DIR, or memory (tests). */
export interface FileStore {
  write(id: string, bytes: Buffer): Promise<void>;
  /** The bytes, or null when the id has none. */
  read(id: string): Promise<Buffer | null>;
  remove(id: string): Promise<void>;
}

/** Ids are base64url made by the service; anything else never reaches the disk. */
const safeId = /^[A-Za-z0-9_-]{16,64}$/;

function checkedId(id: string): string {
  if (!safeId.test(id)) throw new Error(`not a stored file id: ${JSON.stringify(id)}`);
  return id;
}

/** Files under `folder` (DATA_DIR/uploads), created on first use, readable by the server's user only. */
export function diskFileStore(folder: string): FileStore {
  let ready: Promise<unknown> | null = null;
  const fileOf = (id: string) => path.join(folder, `${checkedId(id)}.jpg`);
  return {
    async write(id, bytes) {
      ready ??= fs.mkdir(folder, { recursive: true, mode: 0o700 });
      await ready;
      // 'wx': a (never expected) id collision fails instead of replacing someone's file.
      await fs.writeFile(fileOf(id), bytes, { flag: 'wx', mode: 0o600 });
    },
    async read(id) {
      try {
        return await fs.readFile(fileOf(id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(id) {
      await fs.rm(fileOf(id), { force: true });
    },
  };
}

export function memoryFileStore(): FileStore {
  const files = new Map<string, Buffer>();
  return {
    async write(id, bytes) {
      if (files.has(checkedId(id))) throw new Error(`stored file ${id} exists`);
      files.set(id, Buffer.from(bytes));
    },
    async read(id) {
      return files.get(id) ?? null;
    },
    async remove(id) {
      files.delete(id);
    },
  };
}
