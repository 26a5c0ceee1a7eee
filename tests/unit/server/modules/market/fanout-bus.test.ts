import { describe, expect, it } from 'vitest';
import { teeTopicBus, type BrokerSink } from '../../../../../server/modules/market/fanout-bus';
import { createTopicBus } from '../../../../../server/modules/market/topic-bus';

function recordingBroker(): BrokerSink & { sent: Array<[string, string]> } {
  const sent: Array<[string, string]> = [];
  return { sent, publish: (destination, body) => void sent.push([destination, body]) };
}

describe('teeTopicBus', () => {
  it('delivers every message to the local listeners and to the broker', () => {
    const local = createTopicBus();
    const broker = recordingBroker();
    const bus = teeTopicBus(local, broker);
    const received: string[] = [];
    bus.subscribe('/topic/prices', (body) => received.push(body));
    bus.publish('/topic/prices', '[1]');
    bus.publish('/topic/price/BTCUSDT', '{"p":1}');
    expect(received).toEqual(['[1]']);
    expect(broker.sent).toEqual([
      ['/topic/prices', '[1]'],
      ['/topic/price/BTCUSDT', '{"p":1}'],
    ]);
  });

  it('keeps subscriptions local: a subscription through the tee is one on the local bus', () => {
    const local = createTopicBus();
    const bus = teeTopicBus(local, recordingBroker());
    const unsubscribe = bus.subscribe('/topic/kline/BTCUSDT/1min', () => undefined);
    expect(local.subscriberCount('/topic/kline/BTCUSDT/1min')).toBe(1);
    unsubscribe();
    expect(local.subscriberCount('/topic/kline/BTCUSDT/1min')).toBe(0);
  });

  it('answers a subscriber for every destination in broker mode, so per-symbol topics are published', () => {
    const local = createTopicBus();
    const bus = teeTopicBus(local, recordingBroker());
    expect(bus.subscriberCount('/topic/price/BTCUSDT')).toBeGreaterThan(0);
    expect(bus.subscriberCount('/topic/kline/EURUSD/1d')).toBeGreaterThan(0);
    expect(bus.subscriberCount('/topic/prices')).toBe(1);
    // Local listeners still count, on top of the broker.
    local.subscribe('/topic/prices', () => undefined);
    expect(bus.subscriberCount('/topic/prices')).toBe(2);
  });

  it('lets the caller narrow which destinations the broker always wants', () => {
    const local = createTopicBus();
    const broker = recordingBroker();
    const bus = teeTopicBus(local, broker, { brokerAlwaysWantsTopic: (destination) => !destination.startsWith('/topic/kline/') });
    expect(bus.subscriberCount('/topic/price/BTCUSDT')).toBe(1);
    expect(bus.subscriberCount('/topic/kline/BTCUSDT/1min')).toBe(0);
    local.subscribe('/topic/kline/BTCUSDT/1min', () => undefined);
    expect(bus.subscriberCount('/topic/kline/BTCUSDT/1min')).toBe(1);
  });

  it('is the local bus itself without a broker: counts are only the local listeners', () => {
    const local = createTopicBus();
    const bus = teeTopicBus(local, null, { brokerAlwaysWantsTopic: () => true });
    expect(bus).toBe(local);
    expect(bus.subscriberCount('/topic/price/BTCUSDT')).toBe(0);
  });

  it('still sends to the broker when a local listener throws, and rethrows that error', () => {
    const local = createTopicBus();
    const broker = recordingBroker();
    const bus = teeTopicBus(local, broker);
    const fault = new Error('listener failed');
    bus.subscribe('/topic/prices', () => {
      throw fault;
    });
    expect(() => bus.publish('/topic/prices', '[2]')).toThrow(fault);
    expect(broker.sent).toEqual([['/topic/prices', '[2]']]);
  });
});
