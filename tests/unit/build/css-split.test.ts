import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { appEntryKey, type Manifest, staticStyleSheets } from '../../../bench/bundle/route-bytes';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe("each area's style rules come with its screens", () => {
  it("keeps the wallet's, the loan's, the account's and the notices' rules out of the first load of /, and brings them with their screens", { timeout: 120_000 }, async () => {
    const testEnvironment = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    const result = await build({ root, logLevel: 'silent', build: { write: false, sourcemap: false, manifest: true } }).finally(() => {
      process.env.NODE_ENV = testEnvironment;
    });
    const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
    const files = new Map<string, string>();
    for (const output of outputs) for (const item of output.output) files.set(item.fileName, item.type === 'chunk' ? item.code : Buffer.from(item.source).toString());
    const manifest = JSON.parse(files.get('.vite/manifest.json') ?? '{}') as Manifest;
    const rulesOf = (key: string) => [...staticStyleSheets(manifest, key)].map((sheet) => files.get(sheet) ?? '').join('\n');

    const firstLoad = rulesOf(appEntryKey);
    // The page's own frame is there (the tab bar), so the check reads real rules.
    expect(firstLoad).toContain('.tab-bar');
    const areas = [
      { screen: 'src/app/pages/user/my-wallet-page.tsx', rule: '.wallet-row' },
      { screen: 'src/app/pages/user/my-wallet-page.tsx', rule: '.transfer-form' },
      { screen: 'src/app/pages/user/transaction-list-page.tsx', rule: '.transaction-list' },
      { screen: 'src/app/pages/user/deposit-page.tsx', rule: '.deposit-form' },
      { screen: 'src/app/pages/withdraw/withdraw-page.tsx', rule: '.withdraw-allowance' },
      { screen: 'src/app/pages/user/loan-page.tsx', rule: '.loan-slider' },
      { screen: 'src/app/pages/user/account-page.tsx', rule: '.account-avatar' },
      { screen: 'src/app/pages/user/notification-page.tsx', rule: '.notice-row' },
      { screen: 'src/app/layouts/account-dialog.tsx', rule: '.account-dialog' },
    ];
    for (const { screen, rule } of areas) {
      expect(firstLoad, `${rule} on /`).not.toContain(rule);
      expect(rulesOf(screen), `${rule} with ${screen}`).toContain(rule);
    }
  });
});
