import { OptionStatus, type OptionOrder } from '../../../../shared/api/options';

/** The specification's completion check: first after 1 s, then every 1.5 s. */
export const completionFirstDelayMs = 1_000;
export const completionIntervalMs = 1_500;
/** Tries from the place form and from the position list. */
export const completionTriesFromForm = 12;
export const completionTriesFromList = 40;

export interface CompletionTimers {
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface CompletionWatchOptions {
  uid: string;
  maxTries: number;
  /** `option/completed`; a failure (thrown) uses up the try. */
  isCompleted: (uid: string) => Promise<boolean>;
  /** `option/order`; a failure uses up the try, and the next try asks again. */
  fetchOrder: (uid: string) => Promise<OptionOrder>;
  timers: CompletionTimers;
  onResult: (order: OptionOrder) => void;
  /** No settled order after every try. */
  onGiveUp: () => void;
}

export interface CompletionWatch {
  /** Stops without a result: the drawer was closed, or the server's push brought the result first. */
  cancel: () => void;
}

/**
 * Polls an option's completion after its countdown ended: `completed`, and once true the
 * order itself, which is reported once. Every check counts as a try, answered or not;
 * after `maxTries` without a settled order the watch gives up. The timers are injected
 * so the cadence is testable without a browser.
 */
export function watchOptionCompletion(options: CompletionWatchOptions): CompletionWatch {
  let tries = 0;
  let done = false;
  let timer: unknown = null;

  function finish(order: OptionOrder | null) {
    if (done) return;
    done = true;
    if (timer !== null) options.timers.clearTimeout(timer);
    timer = null;
    if (order) options.onResult(order);
    else options.onGiveUp();
  }

  async function check() {
    timer = null;
    tries += 1;
    try {
      if (await options.isCompleted(options.uid)) {
        const order = await options.fetchOrder(options.uid);
        // `completed` and the order agree unless a read raced the settlement: then try again.
        if (order.status === OptionStatus.settled) {
          finish(order);
          return;
        }
      }
    } catch {
      // The check failed (network, server); silent, as the specification asks of result fetches.
    }
    if (done) return;
    if (tries >= options.maxTries) finish(null);
    else timer = options.timers.setTimeout(() => void check(), completionIntervalMs);
  }

  timer = options.timers.setTimeout(() => void check(), completionFirstDelayMs);

  return {
    cancel() {
      if (done) return;
      done = true;
      if (timer !== null) options.timers.clearTimeout(timer);
      timer = null;
    },
  };
}
