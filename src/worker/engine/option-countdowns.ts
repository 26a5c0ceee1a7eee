import type { OptionOrder } from '../../shared/api/options';
import { OptionStatus, progressPercent } from '../../shared/options/option-rules';
import type { OptionsState, RunningOption } from '../../shared/protocol/engine';
import type { Clock, Timers } from './ports';

/** The specification's progress refresh. */
export const optionTickMs = 200;
/** Settled options kept for the tabs' result drawers. */
const settledKept = 50;
/** Offset samples kept; the smallest is the best estimate (latency only ever adds). */
const offsetSamplesKept = 10;

export const emptyOptions: OptionsState = { loaded: false, running: [], settled: [] };

/**
 * The countdowns of the signed-in account's running options, in the worker: every
 * 200 ms while any run, each option's remaining time and progress
 * (ceil(remaining / timeLong × 100)) go to every tab. Progress is computed from the
 * option's end time against the server's clock, not counted down, so a throttled or
 * sleeping tab shows the right value the moment it looks. An option leaves the running
 * list when its time is up; it joins `settled` when the server's settlement push arrives.
 */
export function createOptionCountdowns(options: {
  clock: Clock;
  timers: Timers;
  /** The account's running options (`option/orderList`, status 0); null when unreachable. */
  loadRunning: () => Promise<OptionOrder[] | null>;
  onUpdate: (state: OptionsState) => void;
}) {
  const { clock, timers } = options;
  let running = new Map<string, OptionOrder>();
  let settled: OptionOrder[] = [];
  let loaded = false;
  let ticker: unknown = null;
  let generation = 0;
  /** Pushes that arrived while a list was loading: newer than what the list may say. */
  let pushedDuringLoad: Map<string, OptionOrder> | null = null;
  /** Local clock minus server clock, from placements seen as they happened. */
  const offsetSamples: number[] = [];

  function clockOffsetMs(): number {
    return offsetSamples.length === 0 ? 0 : Math.min(...offsetSamples);
  }

  function snapshot(): OptionsState {
    const serverNow = clock.nowMs() - clockOffsetMs();
    const list: RunningOption[] = [];
    for (const order of running.values()) {
      const remainingMs = order.endTime - serverNow;
      if (remainingMs <= 0) continue;
      list.push({ order, remainingMs, progress: progressPercent(remainingMs, order.timeLong) });
    }
    list.sort((a, b) => a.order.endTime - b.order.endTime);
    return { loaded, running: list, settled };
  }

  function publish() {
    const state = snapshot();
    // Options whose time is up wait for settlement outside the running list.
    for (const order of [...running.values()]) if (!state.running.some((entry) => entry.order.uid === order.uid)) running.delete(order.uid);
    options.onUpdate(state);
    if (running.size > 0 && ticker === null) ticker = timers.setInterval(publish, optionTickMs);
    if (running.size === 0 && ticker !== null) {
      timers.clearInterval(ticker);
      ticker = null;
    }
  }

  function remember(order: OptionOrder) {
    settled = [order, ...settled.filter((each) => each.uid !== order.uid)].slice(0, settledKept);
  }

  return {
    /** Starts over for a new account (sign-in, switch) or clears at sign-out. */
    follow(signedIn: boolean) {
      generation += 1;
      pushedDuringLoad = null;
      running = new Map();
      settled = [];
      loaded = false;
      publish();
      if (signedIn) void this.reload();
    },
    /** Loads the running list again (after the socket reconnects, pushes may have been missed). */
    async reload() {
      const own = generation;
      const pushed = new Map<string, OptionOrder>();
      pushedDuringLoad = pushed;
      const orders = await options.loadRunning();
      if (pushedDuringLoad === pushed) pushedDuringLoad = null;
      if (own !== generation || orders === null) return;
      const next = new Map(orders.filter((order) => order.status === OptionStatus.running).map((order) => [order.uid, order]));
      for (const order of pushed.values()) {
        if (order.status === OptionStatus.running) next.set(order.uid, order);
        else next.delete(order.uid);
      }
      running = next;
      loaded = true;
      publish();
    },
    /** A push from the exchange socket: a placement or a settlement. */
    apply(order: OptionOrder) {
      pushedDuringLoad?.set(order.uid, order);
      if (order.status === OptionStatus.running) {
        if (!running.has(order.uid)) {
          offsetSamples.push(clock.nowMs() - order.beginTime);
          if (offsetSamples.length > offsetSamplesKept) offsetSamples.shift();
        }
        running.set(order.uid, order);
      } else {
        running.delete(order.uid);
        remember(order);
      }
      publish();
    },
    get state() {
      return snapshot();
    },
    stop() {
      generation += 1;
      if (ticker !== null) timers.clearInterval(ticker);
      ticker = null;
    },
  };
}

export type OptionCountdowns = ReturnType<typeof createOptionCountdowns>;
