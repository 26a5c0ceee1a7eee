import { describe, expect, it } from 'vitest';
import type { PeerMessage } from '../../../../src/worker/hub/engine-host';
import { memoryStore } from '../../../../src/worker/engine/ports';
import { signAccessToken } from '../../support/access-token';
import { fakeBroadcastNetwork } from '../../support/fake-broadcast';
import { createFakeClock } from '../../support/fake-clock';
import { createTestHost, fakeTab } from '../../support/engine-harness';

describe('engine host', () => {
  it('answers the ready handshake with the session and the kind of engine', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const welcome = await host.api.hello('tab', fakeTab().listener);
    expect(welcome.session.signedIn).toBe(false);
    expect(welcome.kind).toBe('shared');
  });

  it('pushes sign-in and sign-out to every tab, numbering each tab\'s batches', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const first = fakeTab();
    const second = fakeTab();
    await host.api.hello('tab-1', first.listener);
    await host.api.hello('tab-2', second.listener);

    const token = await signAccessToken(42, 1);
    await host.api.signIn({ token, refreshToken: 'r1' });
    for (const each of [first, second]) {
      expect(each.sessions()).toHaveLength(1);
      expect(each.sessions()[0]).toMatchObject({ signedIn: true, uid: 42, book: 'demo', token });
    }
    expect(first.batches[0]?.seq).toBe(1);

    await host.api.signOut('logout');
    expect(second.sessions()[1]).toMatchObject({ signedIn: false, token: null, endReason: 'logout' });
    expect(second.batches[1]?.seq).toBe(2);
  });

  it('keeps the session across an engine restart (reload) through its store', async () => {
    const time = createFakeClock();
    const store = memoryStore();
    const before = createTestHost({ time, store });
    await before.api.signIn({ token: await signAccessToken(7), refreshToken: 'r' });
    before.dispose();
    const after = createTestHost({ time, store });
    const welcome = await after.api.hello('tab', fakeTab().listener);
    expect(welcome.session).toMatchObject({ signedIn: true, uid: 7, book: 'real' });
  });

  it('refuses a token that is not an access token and changes nothing', async () => {
    const host = createTestHost({ time: createFakeClock() });
    const only = fakeTab();
    await host.api.hello('tab', only.listener);
    await expect(host.api.signIn({ token: 'not-a-jwt', refreshToken: 'r' })).rejects.toThrow();
    expect(only.batches).toHaveLength(0);
    expect(host.session.snapshot.signedIn).toBe(false);
  });

  it('keeps dedicated-worker engines of several tabs in step (fallback)', async () => {
    const time = createFakeClock();
    const network = fakeBroadcastNetwork<PeerMessage>();
    const store = memoryStore();
    const engineA = createTestHost({ time, store, kind: 'dedicated', peers: network() });
    const engineB = createTestHost({ time, store, kind: 'dedicated', peers: network() });
    const tabA = fakeTab();
    const tabB = fakeTab();
    await engineA.api.hello('a', tabA.listener);
    await engineB.api.hello('b', tabB.listener);

    await engineA.api.signIn({ token: await signAccessToken(99), refreshToken: 'r' });
    expect(tabB.sessions().at(-1)).toMatchObject({ signedIn: true, uid: 99 });

    time.advance(5);
    await engineB.api.signOut('logout');
    expect(tabA.sessions().at(-1)).toMatchObject({ signedIn: false, endReason: 'logout' });
    // An older snapshot arriving late does not undo the newer one.
    expect(engineA.session.adopt({ ...tabA.sessions()[0]!, version: 1 })).toBe(false);
  });
});
