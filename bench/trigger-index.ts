/**
 * Issue 6's trigger bench: one symbol with 1,000,000 open stop orders, ticks random-walking
 * around the price, against a linear scan of the same orders on every tick.
 */
import { createTriggerIndex, type Trigger } from '../server/modules/trading/trigger-index';
import { seededRandom } from '../server/modules/market/sources/random';

export function runTriggerIndexBench(openOrders = 1_000_000, ticks = 20_000) {
  const random = seededRandom(11);
  const start = 1_000_000;
  const triggers: Trigger<number>[] = [];
  for (let index = 0; index < openOrders; index += 1) {
    // Stops 0.5%–5% away from the price, on both sides, on both bid and ask.
    const distance = Math.floor(start * (0.005 + random.next() * 0.045));
    const above = random.next() < 0.5;
    triggers.push({ id: String(index), side: random.next() < 0.5 ? 'bid' : 'ask', crossing: above ? 'above' : 'below', level: above ? start + distance : start - distance, payload: index });
  }
  const prices: number[] = [];
  let price = start;
  for (let index = 0; index < ticks; index += 1) {
    price += Math.round((random.next() - 0.5) * 200);
    prices.push(price);
  }

  const index = createTriggerIndex<number>();
  index.load(triggers);
  let firedIndexed = 0;
  const indexedStart = process.hrtime.bigint();
  for (const bid of prices) firedIndexed += index.fire(bid, bid + 20).length;
  const indexedSeconds = Number(process.hrtime.bigint() - indexedStart) / 1e9;

  // The baseline: every tick looks at every open order (fewer ticks: it is slow).
  const live = new Set(triggers);
  const scanTicks = Math.min(ticks, 200);
  let firedScan = 0;
  const scanStart = process.hrtime.bigint();
  for (const bid of prices.slice(0, scanTicks)) {
    const ask = bid + 20;
    for (const trigger of live) {
      const level = trigger.side === 'bid' ? bid : ask;
      if (trigger.crossing === 'above' ? level >= trigger.level : level <= trigger.level) {
        live.delete(trigger);
        firedScan += 1;
      }
    }
  }
  const scanSeconds = Number(process.hrtime.bigint() - scanStart) / 1e9;
  const indexedRate = ticks / indexedSeconds;
  const scanRate = scanTicks / scanSeconds;
  return {
    title: `Price triggers: ${openOrders.toLocaleString('en-US')} open stop orders on one symbol (random walk; fired ${firedIndexed} over ${ticks} ticks indexed, ${firedScan} over ${scanTicks} scanned)`,
    rows: [
      ['linear scan of every order per tick (baseline)', `${scanRate.toFixed(1)} ticks/s`, '1×'],
      ['sorted trigger books (O(log n + fired))', `${indexedRate.toFixed(0)} ticks/s`, `${(indexedRate / scanRate).toFixed(0)}× faster`],
    ],
  };
}
