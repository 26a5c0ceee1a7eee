/**
 * `npm run staff -- create --email <e-mail> --role <role> [--role <role>…] [--document <number>]`: creates a
 * staff member in the configured database (DATA_DIR's PGlite, while the server is stopped,
 * or DATABASE_URL), through the same function as the console's `staff/create`, and prints
 * one JSON line { email, oneTimePassword, otpauthUrl }: the only time they are shown. The
 * creation is audited (no staff member, address 'cli'). Exits 1 with the reason on stderr
 * for a bad e-mail, an unknown role or an e-mail that already has an account. `--document`
 * declares the member's own identity document (conflict of interest), which they would
 * otherwise declare in the console before their first decision.
 */
import { parseArgs } from 'node:util';
import { createTokenService, loadSigningKey } from '../auth/tokens';
import { openDatabase } from '../db/database';
import { AppError } from '../http/app-error';
import { commandLineActor } from '../modules/staff/audit';
import { createStaffCore } from '../modules/staff';
import { readSettings } from '../settings';
import { staffRoles } from '../../src/shared/staff/roles';

const usage = `usage: npm run staff -- create --email <e-mail> --role <${staffRoles.join('|')}> [--role …] [--document <the member's identity document number>]`;

export async function runStaffCommand(args: string[], environment: NodeJS.ProcessEnv = process.env): Promise<{ email: string; oneTimePassword: string; otpauthUrl: string }> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, strict: true, options: { email: { type: 'string' }, role: { type: 'string', multiple: true }, document: { type: 'string' } } });
  if (positionals.length !== 1 || positionals[0] !== 'create' || !values.email || !values.role?.length) throw new Error(usage);
  const settings = readSettings(environment);
  const database = await openDatabase(settings.databaseUrl ? { kind: 'postgres', url: settings.databaseUrl } : { kind: 'pglite', dataDir: settings.dataDir });
  try {
    const key = await loadSigningKey({ jwtSecret: settings.jwtSecret, dataDir: settings.dataDir });
    const tokens = createTokenService({ key, accessTokenTtlSeconds: settings.accessTokenTtlSeconds });
    const staff = await createStaffCore({ settings, db: database.db, tokens, dataDir: settings.dataDir });
    const created = await staff.management.create({ email: values.email, roles: values.role }, commandLineActor);
    // The member's own identity document, when the operator has it: they decide nothing until it is declared.
    if (values.document) await staff.conflicts.declareDocument(commandLineActor, created.staffId, values.document);
    return { email: created.email, oneTimePassword: created.oneTimePassword, otpauthUrl: created.otpauthUrl };
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const created = await runStaffCommand(process.argv.slice(2));
    process.stdout.write(`${JSON.stringify(created)}\n`);
    process.exit(0);
  } catch (error) {
    const reason = error instanceof AppError ? (error.detail ?? error.message) : error instanceof Error ? error.message : String(error);
    process.stderr.write(`staff: ${reason}\n`);
    process.exit(1);
  }
}
