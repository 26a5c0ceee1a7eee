import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { AppError } from '../../http/app-error';

/** One file the store holds: pending until the row that names it has committed. */
export interface StoredEntry {
  id: string;
  pending: boolean;
  modifiedMs: number;
}

/**
 * Where stored files' bytes live, by their random id: a folder under DATA_DIR, or memory
 * (tests). A file is written pending, under a name no reader serves, and becomes the file
 * once the transaction of its `stored_file` row commits (`commit`): a crash between the two
 * leaves a pending file or a committed row with a pending file, both of which the sweep
 * settles (uploads-service.ts), never a file nothing names.
 */
export interface FileStore {
  writePending(id: string, bytes: Buffer): Promise<void>;
  /** The pending file becomes the file (nothing when it already is). */
  commit(id: string): Promise<void>;
  /** The bytes (the pending ones while the commit is under way), or null when the id has none. */
  read(id: string): Promise<Buffer | null>;
  /** Both the file and a pending one. */
  remove(id: string): Promise<void>;
  list(): Promise<StoredEntry[]>;
}

/** Ids are base64url made by the service; anything else never reaches the disk. */
const safeId = /^[A-Za-z0-9_-]{16,64}$/;

function checkedId(id: string): string {
  if (!safeId.test(id)) throw new Error(`not a stored file id: ${JSON.stringify(id)}`);
  return id;
}

const finalSuffix = '.jpg';
const pendingSuffix = '.jpg.pending';

async function readIfThere(file: string): Promise<Buffer | null> {
  try {
    return await fs.readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Errors of a disk (or a quota) with no room left: the customer is asked to try later, the operator told. */
const noRoomCodes = new Set(['ENOSPC', 'EDQUOT']);

/** The upload refused while the disk is full (1033, translated): nothing is kept, and every other request goes on. */
export function storageFull(): AppError {
  return new AppError(ErrorCode.TRY_AGAIN_LATER, 'the uploads disk is full', 200, null, { key: 'upload.storage_full', params: {} });
}

/**
 * Files under `folder` (DATA_DIR/uploads), created on first use, readable by the server's user
 * only. A write that finds the disk full leaves no partial file, answers {@link storageFull}
 * and tells `onFull` (the operator's log).
 */
export function diskFileStore(folder: string, onFull: (error: Error) => void = () => undefined): FileStore {
  let ready: Promise<unknown> | null = null;
  const fileOf = (id: string) => path.join(folder, `${checkedId(id)}${finalSuffix}`);
  const pendingOf = (id: string) => path.join(folder, `${checkedId(id)}${pendingSuffix}`);
  return {
    async writePending(id, bytes) {
      ready ??= fs.mkdir(folder, { recursive: true, mode: 0o700 });
      await ready;
      try {
        // 'wx': a (never expected) id collision fails instead of replacing someone's file.
        await fs.writeFile(pendingOf(id), bytes, { flag: 'wx', mode: 0o600 });
      } catch (error) {
        if (!noRoomCodes.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        await fs.rm(pendingOf(id), { force: true });
        onFull(error as Error);
        throw storageFull();
      }
    },
    async commit(id) {
      try {
        await fs.rename(pendingOf(id), fileOf(id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    },
    async read(id) {
      return (await readIfThere(fileOf(id))) ?? (await readIfThere(pendingOf(id)));
    },
    async remove(id) {
      await fs.rm(fileOf(id), { force: true });
      await fs.rm(pendingOf(id), { force: true });
    },
    async list() {
      let names: string[];
      try {
        names = await fs.readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const entries: StoredEntry[] = [];
      for (const name of names) {
        const pending = name.endsWith(pendingSuffix);
        if (!pending && !name.endsWith(finalSuffix)) continue;
        const id = name.slice(0, -(pending ? pendingSuffix : finalSuffix).length);
        if (!safeId.test(id)) continue;
        const stat = await fs.stat(path.join(folder, name)).catch(() => null);
        if (stat) entries.push({ id, pending, modifiedMs: stat.mtimeMs });
      }
      return entries;
    },
  };
}

export function memoryFileStore(nowMs: () => number = Date.now): FileStore {
  const files = new Map<string, { bytes: Buffer; pending: boolean; modifiedMs: number }>();
  return {
    async writePending(id, bytes) {
      if (files.has(checkedId(id))) throw new Error(`stored file ${id} exists`);
      files.set(id, { bytes: Buffer.from(bytes), pending: true, modifiedMs: nowMs() });
    },
    async commit(id) {
      const file = files.get(id);
      if (file) file.pending = false;
    },
    async read(id) {
      return files.get(id)?.bytes ?? null;
    },
    async remove(id) {
      files.delete(id);
    },
    async list() {
      return [...files].map(([id, file]) => ({ id, pending: file.pending, modifiedMs: file.modifiedMs }));
    },
  };
}
