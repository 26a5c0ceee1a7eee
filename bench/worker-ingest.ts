/**
 * Worker ingest in Node: the market endpoint's MESSAGE frames, as the WebSocket messages a
 * browser hands over (binary for the batch's binary ticks, text for JSON), through the worker's own market socket
 * (`src/worker/transport/market-socket.ts`: @stomp/stompjs's Client, the batch
 * subscription's binary ticks, `binary-ticks.ts`) into the engine's tick store, per-tab fan-out and kline
 * aggregation; beside a bare JSON.parse of the same ticks' documented JSON bodies, and
 * beside the same Client reading those JSON bodies (what the wire form saves), in one run.
 * The figures are CPU time per 1,000 ticks (median of the trials).
 *
 * The hand-written client it replaced is gone from src/; with INGEST_OLD_CHECKOUT naming a
 * checkout of the commit before (`git worktree add <dir> c1fcac2`, node_modules linked), its
 * market socket (its own STOMP codec, the JSON bodies of /topic/prices) runs here too, over
 * the same socket and engine, interleaved with the other paths in the same run.
 */
import path from 'node:path';
import type { IStompSocket } from '@stomp/stompjs';
import type { PriceTick } from '../src/shared/api/market';
import { binaryTicksMessageBytes, createBinaryTickEncoder, splitBinaryTicks } from '../src/shared/market/binary-ticks';
import { createKlineAggregator } from '../src/worker/engine/kline-aggregator';
import { createPriceFanout } from '../src/worker/engine/price-fanout';
import { batchSymbol, batchTick, createTickStore, type PriceBatch } from '../src/worker/engine/tick-store';
import { createMarketSocket } from '../src/worker/transport/market-socket';
import { serializeBinaryFrame, serializeFrame } from '../server/modules/market/stomp/frame';

const symbolCount = 500;
const ticksTotal = 100_000;
const trials = 5;

/**
 * The ticks of `frames` publications of `perFrame` ticks each, moving as the server's do:
 * bid and ask every tick, with them the day's change, and the day's volume every publication.
 */
export function makeTickBatches(frames: number, perFrame: number): PriceTick[][] {
  let time = Date.parse('2026-01-12T10:00:00Z');
  return Array.from({ length: frames }, (_, frame) =>
    Array.from({ length: perFrame }, (_, index) => {
      const number = (frame * perFrame + index) % symbolCount;
      const symbol = `LOAD${String(number + 1).padStart(3, '0')}USDT`;
      const price = (100 + ((frame * 7 + index * 13) % 1000) / 100).toFixed(2);
      time += 2;
      return {
        symbol, name: `Load ${String(number + 1).padStart(3, '0')}`, price, bidPrice: price, askPrice: (Number(price) + 0.02).toFixed(2), volume: String(1234 + frame),
        lastUpdate: time, type: 'Cryptos' as const, priceChangePercent: (Number(price) - 100).toFixed(2), low: '99.00', high: '111.00',
      };
    }),
  );
}

/** A MESSAGE frame as the market endpoint writes it: text for a text body, octets (an ArrayBuffer, as a browser hands a binary message over) for a binary one. */
export function messageFrame(destination: string, subscription: string, messageId: number, body: string | Uint8Array, contentType: string): string | ArrayBuffer {
  const headers = { destination, subscription, 'message-id': String(messageId), 'content-type': contentType };
  if (typeof body === 'string') return serializeFrame({ command: 'MESSAGE', headers, body });
  const octets = serializeBinaryFrame({ command: 'MESSAGE', headers }, body);
  return octets.buffer.slice(octets.byteOffset, octets.byteOffset + octets.length) as ArrayBuffer;
}

/** A socket whose server side is the bench: it answers CONNECT, and hands over messages on demand. */
class BenchSocket implements IStompSocket {
  readyState = 0;
  binaryType = 'arraybuffer';
  onopen: IStompSocket['onopen'] = null;
  onmessage: IStompSocket['onmessage'] = null;
  onclose: IStompSocket['onclose'] = null;
  onerror: IStompSocket['onerror'] = null;
  /** Subscription ids by destination. */
  readonly subscribed = new Map<string, string>();
  constructor(readonly url: string) {
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.({});
    });
  }
  send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
    const text = String(data);
    if (text.startsWith('CONNECT')) queueMicrotask(() => this.deliver('CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0'));
    const destination = /\ndestination:([^\n]*)/.exec(text)?.[1];
    const id = /\nid:([^\n]*)/.exec(text)?.[1];
    if (text.startsWith('SUBSCRIBE') && destination && id) this.subscribed.set(destination, id);
  }
  close() {
    this.readyState = 3;
    this.onclose?.({ code: 1000, reason: '' });
  }
  /** A text message, or the octets of a binary one (as the endpoint sends binary ticks). */
  deliver(data: string | ArrayBuffer) {
    this.onmessage?.({ data });
  }
}

/** The engine's part after the socket: store, two tabs' fan-out of their visible rows, one chart's bars. */
function engineSink() {
  const store = createTickStore();
  const fanout = createPriceFanout();
  const klines = createKlineAggregator();
  fanout.setWatched('tab-1', Array.from({ length: 20 }, (_, index) => `LOAD${String(index + 1).padStart(3, '0')}USDT`));
  fanout.setWatched('tab-2', Array.from({ length: 20 }, (_, index) => `LOAD${String(index + 101).padStart(3, '0')}USDT`));
  klines.watch('LOAD001USDT', '1min', null, 2);
  let count = 0;
  return {
    // As the engine's feed takes them (market-feed.ts): the store copies decoded ticks, a chart's symbol becomes a tick object.
    onPrices(ticks: PriceBatch) {
      fanout.noteChanged(store.ingest(ticks));
      for (let index = 0; index < ticks.length; index += 1) if (klines.follows(batchSymbol(ticks, index))) klines.ingest(batchTick(ticks, index));
      count += ticks.length;
    },
    get count() {
      return count;
    },
  };
}

type MarketSocketFactory = (options: Parameters<typeof createMarketSocket>[0]) => Pick<ReturnType<typeof createMarketSocket>, 'followPrices' | 'start' | 'stop'>;

/** The hand-written market socket of INGEST_OLD_CHECKOUT (null without one). */
async function oldMarketSocket(): Promise<MarketSocketFactory | null> {
  const checkout = process.env.INGEST_OLD_CHECKOUT;
  if (!checkout) return null;
  const module = (await import(path.resolve(checkout, 'src/worker/transport/market-socket.ts'))) as { createMarketSocket: MarketSocketFactory };
  return module.createMarketSocket;
}

/** The worker's market socket (or `create`, another one of the same shape) over a bench socket, connected and following every price. */
export async function connectedWorkerSocket(brokerNaming: boolean, onPrices: (ticks: PriceBatch) => void, create: MarketSocketFactory = createMarketSocket) {
  let socket: BenchSocket | null = null;
  const market = create({
    url: 'ws://bench/market/stomp',
    brokerNaming,
    createSocket: (url) => (socket = new BenchSocket(url)),
    onPrices,
    onState: () => undefined,
  });
  market.followPrices({ all: true });
  market.start();
  const subscribed = () => (socket as BenchSocket | null)?.subscribed.has('/topic/prices') === true;
  for (let turn = 0; turn < 20 && !subscribed(); turn += 1) await new Promise((resolve) => setTimeout(resolve, 0));
  const opened = socket as BenchSocket | null;
  if (!opened || !subscribed()) throw new Error('the worker socket did not subscribe');
  return { market, socket: opened };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** CPU milliseconds of this process for `run` (all threads; the bench is single-threaded JavaScript). */
function cpuMs(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

export async function runWorkerIngestBench() {
  const sections = [];
  for (const perFrame of [50, 2_000]) {
    const batches = makeTickBatches(ticksTotal / perFrame, perFrame);
    const jsonBodies = batches.map((ticks) => JSON.stringify(ticks));
    // Encoded as the endpoint's source encodes a publication (each symbol whole at first, then its changes), cut as it cuts a big batch.
    // Every trial replays them from the first: the whole ticks come first again, so each trial decodes as the first did.
    const encoder = createBinaryTickEncoder('0');
    const binaryBodies = batches.flatMap((ticks) => splitBinaryTicks(encoder.encode(ticks), binaryTicksMessageBytes));

    const bareParse = () => {
      let count = 0;
      for (const body of jsonBodies) count += (JSON.parse(body) as unknown[]).length;
      if (count !== ticksTotal) throw new Error('bare parse lost ticks');
    };
    const throughSocket = async (brokerNaming: boolean, bodies: readonly (string | Uint8Array)[], create?: MarketSocketFactory) => {
      let sink = engineSink();
      const { market, socket } = await connectedWorkerSocket(brokerNaming, (ticks) => sink.onPrices(ticks), create);
      // Addressed as the endpoint addresses them: the batch subscription, or the subscription to /topic/prices.
      const destination = brokerNaming ? '/topic/prices' : '/topic/ticks';
      const subscription = socket.subscribed.get(destination)!;
      const contentType = brokerNaming ? 'application/json' : 'application/octet-stream';
      // The endpoint sends binary ticks as binary messages, the documented JSON as text.
      const frames = bodies.map((body, index) => messageFrame(destination, subscription, index, body, contentType));
      return {
        frames,
        run() {
          sink = engineSink();
          for (const frame of frames) socket.deliver(frame);
          if (sink.count !== ticksTotal) throw new Error(`the worker socket lost ticks (${sink.count} of ${ticksTotal})`);
        },
        stop: () => market.stop(),
      };
    };
    const binary = await throughSocket(false, binaryBodies);
    const json = await throughSocket(true, jsonBodies);
    const createOld = await oldMarketSocket();
    // Its subscription to /topic/prices is addressed as at a broker: the JSON bodies.
    const old = createOld ? await throughSocket(true, jsonBodies, createOld) : null;
    const paths: (readonly [string, () => void, readonly (string | ArrayBuffer)[]])[] = [
      ['bare JSON.parse of the documented JSON bodies (baseline)', bareParse, jsonBodies],
      ['worker: @stomp/stompjs + binary ticks → store → fan-out → klines', binary.run, binary.frames],
      ['@stomp/stompjs + the documented JSON bodies → the same engine', json.run, json.frames],
      ...(old ? [['the hand-written client of c1fcac2 + the JSON bodies → the same engine', old.run, old.frames] as const] : []),
    ];
    for (const [, run] of paths) run(); // warm-up
    const timings = paths.map(() => [] as number[]);
    // Interleaved trials, so that a neighbour's load on this machine falls on every path alike.
    for (let trial = 0; trial < trials; trial += 1) paths.forEach(([, run], index) => timings[index]!.push(cpuMs(run)));
    await binary.stop();
    await json.stop();
    await old?.stop();
    const perThousand = timings.map((each) => (median(each) / ticksTotal) * 1000);
    const baseline = perThousand[0]!;
    sections.push({
      title: `Worker ingest: ${ticksTotal.toLocaleString('en-US')} ticks of ${symbolCount} symbols, ${perFrame} ticks a publication, CPU per 1,000 ticks, median of ${trials}`,
      header: ['path', 'MESSAGEs', 'octets a tick on the wire', 'CPU per 1,000 ticks', 'vs bare JSON.parse'],
      rows: paths.map(([name, , wire], index) => [
        name,
        index === 0 ? '–' : String(wire.length),
        (wire.reduce((sum, message) => sum + (typeof message === 'string' ? Buffer.byteLength(message) : message.byteLength), 0) / ticksTotal).toFixed(0),
        `${perThousand[index]!.toFixed(2)} ms`,
        `${(perThousand[index]! / baseline).toFixed(2)}×`,
      ]),
    });
  }
  return sections;
}
