/**
 * `npm run ledger:check`: audits the ledger of the configured database (DATA_DIR or
 * DATABASE_URL): every journal balances and stays in its book, every stored balance
 * equals the sum of its entries, no user account is negative. Exits 1 on any problem.
 */
import { openDatabase } from '../db/database';
import { createLedger } from '../modules/ledger/ledger';
import { readSettings } from '../settings';

export async function runLedgerCheck(environment: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const settings = readSettings(environment);
  const database = await openDatabase(settings.databaseUrl ? { kind: 'postgres', url: settings.databaseUrl } : { kind: 'pglite', dataDir: settings.dataDir });
  try {
    return await createLedger(database.db).check();
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await runLedgerCheck();
  if (problems.length === 0) process.stdout.write('ledger check: every journal balances and every balance matches its entries\n');
  else process.stdout.write(`ledger check: ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join('\n')}\n`);
  process.exit(problems.length === 0 ? 0 : 1);
}
