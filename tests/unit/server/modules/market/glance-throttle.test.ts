import { describe, expect, it } from 'vitest';
import { createGlanceThrottle } from '../../../../../server/modules/market/glance-throttle';

describe('the glance topic: at most one price per symbol per second', () => {
  it('sends the first change at once and holds later ones to the end of the window, with one message for many ticks', () => {
    const throttle = createGlanceThrottle(1_000);
    throttle.changed('BTCUSDT');
    expect(throttle.due(0)).toEqual(['BTCUSDT']);
    // Ten flushes of ticks within the second: nothing goes out until the window has passed.
    for (let at = 100; at < 1_000; at += 100) {
      throttle.changed('BTCUSDT');
      expect(throttle.due(at)).toEqual([]);
    }
    expect(throttle.due(1_000)).toEqual(['BTCUSDT']);
    // Nothing changed since: nothing to send.
    expect(throttle.due(2_500)).toEqual([]);
  });

  it('keeps each symbol on its own window', () => {
    const throttle = createGlanceThrottle(1_000);
    throttle.changed('BTCUSDT');
    expect(throttle.due(0)).toEqual(['BTCUSDT']);
    throttle.changed('BTCUSDT');
    throttle.changed('EURUSD');
    expect(throttle.due(400)).toEqual(['EURUSD']);
    throttle.changed('EURUSD');
    expect(throttle.due(1_000)).toEqual(['BTCUSDT']);
    expect(throttle.due(1_400)).toEqual(['EURUSD']);
  });
});
