import { describe, expect, it } from 'vitest';
import type { OptionOrder } from '../../../../src/shared/api/options';
import type { PositionsConnector } from '../../../../src/worker/engine/positions-channel';
import { signAccessToken } from '../../support/access-token';
import { createFakeClock, settle } from '../../support/fake-clock';
import { createTestHost, fakeTab } from '../../support/engine-harness';

const optionAt = (uid: string, beginTime: number, timeLong: number, status: 0 | 1 = 0): OptionOrder => ({
  id: Number(uid.slice(-3)), uid, orderType: 0, tradePair: 'BTCUSDT', productName: 'Bitcoin', optionsProductId: 1,
  price: '67000.00', priceTime: beginTime, priceEnd: status === 1 ? '67010.00' : null, priceEndTime: status === 1 ? beginTime + timeLong * 1000 : null,
  feeAmount: '1.00', timeLong, beginTime, endTime: beginTime + timeLong * 1000, completeTime: status === 1 ? beginTime + timeLong * 1000 + 50 : null,
  amount: '100.00', rate: '0.80', winLost: status === 1 ? '80.00' : null, status, positionStatus: status, result: status === 1 ? 'win' : null, voidReason: null,
});

const runningUid = '1000000000000001';
const placedUid = '1000000000000002';

/**
 * One tab signed in to an account with one running option, 60 s long. The server's clock
 * runs 5 s behind this browser's: the option began 10 s ago by the server's clock, 15 s
 * ago by this browser's.
 */
async function signedInWithARunningOption() {
  const time = createFakeClock();
  const sockets: Parameters<PositionsConnector>[1][] = [];
  const loads: string[] = [];
  const startMs = time.clock.nowMs();
  const serverNow = () => time.clock.nowMs() - 5_000;
  const account = { running: [optionAt(runningUid, startMs - 5_000 - 10_000, 60)] };
  const host = createTestHost({
    time,
    connectPositions: (_url, handlers) => {
      sockets.push(handlers);
      return { close: () => undefined, send: () => undefined };
    },
    fetchRunningOptions: async (apiRoot, token) => {
      loads.push(`${apiRoot}|${token.length > 0}`);
      return account.running;
    },
  });
  const screen = fakeTab();
  await host.api.hello('one', screen.listener);
  await host.api.configureSession({ apiRoot: '/api', demoAllowed: true, positionsSocketUrl: 'ws://x/exchange/ws' });
  await host.api.signIn({ token: await signAccessToken(9, 0), refreshToken: 'r' });
  await settle();
  const latest = () => screen.events('options').at(-1)!;
  const progressOf = (uid: string) => latest().running.find((entry) => entry.order.uid === uid);
  const push = (order: OptionOrder) => sockets[0]!.onMessage(JSON.stringify({ type: 'option', data: order }));
  /** A 30 s option placed now: its push is the connection's first message. */
  async function placeOption() {
    const placed = optionAt(placedUid, serverNow(), 30);
    push(placed);
    await settle();
    return placed;
  }
  return { time, host, screen, loads, account, latest, progressOf, push, placeOption };
}

describe('engine option countdowns', () => {
  it('loads the running list for the account and shows each option\'s progress from its end time', async () => {
    const { loads, latest } = await signedInWithARunningOption();
    expect(loads).toEqual(['/api|true']);
    expect(latest().loaded).toBe(true);
    // Without a placement seen, the local clock is taken as the server's: 45 s of 60 left → 75 %.
    expect(latest().running.map((entry) => entry.progress)).toEqual([75]);
  });

  it('learns the server clock from a placement push, and reloads the list on the connection\'s first message', async () => {
    const { loads, progressOf, placeOption } = await signedInWithARunningOption();
    const placed = await placeOption();
    // The push teaches the 5 s offset, so the new option starts at 100 %; the connection's
    // first message also reloads the list (pushes may have been missed before it).
    expect(loads).toHaveLength(2);
    expect(progressOf(placed.uid)).toMatchObject({ progress: 100, remainingMs: 30_000 });
  });

  it('counts down about every 200 ms to every tab', async () => {
    const { time, host, screen, progressOf, placeOption } = await signedInWithARunningOption();
    const placed = await placeOption();
    const pushesBefore = screen.batches.length;
    time.advance(1_000);
    // About every 200 ms: five updates in a second.
    expect(screen.batches.length - pushesBefore).toBe(5);
    // 29 s of 30 left: ceil(96.67) = 97.
    expect(progressOf(placed.uid)?.progress).toBe(97);
    expect((await host.api.options()).running).toHaveLength(2);
  });

  it('drops an option from the running list at zero, and keeps its settlement push', async () => {
    const { time, latest, push, placeOption } = await signedInWithARunningOption();
    const placed = await placeOption();
    time.advance(30_000);
    expect(latest().running.map((entry) => entry.order.uid)).toEqual([runningUid]);
    push(optionAt(placed.uid, placed.beginTime, 30, 1));
    expect(latest().settled.map((order) => [order.uid, order.result])).toEqual([[placed.uid, 'win']]);
  });

  it('stops the ticker when the last running option ends', async () => {
    const { time, screen, latest, placeOption } = await signedInWithARunningOption();
    await placeOption();
    time.advance(30_000);
    time.advance(20_000);
    expect(latest().running).toEqual([]);
    const quiet = screen.batches.length;
    time.advance(5_000);
    expect(screen.batches.length).toBe(quiet);
  });

  it('starts over with the new account\'s list on a switch to demo', async () => {
    const { time, host, loads, account, latest, push, placeOption } = await signedInWithARunningOption();
    const placed = await placeOption();
    time.advance(30_000);
    push(optionAt(placed.uid, placed.beginTime, 30, 1));
    expect(latest().settled).toHaveLength(1);

    account.running = [];
    const loadsBefore = loads.length;
    await host.api.signIn({ token: await signAccessToken(9, 1), refreshToken: 'r2' });
    await settle();
    expect(loads).toHaveLength(loadsBefore + 1);
    expect(latest()).toEqual({ loaded: true, running: [], settled: [] });
  });
});
