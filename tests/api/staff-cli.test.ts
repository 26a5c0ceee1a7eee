import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { createTokenService, loadSigningKey } from '../../server/auth/tokens';
import { totpCode } from '../../server/auth/totp';
import { openDatabase, type DatabaseHandle } from '../../server/db/database';
import { readSettings } from '../../server/settings';
import { secretOf, staffCall } from './support/staff';

const run = promisify(execFile);
const tsx = path.resolve('node_modules/.bin/tsx');

/** `npm run staff -- …` as an operator runs it on the server's machine, against `dataDir`. */
async function staffCommand(dataDir: string, args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  // The embedded database and the keys under DATA_DIR, whatever the test run's environment names.
  const { DATABASE_URL: _database, DATA_ENCRYPTION_KEY: _dataKey, JWT_SECRET: _jwtSecret, ...inherited } = process.env;
  const env = { ...inherited, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  try {
    const { stdout, stderr } = await run(tsx, ['server/tools/staff.ts', ...args], { env });
    return { exitCode: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { exitCode: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * The first admin: created by the command on the embedded database under a fresh DATA_DIR
 * (the server stopped), then the server started on the same DATA_DIR signs them in with
 * what the command printed once.
 */
describe('the first-admin command (npm run staff -- create)', () => {
  let dataDir: string;
  let printed: { email: string; oneTimePassword: string; otpauthUrl: string };

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-staff-cli-'));
    const created = await staffCommand(dataDir, ['create', '--email', 'First.Admin@Example.com', '--role', 'admin', '--role', 'compliance', '--document', 'X1234567']);
    expect(created.exitCode, created.stderr).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    printed = JSON.parse(lines[0]!) as typeof printed;
  }, 60_000);
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('prints one JSON line with the e-mail, a one-time password and the otpauth URL', () => {
    expect(Object.keys(printed).sort()).toEqual(['email', 'oneTimePassword', 'otpauthUrl']);
    expect(printed.email).toBe('first.admin@example.com');
    expect(printed.oneTimePassword.length).toBeGreaterThanOrEqual(12);
    const url = new URL(printed.otpauthUrl);
    expect(`${url.protocol}//${url.host}`).toBe('otpauth://totp');
    expect(url.pathname).toMatch(/first\.admin%40example\.com$/);
    expect(url.searchParams.get('secret')).toMatch(/^[A-Z2-7]+$/);
  });

  it('refuses an e-mail that already has an account, an unknown role and a bad e-mail with a reason and exit code 1', async () => {
    const again = await staffCommand(dataDir, ['create', '--email', 'first.admin@example.com', '--role', 'support']);
    expect(again).toMatchObject({ exitCode: 1, stdout: '' });
    expect(again.stderr).toMatch(/already|has this e-mail/);
    const badRole = await staffCommand(dataDir, ['create', '--email', 'other@example.com', '--role', 'owner']);
    expect(badRole).toMatchObject({ exitCode: 1, stdout: '' });
    expect(badRole.stderr).toMatch(/support, finance, compliance, admin/);
    const badEmail = await staffCommand(dataDir, ['create', '--email', 'not-an-address', '--role', 'admin']);
    expect(badEmail).toMatchObject({ exitCode: 1, stdout: '' });
    expect(badEmail.stderr).toMatch(/e-mail/);
  }, 60_000);

  describe('then the server on the same DATA_DIR', () => {
    let app: FastifyInstance;
    let database: DatabaseHandle;
    beforeAll(async () => {
      const staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tradeweb-static-'));
      const settings = readSettings({ DATA_DIR: dataDir, STATIC_DIR: staticDir, LOG_LEVEL: 'silent', RISK_CHECK_MS: '3600000' });
      database = await openDatabase({ kind: 'pglite', dataDir: settings.dataDir });
      const tokens = createTokenService({ key: await loadSigningKey({ jwtSecret: null, dataDir: settings.dataDir }), accessTokenTtlSeconds: settings.accessTokenTtlSeconds });
      app = await buildServer({ settings, database, tokens, dataDir: settings.dataDir, logger: false, marketSource: null, marketSeed: 1 });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await database?.close();
    });

    it('signs the first admin in with the printed password and a code of the printed secret, and asks for a new password', async () => {
      const login = await staffCall({ app }, '/v1/staff/login', { email: printed.email, password: printed.oneTimePassword, code: totpCode(secretOf(printed.otpauthUrl), Date.now()) });
      expect(login.code, login.msg).toBe(0);
      expect(login.data).toMatchObject({ roles: ['compliance', 'admin'], mustChangePassword: true });
      const { token } = login.data as { token: string };
      expect((await staffCall({ app }, '/v1/staff/staff/list', {}, token)).code).toBe(2002);
      expect((await staffCall({ app }, '/v1/staff/password', { oldPassword: printed.oneTimePassword, newPassword: 'the first admin 1' }, token)).code).toBe(0);
      const list = await staffCall({ app }, '/v1/staff/staff/list', {}, token);
      expect(list.data).toMatchObject({ pages: 1, list: [{ email: printed.email, roles: ['compliance', 'admin'], mustChangePassword: false, disabled: false, documentDeclared: true }] });
    });

    it('audited the creation as the command line: no staff member, address cli', async () => {
      const rows = await database.db.selectFrom('staff_audit').selectAll().where('action', '=', 'staff.create').execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ staff_id: null, address: 'cli', target_type: 'staff', before: null, after: { email: printed.email, roles: ['compliance', 'admin'], disabled: false } });
      // The admin's own document, declared by the command: the trail keeps its mask only.
      const declared = await database.db.selectFrom('staff_audit').selectAll().where('action', '=', 'staff.declareDocument').execute();
      expect(declared).toMatchObject([{ staff_id: null, address: 'cli', after: { document: 'X1****67' } }]);
    });
  });
});
