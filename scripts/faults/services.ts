// The fault suite's own PostgreSQL and RabbitMQ: started in a temporary folder on their own
// ports, never the machine's (other developers and CI use those), so that they can be killed
// and restarted at will.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const postgresBin = '/usr/lib/postgresql/15/bin';
const rabbitmqBin = '/usr/lib/rabbitmq/bin';

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `port` on loopback accepts a connection, or fails after `timeoutMs`. */
export async function untilListening(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => (socket.destroy(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await wait(200);
  }
}

function runAs(user: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync('runuser', ['-u', user, '--', command, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr || result.stdout}`);
  return result.stdout;
}

/** A PostgreSQL 15 cluster in `folder` on `port`, run as the postgres user (initdb refuses root). */
export function ownPostgres(folder: string, port: number) {
  const data = path.join(folder, 'data');
  const socketDir = path.join(folder, 'socket');
  const logFile = path.join(folder, 'postgres.log');
  fs.mkdirSync(socketDir, { recursive: true });
  spawnSync('chown', ['-R', 'postgres:postgres', folder]);
  runAs('postgres', `${postgresBin}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const postmasterPid = () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      // After a kill -9 the old server's backends may still hold its shared memory for a moment: try again.
      for (let attempt = 1; ; attempt += 1) {
        const result = spawnSync('runuser', ['-u', 'postgres', '--', `${postgresBin}/pg_ctl`, '-D', data, '-o', options, '-l', logFile, '-w', '-t', '60', 'start'], { encoding: 'utf8' });
        if (result.status === 0) return;
        if (attempt >= 10) throw new Error(`pg_ctl start: ${result.stderr || result.stdout}`);
        await wait(1_000);
      }
    },
    /** The postmaster killed with SIGKILL, as a crash or the OOM killer would (its backends end when they notice). */
    kill() {
      process.kill(postmasterPid(), 'SIGKILL');
    },
    stop() {
      spawnSync('runuser', ['-u', 'postgres', '--', `${postgresBin}/pg_ctl`, '-D', data, '-m', 'immediate', 'stop'], { encoding: 'utf8' });
    },
  };
}

/**
 * A RabbitMQ node of its own (RABBITMQ_NODENAME), with its data, logs, Erlang cookie (HOME)
 * and plugins file in `folder`: AMQP on `amqpPort`, Web-STOMP on `stompPort`, Erlang
 * distribution on `distPort`, the STOMP TCP listener off (the machine's node has 61613).
 */
export function ownRabbitmq(folder: string, ports: { amqp: number; stomp: number; dist: number }) {
  const node = 'faults@localhost';
  fs.mkdirSync(path.join(folder, 'mnesia'), { recursive: true });
  fs.mkdirSync(path.join(folder, 'log'), { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'rabbitmq.conf'),
    [
      `listeners.tcp.default = 127.0.0.1:${ports.amqp}`,
      `web_stomp.tcp.port = ${ports.stomp}`,
      'web_stomp.tcp.ip = 127.0.0.1',
      'stomp.listeners.tcp = none',
      `distribution.listener.port_range.min = ${ports.dist}`,
      `distribution.listener.port_range.max = ${ports.dist}`,
      '',
    ].join('\n'),
  );
  fs.writeFileSync(path.join(folder, 'enabled_plugins'), '[rabbitmq_web_stomp].\n');
  spawnSync('chown', ['-R', 'rabbitmq:rabbitmq', folder]);
  const env = {
    HOME: folder,
    RABBITMQ_NODENAME: node,
    RABBITMQ_NODE_PORT: String(ports.amqp),
    RABBITMQ_DIST_PORT: String(ports.dist),
    RABBITMQ_MNESIA_BASE: path.join(folder, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(folder, 'log'),
    RABBITMQ_CONFIG_FILE: path.join(folder, 'rabbitmq.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(folder, 'enabled_plugins'),
    RABBITMQ_PID_FILE: path.join(folder, 'pid'),
  };
  let server: ChildProcess | null = null;
  return {
    stompUrl: `ws://127.0.0.1:${ports.stomp}/ws`,
    /** The plugins this node has enabled, as `rabbitmq-plugins` reads them for this node alone. */
    enabledPlugins(): string {
      return runAs('rabbitmq', `${rabbitmqBin}/rabbitmq-plugins`, ['-n', node, 'list', '-e', '-m'], env).trim();
    },
    async start() {
      // The Debian wrapper would log into /var/log/rabbitmq, the machine's node's: the server script is run directly.
      server = spawn('runuser', ['-u', 'rabbitmq', '--', `${rabbitmqBin}/rabbitmq-server`], { cwd: folder, env: { ...process.env, ...env }, stdio: ['ignore', fs.openSync(path.join(folder, 'server.log'), 'a'), fs.openSync(path.join(folder, 'server.log'), 'a')] });
      await untilListening(ports.stomp, 90_000);
    },
    /** A clean stop and start, as an operator's restart or an upgrade would do. */
    async restart() {
      this.stop();
      await this.start();
    },
    stop() {
      spawnSync('runuser', ['-u', 'rabbitmq', '--', `${rabbitmqBin}/rabbitmqctl`, '-n', node, 'stop'], { encoding: 'utf8', env: { ...process.env, ...env } });
      server = null;
    },
    running: () => server !== null,
  };
}
