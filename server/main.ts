import pino from 'pino';
import { createTokenService, loadSigningKey } from './auth/tokens';
import { buildServer } from './app';
import { openDatabase } from './db/database';
import { readSettings } from './settings';
import { createClusterLink } from './cluster/cluster-link';
import { clusterMember } from './cluster/cluster-context';

/** Starts the reference server: settings, database and migrations, then HTTP. */
async function main() {
  const settings = readSettings();
  // Told by the pool before the server's log exists (during migrations) too.
  let connectionLost: (error: Error) => void = (error) => {
    process.stderr.write(`a database connection was lost: ${error.message}\n`);
  };
  const database = await openDatabase(
    settings.databaseUrl
      ? { kind: 'postgres', url: settings.databaseUrl, onConnectionLost: (error) => connectionLost(error) }
      : { kind: 'pglite', dataDir: settings.dataDir },
  );
  const key = await loadSigningKey({ jwtSecret: settings.jwtSecret, dataDir: settings.dataDir });
  const tokens = createTokenService({ key, accessTokenTtlSeconds: settings.accessTokenTtlSeconds });
  const cluster = await joinCluster(settings, database);
  const app = await buildServer({ settings, database, tokens, dataDir: settings.dataDir, ...(cluster ? { cluster } : {}) });
  connectionLost = (error) => app.log.warn({ err: error }, 'a database connection was lost; the next query connects again');

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

/**
 * On a shared database and broker: this process among several, `all` included (every role,
 * through the leases, and its ticks published for the others; readSettings has made sure the
 * shared secrets are set). Alone on its database (PGlite, or no broker) it leads everything.
 */
async function joinCluster(settings: ReturnType<typeof readSettings>, database: Awaited<ReturnType<typeof openDatabase>>) {
  if (!settings.databaseUrl || !settings.marketBrokerUrl || !settings.jwtSecret) return null;
  const log = pino({ level: settings.logLevel }).child({ part: 'cluster' });
  const link = createClusterLink({ url: settings.marketBrokerUrl, databaseUrl: settings.databaseUrl, secret: new TextEncoder().encode(settings.jwtSecret), log });
  // Subscribed before serving, so no tick or push is missed after the first request; retries go on if the broker is late.
  if (!(await link.start())) log.warn({}, 'cluster link not connected yet; retrying');
  return clusterMember({ db: database.db, roles: settings.roles, link, leaseMs: settings.leaderLeaseMs, log: (details, message) => log.info(details, message) });
}

main().catch((error: unknown) => {
  // Before the logger exists (bad settings or brand, database that cannot open), say why on stderr;
  // a refused brand names its file and field, which is all its operator needs.
  const brandRefused = error instanceof Error && error.name === 'BrandFolderError';
  process.stderr.write(`${error instanceof Error ? (brandRefused ? `The brand cannot start: ${error.message}` : (error.stack ?? error.message)) : String(error)}\n`);
  process.exit(1);
});
