import { describe, expect, it } from 'vitest';
import { signAccessToken } from '../../support/access-token';
import { createFakeClock, settle } from '../../support/fake-clock';
import { createTestHost, fakeTab } from '../../support/engine-harness';
import { fakeSessionApi } from '../../support/fake-ports';

const startMs = 1_700_000_000_000;
const minutes = (count: number) => count * 60_000;
const sessionSettings = (demoAllowed: boolean) => ({ apiRoot: '', demoAllowed, positionsSocketUrl: '' });

/** A host with one tab, signed in (as uid 7) with a token that expires `expiresInMs` from the start. */
async function signedInHost(expiresInMs: number, sessionApi: ReturnType<typeof fakeSessionApi>['api'], virtualStatus = 0) {
  const time = createFakeClock(startMs);
  const host = createTestHost({ time, sessionApi });
  const only = fakeTab();
  await host.api.hello('tab', only.listener);
  await host.api.signIn({ token: await signAccessToken(7, virtualStatus, Math.floor((startMs + expiresInMs) / 1000)), refreshToken: 'r1' });
  return { time, host, only };
}

describe('engine session clock', () => {
  it('refreshes once under five minutes left, and every tab gets the new tokens', async () => {
    const next = await signAccessToken(7, 0, Math.floor((startMs + minutes(20)) / 1000));
    const fake = fakeSessionApi({ refresh: [{ kind: 'ok', tokens: { token: next, refreshToken: 'r2' } }] });
    const { time, host, only } = await signedInHost(minutes(6) + 30_000, fake.api);
    await host.api.configureSession(sessionSettings(false));
    await settle();
    expect(fake.refreshes).toEqual([]);
    time.advance(minutes(1)); // 5.5 minutes left
    await settle();
    expect(fake.refreshes).toEqual([]);
    time.advance(minutes(1)); // 4.5 minutes left
    await settle();
    expect(fake.refreshes).toEqual(['r1']);
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: true, token: next, refreshToken: 'r2' });
    time.advance(minutes(1));
    await settle();
    expect(fake.refreshes).toEqual(['r1']);
  });

  it('refreshes as soon as the server may be back (a tab shows, the browser is online) after a refresh that could not reach it, not a minute later', async () => {
    const next = await signAccessToken(7, 0, Math.floor((startMs + minutes(20)) / 1000));
    const fake = fakeSessionApi({ refresh: [{ kind: 'unreachable' }, { kind: 'ok', tokens: { token: next, refreshToken: 'r2' } }] });
    const { time, host, only } = await signedInHost(minutes(4), fake.api);
    await host.api.configureSession(sessionSettings(false));
    await settle();
    expect(fake.refreshes).toEqual(['r1']);
    time.advance(10_000);
    await host.api.connectivityHint();
    await settle();
    expect(fake.refreshes).toEqual(['r1', 'r1']);
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: true, token: next, refreshToken: 'r2' });
  });

  it('asks again whether a stored session lives when the start check could not reach the server, and signs out once it says no', async () => {
    const fake = fakeSessionApi({ check: 'unreachable' });
    const { host, only } = await signedInHost(minutes(30), fake.api);
    await host.api.configureSession(sessionSettings(false));
    await settle();
    expect(fake.checks).toHaveLength(1);
    fake.answerChecksWith('invalid');
    await host.api.setVisible('tab', true);
    await settle();
    expect(fake.checks).toHaveLength(2);
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'invalid' });
    // Once answered, it is not asked again.
    await host.api.connectivityHint();
    await settle();
    expect(fake.checks).toHaveLength(2);
  });

  it('keeps the session when the server cannot be reached, and tries again the next minute', async () => {
    const fake = fakeSessionApi({ refresh: [{ kind: 'unreachable' }, { kind: 'unreachable' }] });
    const { time, host, only } = await signedInHost(minutes(4), fake.api);
    await host.api.configureSession(sessionSettings(false));
    await settle();
    time.advance(minutes(1));
    await settle();
    expect(fake.refreshes).toEqual(['r1', 'r1']);
    expect(only.sessions().at(-1)?.signedIn).toBe(true);
  });

  it('signs out when the refresh is refused (ended server-side)', async () => {
    const refused = fakeSessionApi({ refresh: [{ kind: 'ended' }] });
    const { host, only } = await signedInHost(minutes(3), refused.api);
    await host.api.configureSession(sessionSettings(false));
    await settle();
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'ended-by-server' });
  });

  it('signs out when the token has expired while the server cannot be reached', async () => {
    const unreachable = fakeSessionApi();
    const { time, host, only } = await signedInHost(minutes(7), unreachable.api);
    await host.api.configureSession(sessionSettings(false));
    for (let minute = 0; minute < 8; minute += 1) {
      time.advance(minutes(1));
      await host.api.heartbeat('tab'); // a tab that stays
      await settle();
    }
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'expired' });
  });

  it('signs out at start when the server says the token is invalid (-1)', async () => {
    const fake = fakeSessionApi({ check: 'invalid' });
    const { host, only } = await signedInHost(minutes(15), fake.api);
    await host.api.configureSession(sessionSettings(false));
    await settle();
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'invalid' });
  });

  it('signs a demo session out while demo trading is off', async () => {
    const fake = fakeSessionApi();
    const { host, only } = await signedInHost(minutes(15), fake.api, 1);
    await host.api.configureSession(sessionSettings(true));
    await settle();
    expect(only.sessions().at(-1)?.signedIn).toBe(true);
    await host.api.configureSession(sessionSettings(false));
    await settle();
    expect(only.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'invalid' });
  });
});
