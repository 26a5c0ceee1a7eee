/**
 * STOMP 1.2 heart-beating (§Heart-beating), as the market endpoint keeps it
 * (the worker's client, @stomp/stompjs, keeps its own side): the `heart-beat` header `cx,cy` (cx: the smallest interval
 * at which its sender can beat, cy: the interval at which it wants beats; 0 for never),
 * the two intervals it negotiates, and the timers that keep them.
 */

/**
 * Largest heart-beat value either side accepts. Timers overflow past 2^31-1 ms (Node and
 * browsers fire at once), and a promise to beat less than hourly says nothing about
 * liveness anyway.
 */
export const MAX_HEART_BEAT_MS = 60 * 60 * 1000;
/** The spec lets the receiver allow for timing inaccuracy; we allow a whole interval: silence is fatal after two. */
export const SILENCE_FACTOR = 2;

/** What one side offers in its `heart-beat` header. */
export interface HeartBeatOffer {
  /** cx: the smallest interval at which it can send beats; 0: it cannot. */
  canSendMs: number;
  /** cy: the interval at which it wants to receive beats; 0: it does not. */
  wantsMs: number;
}

/** The agreed intervals, seen from one side. */
export interface HeartBeatIntervals {
  /** How often we send a beat when otherwise quiet; 0: never. */
  sendMs: number;
  /** How often the peer promised to; silence for {@link SILENCE_FACTOR}× this is fatal. 0: not watched. */
  receiveMs: number;
}

/** The header a side sends when it offers the same interval both ways. */
export function heartBeatHeader(intervalMs: number): string {
  return `${intervalMs},${intervalMs}`;
}

/**
 * A `heart-beat` header: absent means `0,0` (the spec's default); two whole numbers up to
 * {@link MAX_HEART_BEAT_MS} are an offer; anything else is malformed (null), which the
 * spec makes a protocol error for whichever side receives it.
 */
export function parseHeartBeat(value: string | undefined): HeartBeatOffer | null {
  if (value === undefined) return { canSendMs: 0, wantsMs: 0 };
  const match = /^\s*(\d{1,10})\s*,\s*(\d{1,10})\s*$/.exec(value);
  if (!match) return null;
  const canSendMs = Number(match[1]);
  const wantsMs = Number(match[2]);
  if (canSendMs > MAX_HEART_BEAT_MS || wantsMs > MAX_HEART_BEAT_MS) return null;
  return { canSendMs, wantsMs };
}

/** One direction: no beats if either side says 0, else the slower of the two. */
function agreedInterval(senderCanMs: number, receiverWantsMs: number): number {
  return senderCanMs === 0 || receiverWantsMs === 0 ? 0 : Math.max(senderCanMs, receiverWantsMs);
}

/**
 * Our intervals, given what we offer both ways (`ownMs`) and the peer's header; null when
 * the peer's header is malformed.
 */
export function negotiateHeartBeat(ownMs: number, peerHeader: string | undefined): HeartBeatIntervals | null {
  const peer = parseHeartBeat(peerHeader);
  if (!peer) return null;
  return { sendMs: agreedInterval(ownMs, peer.wantsMs), receiveMs: agreedInterval(peer.canSendMs, ownMs) };
}

/** The clock and timers of the side keeping the beat (`performance.now` and the global timers in practice). */
export interface HeartBeatClock {
  nowMs(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface HeartBeatKeeperOptions {
  intervals: HeartBeatIntervals;
  clock: HeartBeatClock;
  /** Sends one beat (an EOL); may decline, e.g. while the socket is congested. */
  beat(): void;
  /** Nothing arrived for SILENCE_FACTOR × the receive interval; the keeper has stopped. */
  onSilence(silentMs: number): void;
}

export interface HeartBeatKeeper {
  /** Anything was sent: no beat is due for a send interval. */
  sent(): void;
  /** Anything arrived: the peer is alive. */
  received(): void;
  stop(): void;
}

/**
 * Keeps both directions: beats when nothing else was sent for a send interval, and
 * reports silence. Timers are re-armed from timestamps rather than reset on every frame:
 * a busy socket should not pay a timer update for each message.
 */
export function keepHeartBeat(options: HeartBeatKeeperOptions): HeartBeatKeeper {
  const { intervals, clock } = options;
  let lastSentAt = clock.nowMs();
  let lastReceivedAt = lastSentAt;
  let sendTimer: unknown = null;
  let receiveTimer: unknown = null;
  let stopped = false;

  function armSend(delayMs: number) {
    sendTimer = clock.setTimeout(() => {
      if (stopped) return;
      if (clock.nowMs() - lastSentAt >= intervals.sendMs) options.beat();
      const remaining = intervals.sendMs - (clock.nowMs() - lastSentAt);
      armSend(remaining > 0 ? remaining : intervals.sendMs);
    }, delayMs);
  }

  function armReceive(delayMs: number) {
    receiveTimer = clock.setTimeout(() => {
      if (stopped) return;
      const allowed = intervals.receiveMs * SILENCE_FACTOR;
      const silent = clock.nowMs() - lastReceivedAt;
      if (silent < allowed) {
        armReceive(allowed - silent);
        return;
      }
      stop();
      options.onSilence(silent);
    }, delayMs);
  }

  function stop() {
    stopped = true;
    if (sendTimer !== null) clock.clearTimeout(sendTimer);
    if (receiveTimer !== null) clock.clearTimeout(receiveTimer);
    sendTimer = receiveTimer = null;
  }

  if (intervals.sendMs > 0) armSend(intervals.sendMs);
  if (intervals.receiveMs > 0) armReceive(intervals.receiveMs * SILENCE_FACTOR);
  return {
    sent: () => {
      lastSentAt = clock.nowMs();
    },
    received: () => {
      lastReceivedAt = clock.nowMs();
    },
    stop,
  };
}
