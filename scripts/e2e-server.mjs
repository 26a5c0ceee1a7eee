// The server the browser tests drive: the built app, a fresh embedded database each run.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';

// E2E_DATA_DIR (with STATIC_DIR) lets two runs of the browser tests share a machine.
const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data';
fs.rmSync(dataDir, { recursive: true, force: true });
// A stand-in customer-service chat on the next port: another origin the app may frame
// (the server's own pages refuse any framing: frame-ancestors 'none').
const chatPort = Number(process.env.PORT) + 1;
const chat = http
  .createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Support chat</title><p>Support chat: how can we help?</p>');
  })
  .listen(chatPort);
chat.unref();
const server = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    DEV_OUTBOX: '1',
    DEV_MARKET_CONTROL: '1',
    // Every signed-in browser test signs up for real (codes from the dev outbox) from one address.
    CODES_SENT_PER_10_MIN: '1000',
    CODE_CHECKS_PER_10_MIN: '1000',
    // Demo trading on, so the real/demo switch can be driven; both trade modes offered (market first, the brand's order).
    // The seeded brand has them on already; set at every start so these tests do not hang on the seed
    // (first-minute.spec.ts starts a server on the defaults alone).
    SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1,Contract=1,OptionMock=1',
    // Positions can be closed at once in the tests.
    MIN_HOLD_SECONDS: '0',
    // Real accounts can be funded (no deposit flow yet), so real-money trading is driven too.
    DEV_FUNDING: '1',
    // A chat url the tests can embed without the internet (the stand-in above).
    CUSTOMER_SERVICE_LINK: `0|${JSON.stringify([`http://localhost:${chatPort}/chat`, 'https://t.me/tradeweb_support', 'https://wa.me/18005550100', 'support@tradeweb.example'])}`,
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
