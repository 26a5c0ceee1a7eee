import { describe, expect, it } from 'vitest';
import { engineClientTimeoutMs } from '../../../../src/shared/protocol/engine';
import { signAccessToken } from '../../support/access-token';
import { createFakeClock } from '../../support/fake-clock';
import { createTestHost, fakeTab } from '../../support/engine-harness';

describe('the engine\'s tabs (client registry)', () => {
  it('evicts a tab that stops sending heartbeats and tells it to say hello again', async () => {
    const time = createFakeClock();
    const host = createTestHost({ time });
    const quiet = fakeTab();
    const lively = fakeTab();
    await host.api.hello('quiet', quiet.listener);
    await host.api.hello('lively', lively.listener);
    for (let elapsed = 0; elapsed <= engineClientTimeoutMs + 20_000; elapsed += 10_000) {
      time.advance(10_000);
      await host.api.heartbeat('lively');
    }
    expect(host.clients.ids()).toEqual(['lively']);
    expect(await host.api.heartbeat('quiet')).toBe(false);
    await host.api.signIn({ token: await signAccessToken(1), refreshToken: 'r' });
    expect(quiet.batches).toHaveLength(0);
    expect(lively.batches).toHaveLength(1);
  });

  it('drops a tab at once when it says goodbye', async () => {
    const host = createTestHost({ time: createFakeClock() });
    await host.api.hello('a', fakeTab().listener);
    await host.api.goodbye('a');
    expect((await host.api.diagnostics()).clientCount).toBe(0);
  });
});
