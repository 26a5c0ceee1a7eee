import { describe, expect, it } from 'vitest';
import {
  MAX_HEART_BEAT_MS,
  SILENCE_FACTOR,
  heartBeatHeader,
  keepHeartBeat,
  negotiateHeartBeat,
  parseHeartBeat,
  type HeartBeatClock,
} from '../../../../../../server/modules/market/stomp/heart-beat';

/** A clock and timers this test alone advances. */
function manualClock(): HeartBeatClock & { advance(ms: number): void } {
  let now = 0;
  let nextHandle = 1;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    nowMs: () => now,
    setTimeout(callback, ms) {
      const handle = nextHandle++;
      timers.set(handle, { at: now + ms, callback });
      return handle;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = end;
    },
  };
}

describe('the heart-beat header', () => {
  it('reads cx,cy with optional spaces, and an absent header as 0,0', () => {
    expect(parseHeartBeat('5000,20000')).toEqual({ canSendMs: 5000, wantsMs: 20000 });
    expect(parseHeartBeat(' 0 , 100 ')).toEqual({ canSendMs: 0, wantsMs: 100 });
    expect(parseHeartBeat(undefined)).toEqual({ canSendMs: 0, wantsMs: 0 });
    expect(heartBeatHeader(10_000)).toBe('10000,10000');
  });

  it('refuses a malformed header and values above the cap', () => {
    for (const bad of ['', 'soon', '1000', '1000,', '-1,0', '1.5,0', '1,2,3', '12345678901,0']) {
      expect(parseHeartBeat(bad), bad).toBeNull();
    }
    expect(parseHeartBeat(`${MAX_HEART_BEAT_MS},${MAX_HEART_BEAT_MS}`)).toEqual({ canSendMs: MAX_HEART_BEAT_MS, wantsMs: MAX_HEART_BEAT_MS });
    expect(parseHeartBeat(`${MAX_HEART_BEAT_MS + 1},0`)).toBeNull();
    expect(parseHeartBeat(`0,${MAX_HEART_BEAT_MS + 1}`)).toBeNull();
  });
});

describe('negotiation (STOMP 1.2: max of the two, 0 when either is 0)', () => {
  it('takes the slower of what one side can send and the other wants', () => {
    // The server offers 10 s both ways; the client can send every 5 s and wants beats every 20 s.
    expect(negotiateHeartBeat(10_000, '5000,20000')).toEqual({ sendMs: 20_000, receiveMs: 10_000 });
    expect(negotiateHeartBeat(100, '300,300')).toEqual({ sendMs: 300, receiveMs: 300 });
  });

  it('turns a direction off when either side says 0', () => {
    expect(negotiateHeartBeat(10_000, '0,0')).toEqual({ sendMs: 0, receiveMs: 0 });
    expect(negotiateHeartBeat(10_000, '0,500')).toEqual({ sendMs: 10_000, receiveMs: 0 });
    expect(negotiateHeartBeat(0, '500,500')).toEqual({ sendMs: 0, receiveMs: 0 });
    expect(negotiateHeartBeat(10_000, undefined)).toEqual({ sendMs: 0, receiveMs: 0 });
  });

  it('answers null for a malformed peer header', () => {
    expect(negotiateHeartBeat(10_000, 'soon')).toBeNull();
    expect(negotiateHeartBeat(10_000, `${MAX_HEART_BEAT_MS + 1},0`)).toBeNull();
  });
});

describe('keeping the beat', () => {
  it('beats after a quiet send interval, not while other frames go out', () => {
    const clock = manualClock();
    let beats = 0;
    const keeper = keepHeartBeat({ intervals: { sendMs: 100, receiveMs: 0 }, clock, beat: () => (beats += 1), onSilence: () => undefined });
    clock.advance(60);
    keeper.sent();
    clock.advance(60);
    expect(beats).toBe(0);
    clock.advance(40);
    expect(beats).toBe(1);
    keeper.stop();
    clock.advance(1_000);
    expect(beats).toBe(1);
  });

  it('reports silence after SILENCE_FACTOR receive intervals, once, and not while frames arrive', () => {
    const clock = manualClock();
    const silences: number[] = [];
    const keeper = keepHeartBeat({ intervals: { sendMs: 0, receiveMs: 100 }, clock, beat: () => undefined, onSilence: (ms) => silences.push(ms) });
    for (let step = 0; step < 5; step += 1) {
      clock.advance(150);
      keeper.received();
    }
    expect(silences).toEqual([]);
    clock.advance(100 * SILENCE_FACTOR);
    expect(silences).toEqual([100 * SILENCE_FACTOR]);
    clock.advance(1_000);
    expect(silences).toHaveLength(1);
  });

  it('arms no timer for a direction that is off', () => {
    const clock = manualClock();
    let calls = 0;
    keepHeartBeat({ intervals: { sendMs: 0, receiveMs: 0 }, clock, beat: () => (calls += 1), onSilence: () => (calls += 1) });
    clock.advance(10_000_000);
    expect(calls).toBe(0);
  });
});
