// The server the browser tests drive: the built app, a fresh embedded database each run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

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
// The first admin, made as an operator would (`npm run staff -- create`, the same database,
// before the server starts): its one JSON line is kept where the staff-console test reads it
// (the otpauth URL's secret lets the test compute the authenticator's codes).
const firstAdminFile = 'first-admin.json';
fs.mkdirSync(dataDir, { recursive: true });
const firstAdmin = spawnSync('npm', ['run', '--silent', 'staff', '--', 'create', '--email', 'admin@e2e.example', '--role', 'admin', '--document', 'E2E-admin@e2e.example'], {
  encoding: 'utf8',
  env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
});
const firstAdminLine = firstAdmin.stdout.trim().split('\n').at(-1) ?? '';
if (firstAdmin.status !== 0 || !firstAdminLine.startsWith('{')) {
  process.stderr.write(`e2e-server: the first admin could not be created: ${firstAdmin.stderr}\n`);
  process.exit(1);
}
fs.writeFileSync(path.join(dataDir, firstAdminFile), `${firstAdminLine}\n`);
// A finance member for the money tests' review approvals, made the same way and kept as
// `finance-reviewer.json` (the staff-console test keeps the first admin to itself).
const reviewer = spawnSync('npm', ['run', '--silent', 'staff', '--', 'create', '--email', 'reviewer@e2e.example', '--role', 'finance', '--document', 'E2E-reviewer@e2e.example'], {
  encoding: 'utf8',
  env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
});
const reviewerLine = reviewer.stdout.trim().split('\n').at(-1) ?? '';
if (reviewer.status !== 0 || !reviewerLine.startsWith('{')) {
  process.stderr.write(`e2e-server: the finance reviewer could not be created: ${reviewer.stderr}\n`);
  process.exit(1);
}
fs.writeFileSync(path.join(dataDir, 'finance-reviewer.json'), `${reviewerLine}\n`);
// Finance members for the withdrawal approvals (scripts/e2e-finance-staff.ts), kept as finance-staff.json.
const finance = spawnSync('node_modules/.bin/tsx', ['scripts/e2e-finance-staff.ts'], { encoding: 'utf8', env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
const financeLine = finance.stdout.trim().split('\n').at(-1) ?? '';
if (finance.status !== 0 || !financeLine.startsWith('{')) {
  process.stderr.write(`e2e-server: the finance staff could not be created: ${finance.stderr}\n`);
  process.exit(1);
}
fs.writeFileSync(path.join(dataDir, 'finance-staff.json'), `${financeLine}\n`);

const server = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    DEV_OUTBOX: '1',
    DEV_MARKET_CONTROL: '1',
    // A statement asked for outside a transaction from inside it fails at once instead of hanging every request.
    PGLITE_REFUSE_NESTED: '1',
    // Every signed-in browser test signs up for real (codes from the dev outbox) from one address.
    CODES_SENT_PER_10_MIN: '1000',
    CODE_CHECKS_PER_10_MIN: '1000',
    // Demo trading on, so the real/demo switch can be driven; both trade modes offered (market first, the brand's order).
    // The seeded brand has them on already; set at every start so these tests do not hang on the seed
    // (first-minute.spec.ts starts a server on the defaults alone).
    SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1,Contract=1,OptionMock=1',
    // Positions can be closed at once in the tests.
    MIN_HOLD_SECONDS: '0',
    // Withdrawals right after saving an address: the browser tests add one and withdraw at once. The cooling-off
    // itself is tests/api/money-controls.test.ts's; E2E_WITHDRAWAL_HOLD_SECONDS puts it back (the withdraw screenshots).
    WITHDRAWAL_HOLD_SECONDS: process.env.E2E_WITHDRAWAL_HOLD_SECONDS ?? '0',
    // The brand app on its own origin (split-origin.spec.ts, `/split-origin-app` below) calls this server's API and sockets.
    ALLOWED_ORIGINS: `http://localhost:${Number(process.env.PORT) + 6}`,
    // A chat url the tests can embed without the internet (the stand-in above).
    CUSTOMER_SERVICE_LINK: `0|${JSON.stringify([`http://localhost:${chatPort}/chat`, 'https://t.me/tradeweb_support', 'https://wa.me/18005550100', 'support@tradeweb.example'])}`,
  },
});
// Test-only paths beside the server, on the port after the chat's, for what the browser tests
// would otherwise make again in each layout project (tests/e2e/long-lists.spec.ts):
// - POST /history-account?orders=N: a demo account with N market orders placed and closed,
//   made through the server's API as a customer would (sign-up with the outbox's code, the demo
//   switch, addOrderMock and closeOrderMock), once per run on the first ask; later asks get the
//   same account.
// - POST /load-catalogue?symbols=N: starts, once per run, a second server on PORT+5 with the
//   load-test catalogue of N symbols (MARKET_LOAD_SYMBOLS, ticking), so the suite's own server
//   keeps the seeded one; answers at once (the caller waits for its /healthz) and it stops with
//   this one.
// - POST /split-origin-app: starts, once per run, a server on PORT+6 that serves the built app
//   with a brand config (BRAND_CONFIG_PATH) whose API, market and exchange roots are this server
//   on 127.0.0.1, another origin than the page's localhost: the app on one origin trading
//   through another, as a brand splits them. Answers at once; the caller waits for its /healthz.
// - POST /example-brand: starts, once per run, a server on PORT+7 with the second brand's
//   folder (BRAND_DIR=brands/example) and the built app, its own data: a brand from its folder
//   alone (example-brand.spec.ts). Answers at once; the caller waits for its /healthz.
const apiBase = `http://127.0.0.1:${process.env.PORT}`;
const historyAccounts = new Map();

async function callApi(path, data, token) {
  const response = await fetch(`${apiBase}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(data),
  });
  const answer = await response.json();
  if (answer.code !== 0) throw new Error(`${path}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

async function outboxCode(to) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const outbox = await (await fetch(`${apiBase}/dev/outbox?to=${encodeURIComponent(to)}`)).json();
    const code = outbox.filter((message) => message.code).at(-1)?.code;
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code reached ${to}`);
}

async function makeHistoryAccount(orders) {
  const email = `e2e-history-${orders}-${Date.now().toString(36)}@example.com`;
  const password = 'e2e password 1';
  await callApi('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
  const code = await outboxCode(email);
  await callApi('/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' });
  const real = await callApi('/v1/wa-na/login', { username: email, password, type: 'E' });
  const demo = await callApi('/v1/waa/user/switch', {}, real.token);
  // A few in flight: the embedded database writes one transaction at a time, so more would only queue.
  const placed = [];
  let next = 0;
  const placeAndClose = async () => {
    while (next < orders) {
      const index = (next += 1);
      const orderNo = await callApi('/exchange/addOrderMock', { tradePair: 'BTCUSDT', price: '0', orderQuantity: '0.01', multiple: 20, orderType: index % 2, buyPoint: 2, clientOrderId: `e2e-history-${index}` }, demo.token);
      placed.push(orderNo);
      await callApi('/exchange/closeOrderMock', { orderId: orderNo }, demo.token);
    }
  };
  await Promise.all([placeAndClose(), placeAndClose(), placeAndClose()]);
  // Its demo session, handed to the one test that asks: demo is entered once per account (701 after, the spec's default).
  return { email, password, orders: placed, demo: { token: demo.token, refreshToken: demo.refreshToken } };
}

const loadCatalogueDir = `${dataDir}-load-catalogue`;
let loadCatalogue = null;

function startLoadCatalogue(symbols) {
  fs.rmSync(loadCatalogueDir, { recursive: true, force: true });
  loadCatalogue = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(Number(process.env.PORT) + 5),
      DATA_DIR: loadCatalogueDir,
      STATIC_DIR: path.resolve(process.env.STATIC_DIR ?? 'dist'),
      LOG_LEVEL: 'warn',
      SWITCHES: 'VIRTUAL_CURRENCY_TRADE=1,Contract=1,OptionMock=1',
      MARKET_LOAD_SYMBOLS: String(symbols),
      // Every load symbol ticks a few times a second: rows change while the list scrolls.
      MARKET_LOAD_TICKS_PER_SECOND: '2000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  loadCatalogue.on('exit', () => {
    loadCatalogue = null;
  });
}

const splitOriginDir = `${dataDir}-split-origin`;
let splitOriginApp = null;

function startSplitOriginApp() {
  fs.rmSync(splitOriginDir, { recursive: true, force: true });
  fs.mkdirSync(splitOriginDir, { recursive: true });
  const staticDir = path.resolve(process.env.STATIC_DIR ?? 'dist');
  const config = JSON.parse(fs.readFileSync(path.join('brands', 'default', 'config.json'), 'utf8'));
  const brandConfigPath = path.join(splitOriginDir, 'config.json');
  fs.writeFileSync(brandConfigPath, JSON.stringify({ ...config, apiRoot: apiBase, marketRoot: apiBase, exchangeRoot: apiBase }, null, 2));
  splitOriginApp = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(Number(process.env.PORT) + 6),
      DATA_DIR: path.join(splitOriginDir, 'data'),
      STATIC_DIR: staticDir,
      BRAND_CONFIG_PATH: brandConfigPath,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  splitOriginApp.on('exit', () => {
    splitOriginApp = null;
  });
}

const exampleBrandDir = `${dataDir}-example-brand`;
let exampleBrand = null;

function startExampleBrand() {
  fs.rmSync(exampleBrandDir, { recursive: true, force: true });
  exampleBrand = spawn('node_modules/.bin/tsx', ['server/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(Number(process.env.PORT) + 7),
      DATA_DIR: exampleBrandDir,
      STATIC_DIR: path.resolve(process.env.STATIC_DIR ?? 'dist'),
      BRAND_DIR: 'brands/example',
      // Its test signs up there (the code from this server's development outbox).
      DEV_OUTBOX: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  exampleBrand.on('exit', () => {
    exampleBrand = null;
  });
}

const helper = http
  .createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://helper');
    if (request.method === 'POST' && url.pathname === '/load-catalogue') {
      const symbols = Number(url.searchParams.get('symbols'));
      if (!Number.isInteger(symbols) || symbols < 1 || symbols > 5000) {
        response.writeHead(400).end();
        return;
      }
      if (!loadCatalogue) startLoadCatalogue(symbols);
      response.writeHead(202).end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/example-brand') {
      if (!exampleBrand) startExampleBrand();
      response.writeHead(202).end();
      return;
    }
    if (request.method === 'POST' && url.pathname === '/split-origin-app') {
      if (!splitOriginApp) startSplitOriginApp();
      response.writeHead(202).end();
      return;
    }
    const orders = Number(url.searchParams.get('orders'));
    if (request.method !== 'POST' || url.pathname !== '/history-account' || !Number.isInteger(orders) || orders < 1 || orders > 1000) {
      response.writeHead(404).end();
      return;
    }
    if (!historyAccounts.has(orders)) historyAccounts.set(orders, makeHistoryAccount(orders));
    historyAccounts.get(orders).then(
      (account) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(account)),
      (error) => {
        // A failed attempt is not kept: the next ask tries again.
        historyAccounts.delete(orders);
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error?.message ?? error));
      },
    );
  })
  .listen(Number(process.env.PORT) + 2);
helper.unref();

for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    loadCatalogue?.kill(signal);
    splitOriginApp?.kill(signal);
    exampleBrand?.kill(signal);
    server.kill(signal);
  });
server.on('exit', (code) => {
  loadCatalogue?.kill('SIGTERM');
  splitOriginApp?.kill('SIGTERM');
  exampleBrand?.kill('SIGTERM');
  process.exit(code ?? 0);
});

// A server that stops answering makes every later test wait out its timeout in silence; this
// says so in the log, with the time, so a run that goes wrong names its cause.
let unanswered = 0;
const healthWatch = setInterval(() => {
  let settled = false;
  const answered = () => {
    if (settled) return;
    settled = true;
    if (unanswered >= 2) process.stderr.write(`e2e-server: /healthz answers again (${new Date().toISOString()})\n`);
    unanswered = 0;
  };
  const missed = (why) => {
    if (settled) return;
    settled = true;
    unanswered += 1;
    if (unanswered === 2) process.stderr.write(`e2e-server: /healthz has not answered twice in a row (${why}; ${new Date().toISOString()}): the server is stuck\n`);
  };
  const request = http.get({ host: '127.0.0.1', port: Number(process.env.PORT), path: '/healthz', timeout: 10_000 }, (response) => {
    response.resume();
    answered();
  });
  request.on('timeout', () => {
    missed('no answer in 10 s');
    request.destroy();
  });
  request.on('error', (error) => missed(error.message));
}, 15_000);
healthWatch.unref();
