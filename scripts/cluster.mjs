// `npm run cluster`: the several-process topology on one machine, on the local PostgreSQL
// and RabbitMQ (README, "Several processes"): one market process, two API processes (each
// also a candidate for the jobs) and a small round-robin proxy in front of the two, at
// http://localhost:8080 (CLUSTER_PORT). A process that dies is started again after 2 s,
// as a supervisor would; Ctrl-C stops them all. For the fault suite (scripts/faults/): each
// process's pid in DATA_DIR/run/<name>.pid, CLUSTER_STANDBY_MARKET=1 adds a second market
// candidate (market-2), and CLUSTER_MEMBER_ENV ({"market": {"MARKET_BROKER_URL": …}}) gives
// one process settings of its own.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/tradeweb_cluster';
const brokerUrl = process.env.MARKET_BROKER_URL ?? 'ws://127.0.0.1:15674/ws';
const proxyPort = Number(process.env.CLUSTER_PORT ?? 8080);
const dataDir = path.resolve(process.env.DATA_DIR ?? './data/cluster');
const members = [
  { name: 'market', roles: 'market', port: proxyPort + 1 },
  { name: 'api-1', roles: 'api,jobs', port: proxyPort + 2 },
  { name: 'api-2', roles: 'api,jobs', port: proxyPort + 3 },
  ...(process.env.CLUSTER_STANDBY_MARKET === '1' ? [{ name: 'market-2', roles: 'market', port: proxyPort + 4 }] : []),
];
const memberEnvironment = JSON.parse(process.env.CLUSTER_MEMBER_ENV ?? '{}');
const pidDir = path.join(dataDir, 'run');
const apiPorts = members.filter((member) => member.roles.includes('api')).map((member) => member.port);

/** The database of the cluster, made on first run (the server makes its tables). */
async function ensureDatabase() {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) await admin.query(`create database "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

/**
 * One set of secrets for every process: the environment's, else generated once and kept in
 * DATA_DIR/secrets.json, where each process of this machine is handed them.
 */
function sharedSecrets() {
  const file = path.join(dataDir, 'secrets.json');
  let kept;
  try {
    kept = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    kept = { JWT_SECRET: crypto.randomBytes(48).toString('base64url'), DATA_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64') };
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, JSON.stringify(kept), { mode: 0o600 });
  }
  return {
    JWT_SECRET: process.env.JWT_SECRET ?? kept.JWT_SECRET,
    DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY ?? kept.DATA_ENCRYPTION_KEY,
  };
}

let stopping = false;
const children = new Map();

function run(member, environment) {
  // node with tsx as a loader (not the tsx wrapper), so that a signal reaches the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, ...environment, ...memberEnvironment[member.name], SERVER_ROLES: member.roles, PORT: String(member.port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  fs.mkdirSync(pidDir, { recursive: true });
  fs.writeFileSync(path.join(pidDir, `${member.name}.pid`), String(child.pid));
  const prefix = `[${member.name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk.toString()).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(prefix + line + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    children.delete(member.name);
    if (stopping) {
      if (children.size === 0) process.exit(0);
      return;
    }
    process.stdout.write(`${prefix}exited (${signal ?? code}); starting it again in 2 s\n`);
    setTimeout(() => run(member, environment), 2_000);
  });
  children.set(member.name, child);
}

/** The client's address as the API processes see it (they trust the proxy on loopback: TRUST_PROXY). */
function forwardedFor(request) {
  const earlier = request.headers['x-forwarded-for'];
  return earlier ? `${earlier}, ${request.socket.remoteAddress}` : (request.socket.remoteAddress ?? '');
}

/** Round robin over the API processes, for requests and for socket upgrades alike. */
function startProxy() {
  let next = 0;
  const pick = () => apiPorts[next++ % apiPorts.length];
  const proxy = http.createServer((request, response) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: pick(), method: request.method, path: request.url, headers: { ...request.headers, 'x-forwarded-for': forwardedFor(request) } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  proxy.on('upgrade', (request, socket, head) => {
    const upstream = net.connect(pick(), '127.0.0.1', () => {
      const headers = { ...request.headers, 'x-forwarded-for': forwardedFor(request) };
      let text = `${request.method} ${request.url} HTTP/1.1\r\n`;
      for (const [name, value] of Object.entries(headers)) for (const each of [value].flat()) text += `${name}: ${each}\r\n`;
      upstream.write(`${text}\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  proxy.listen(proxyPort, () => process.stdout.write(`[proxy] http://localhost:${proxyPort} → API processes on ${apiPorts.join(', ')}\n`));
  return proxy;
}

if (process.env.CLUSTER_SKIP_BUILD !== '1') {
  const build = spawnSync('node_modules/.bin/vite', ['build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await ensureDatabase();
const environment = {
  DATABASE_URL: databaseUrl,
  MARKET_BROKER_URL: brokerUrl,
  DATA_DIR: dataDir,
  TRUST_PROXY: process.env.TRUST_PROXY ?? 'loopback',
  ...sharedSecrets(),
};
// The market process first: it prepares the market tables of a new database.
run(members[0], environment);
await new Promise((resolve) => {
  const check = () =>
    http
      .get(`http://127.0.0.1:${members[0].port}/healthz`, (answer) => (answer.resume(), answer.statusCode === 200 ? resolve() : setTimeout(check, 300)))
      .on('error', () => setTimeout(check, 300));
  check();
});
for (const member of members.slice(1)) run(member, environment);
const proxy = startProxy();

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    proxy.close();
    if (children.size === 0) process.exit(0);
    for (const child of children.values()) child.kill('SIGTERM');
  });
}
