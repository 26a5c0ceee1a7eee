/**
 * Engine ingest in Node: raw STOMP MESSAGE frames of /topic/prices, as text messages,
 * through the worker's own path (the shared STOMP codec's parseMessage with the market
 * client's frame limits, the contract check, the tick store, the per-tab fan-out and
 * the kline aggregation of watched pairs) against a bare JSON.parse of the same frame
 * bodies, measured in the same run. Target: at most 2× the bare parse.
 */
import type { PriceTick } from '../src/shared/api/market';
import { parseMessage } from '../src/shared/stomp/frame';
import { createKlineAggregator } from '../src/worker/engine/kline-aggregator';
import { createPriceFanout } from '../src/worker/engine/price-fanout';
import { createTickStore } from '../src/worker/engine/tick-store';
import { decodePriceBatch } from '../src/shared/api/market';
import { CLIENT_FRAME_LIMITS } from '../src/worker/transport/stomp-connection';

const symbolCount = 500;
const ticksPerFrame = 50;
const frameCount = 2_000;
const trials = 5;

/** Text frames, as a browser's WebSocket hands them to the STOMP client. */
function makeFrames(): string[] {
  const encoder = new TextEncoder();
  const frames: string[] = [];
  let time = Date.parse('2026-01-12T10:00:00Z');
  for (let frame = 0; frame < frameCount; frame += 1) {
    const ticks: PriceTick[] = [];
    for (let index = 0; index < ticksPerFrame; index += 1) {
      const symbol = `SYM${(frame * ticksPerFrame + index) % symbolCount}`;
      const price = (100 + ((frame * 7 + index * 13) % 1000) / 100).toFixed(2);
      time += 2;
      ticks.push({ symbol, name: symbol, price, bidPrice: price, askPrice: price, volume: '1234', lastUpdate: time, type: 'Cryptos', priceChangePercent: '0.42', low: '99.00', high: '111.00' });
    }
    const body = JSON.stringify(ticks);
    const text = `MESSAGE\ndestination:/topic/prices\nsubscription:sub-0\nmessage-id:${frame}\ncontent-type:application/json\ncontent-length:${encoder.encode(body).length}\n\n${body}\0`;
    frames.push(text);
  }
  return frames;
}

function bodiesOf(frames: string[]): string[] {
  return frames.map((text) => text.slice(text.indexOf('\n\n') + 2, -1));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(run: () => void): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function runEngineIngestBench() {
  const frames = makeFrames();
  const bodies = bodiesOf(frames);
  const ticksTotal = frameCount * ticksPerFrame;

  const bareParse = () => {
    let count = 0;
    for (const body of bodies) count += (JSON.parse(body) as unknown[]).length;
    if (count !== ticksTotal) throw new Error('bare parse lost ticks');
  };

  const engineIngest = () => {
    const store = createTickStore();
    const fanout = createPriceFanout();
    const klines = createKlineAggregator();
    // Two tabs watching the visible rows and one chart of a watched symbol.
    fanout.setWatched('tab-1', Array.from({ length: 20 }, (_, index) => `SYM${index}`));
    fanout.setWatched('tab-2', Array.from({ length: 20 }, (_, index) => `SYM${index + 100}`));
    klines.watch('SYM0', '1min', null, 2);
    let count = 0;
    // What the market socket does with each WebSocket text message.
    for (const frame of frames) {
      const parsed = parseMessage(frame, CLIENT_FRAME_LIMITS);
      if (!parsed.ok) throw new Error(`a frame did not parse: ${parsed.error.code}`);
      for (const item of parsed.items) {
        if (item.kind !== 'frame' || item.frame.command !== 'MESSAGE') continue;
        const ticks = decodePriceBatch(item.frame.body);
        if (!ticks) throw new Error('a frame did not decode');
        fanout.noteChanged(store.ingest(ticks));
        for (const tick of ticks) klines.ingest(tick);
        count += ticks.length;
      }
    }
    if (count !== ticksTotal) throw new Error('engine lost ticks');
  };

  bareParse();
  engineIngest(); // warm-up
  const bareMs = median(Array.from({ length: trials }, () => time(bareParse)));
  const engineMs = median(Array.from({ length: trials }, () => time(engineIngest)));
  return {
    title: `Engine ingest: ${frameCount} frames × ${ticksPerFrame} ticks (${symbolCount} symbols), median of ${trials}`,
    rows: [
      ['bare JSON.parse of the bodies (baseline)', `${Math.round(ticksTotal / (bareMs / 1000)).toLocaleString('en-US')} ticks/s`, '1.00×'],
      ['engine: STOMP parse → contract check → store → fan-out → klines', `${Math.round(ticksTotal / (engineMs / 1000)).toLocaleString('en-US')} ticks/s`, `${(engineMs / bareMs).toFixed(2)}×`],
    ],
  };
}
