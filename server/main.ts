import { createTokenService, loadSigningKey } from './auth/tokens';
import { buildServer } from './app';
import { openDatabase } from './db/database';
import { readSettings } from './settings';

/** Starts the reference server: settings, database and migrations, then HTTP. */
async function main() {
  const settings = readSettings();
  const database = await openDatabase(
    settings.databaseUrl
      ? { kind: 'postgres', url: settings.databaseUrl }
      : { kind: 'pglite', dataDir: settings.dataDir },
  );
  const key = await loadSigningKey({ jwtSecret: settings.jwtSecret, dataDir: settings.dataDir });
  const tokens = createTokenService({ key, accessTokenTtlSeconds: settings.accessTokenTtlSeconds });
  const app = await buildServer({ settings, database, tokens, dataDir: settings.dataDir });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: settings.port, host: settings.host });
  app.log.info({ database: database.kind, dataDir: settings.dataDir }, 'ready');
}

main().catch((error: unknown) => {
  // Before the logger exists (bad settings, database that cannot open), say why on stderr.
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
