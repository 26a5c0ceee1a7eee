/**
 * `npm run ledger:check`: audits the ledger of the configured database (DATA_DIR or
 * DATABASE_URL): every journal balances in each currency and stays in its book, every stored balance
 * equals the sum of its entries, no user account is negative; then the ledger against
 * the books (margin and escrow against open orders and running options, every order's
 * and option's journals, the house's accounts). Exits 1 on any problem.
 */
import { openDatabase } from '../db/database';
import { createLedger } from '../modules/ledger/ledger';
import { reconcileBooks } from '../modules/ledger/reconciliation';
import { readSettings } from '../settings';

export async function runLedgerCheck(environment: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const settings = readSettings(environment);
  const database = await openDatabase(settings.databaseUrl ? { kind: 'postgres', url: settings.databaseUrl } : { kind: 'pglite', dataDir: settings.dataDir });
  try {
    return [...(await createLedger(database.db).check()), ...(await reconcileBooks(database.db))];
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = await runLedgerCheck();
  if (problems.length === 0) process.stdout.write('ledger check: every journal balances in each currency, every balance matches its entries, and the ledger matches the books\n');
  else process.stdout.write(`ledger check: ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join('\n')}\n`);
  process.exit(problems.length === 0 ? 0 : 1);
}
