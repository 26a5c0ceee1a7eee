/**
 * The fan-out bench's load generator, run as its own child process (so that its CPU is not
 * counted as the server's): N lightweight STOMP 1.2 clients over WebSocket, loopback only,
 * each subscribed to `/topic/prices`, counting what arrives during a measurement window.
 *
 * Input (environment): FANOUT_URL, FANOUT_CLIENTS, FANOUT_WINDOW_MS, FANOUT_LOGIN and
 * FANOUT_PASSCODE (RabbitMQ), FANOUT_DEFLATE (1: offer permessage-deflate).
 * Protocol on stdout, one JSON line each: `{"ready":true}` once every client has its
 * subscription receipt (then the parent starts its CPU counters), and the result after
 * the window. The parent sends "start" on stdin to open the window.
 *
 * Per batch a key (its length and the last tick's time) identifies it across clients: a
 * batch first seen inside the window must reach every client, or the missing ones are
 * lost. Latency is measured two ways: from the batch's newest tick time (an upper bound
 * of publish → receive: it includes the up to 100 ms the server batches ticks) and from
 * the first client's receipt of the same batch (the fan-out's own spread).
 */
import { createRequire } from 'node:module';
import readline from 'node:readline';

interface ClientSocket {
  on(event: 'open' | 'close', listener: () => void): void;
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'error', listener: (error: Error) => void): void;
  send(data: string): void;
  terminate(): void;
}
type SocketConstructor = new (url: string, protocols: string[], options: { perMessageDeflate: boolean; handshakeTimeout: number }) => ClientSocket;
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: SocketConstructor };

const url = process.env.FANOUT_URL ?? '';
const clients = Number(process.env.FANOUT_CLIENTS ?? 100);
const windowMs = Number(process.env.FANOUT_WINDOW_MS ?? 10_000);
const deflate = process.env.FANOUT_DEFLATE === '1';
const login = process.env.FANOUT_LOGIN;
const passcode = process.env.FANOUT_PASSCODE;
/** Handshakes in flight at once: a bounded ramp, not a SYN flood. */
const connectConcurrency = 50;

const marker = '"lastUpdate":';

function frame(command: string, headers: Record<string, string>) {
  return `${command}\n${Object.entries(headers).map(([key, value]) => `${key}:${value}`).join('\n')}\n\n\0`;
}

/** The newest tick time in a batch (every tick of it is scanned). */
function newestTick(body: string): number {
  let newest = 0;
  for (let at = body.indexOf(marker); at >= 0; at = body.indexOf(marker, at + marker.length)) {
    const value = Number(body.slice(at + marker.length, at + marker.length + 13));
    if (value > newest) newest = value;
  }
  return newest;
}

interface Batch {
  firstSeenMs: number;
  receivers: number;
  newestTickMs: number;
}

const batches = new Map<string, Batch>();
const tickLatencies: number[] = [];
const spreadLatencies: number[] = [];
const state = { measuring: false, ended: false, delivered: 0, errors: 0, closed: 0, failed: 0 };

function onBatch(text: string) {
  const bodyAt = text.indexOf('\n\n');
  if (!text.startsWith('MESSAGE') || bodyAt < 0) return;
  const body = text.slice(bodyAt + 2, text.endsWith('\0') ? -1 : undefined);
  const now = Date.now();
  const last = body.lastIndexOf(marker);
  const key = `${body.length}:${body.slice(last, last + marker.length + 13)}`;
  let batch = batches.get(key);
  if (!batch) {
    batch = { firstSeenMs: now, receivers: 0, newestTickMs: newestTick(body) };
    batches.set(key, batch);
  }
  if (!state.measuring) return;
  batch.receivers += 1;
  state.delivered += 1;
  tickLatencies.push(now - batch.newestTickMs);
  spreadLatencies.push(now - batch.firstSeenMs);
}

function open(index: number): Promise<ClientSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['v12.stomp'], { perMessageDeflate: deflate, handshakeTimeout: 10_000 });
    let subscribed = false;
    socket.on('error', (error) => {
      state.errors += 1;
      if (!subscribed) reject(error);
    });
    socket.on('close', () => {
      if (!state.ended) state.closed += 1;
      if (!subscribed) reject(new Error(`client ${index} closed before its subscription`));
    });
    socket.on('open', () => {
      socket.send(frame('CONNECT', { 'accept-version': '1.2', host: '/', 'heart-beat': '0,0', ...(login ? { login } : {}), ...(passcode ? { passcode } : {}) }));
      socket.send(frame('SUBSCRIBE', { id: 'prices', destination: '/topic/prices', ack: 'auto', receipt: `r${index}` }));
    });
    socket.on('message', (data) => {
      const text = data.toString('utf8');
      if (!subscribed) {
        if (text.startsWith('ERROR')) return reject(new Error(text.slice(0, 200)));
        if (text.startsWith('RECEIPT')) {
          subscribed = true;
          resolve(socket);
        }
        if (!text.startsWith('MESSAGE')) return;
      }
      onBatch(text);
    });
  });
}

function percentile(values: number[], fraction: number) {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

async function main() {
  const sockets: ClientSocket[] = [];
  for (let start = 0; start < clients; start += connectConcurrency) {
    // A client the server does not take in time (its CONNECT timeout on a saturated server) is counted, not fatal.
    const group = await Promise.allSettled(Array.from({ length: Math.min(connectConcurrency, clients - start) }, (_, offset) => open(start + offset)));
    for (const each of group) {
      if (each.status === 'fulfilled') sockets.push(each.value);
      else state.failed += 1;
    }
  }
  const connected = sockets.length;
  process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
  const lines = readline.createInterface({ input: process.stdin });
  await new Promise<void>((resolve) => lines.once('line', () => resolve()));
  const startedMs = Date.now();
  state.measuring = true;
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  state.measuring = false;
  const endedMs = Date.now();
  // Batches first seen well inside the window must have reached every client by its end.
  const counted = [...batches.values()].filter((batch) => batch.firstSeenMs >= startedMs + 500 && batch.firstSeenMs <= endedMs - 2_000);
  const lost = counted.reduce((sum, batch) => sum + (connected - batch.receivers), 0);
  process.stdout.write(
    `${JSON.stringify({
      connected,
      failed: state.failed,
      delivered: state.delivered,
      batches: counted.length,
      lost,
      closed: state.closed,
      errors: state.errors,
      seconds: (endedMs - startedMs) / 1000,
      tickP50: percentile(tickLatencies, 0.5),
      tickP99: percentile(tickLatencies, 0.99),
      spreadP50: percentile(spreadLatencies, 0.5),
      spreadP99: percentile(spreadLatencies, 0.99),
    })}\n`,
  );
  state.ended = true;
  for (const socket of sockets) socket.terminate();
  lines.close();
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  process.exit(1);
});
