import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../../server/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of an embedded database with every migration applied, made once per run (tests/api/harness.ts starts each PGlite from it). */
    migratedPgliteDataDir: string;
  }
}

/**
 * Migrates one embedded database before the API tests and keeps its data directory: each test
 * server's PGlite then starts from it rather than creating a cluster and running every
 * migration again (seconds each, about a hundred times a run). The migrations themselves are
 * still run by every open (they find nothing to do), and tests/api/foundation.test.ts migrates
 * empty databases from scratch.
 */
export default async function setup(project: TestProject) {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-migrated-pglite-'));
  const file = path.join(folder, 'data-dir.tar');
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  try {
    const tarball = await database.dumpDataDir?.();
    if (!tarball) throw new Error('an in-memory PGlite answers its data directory');
    await fs.writeFile(file, Buffer.from(await tarball.arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('migratedPgliteDataDir', file);
  return () => fs.rm(folder, { recursive: true, force: true });
}
