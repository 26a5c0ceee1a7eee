import { Client, type IFrame, type StompSubscription } from '@stomp/stompjs';
import { isPriceTick, type PriceTick } from '../../shared/api/market';
import {
  connectionLost,
  connectionOpened,
  initialConnectionState,
  type ConnectionState,
} from '../engine/reconnect-policy';

/** Server heart-beats every 10 s both ways; a silent server is noticed by the staleness check too. */
const heartbeatMs = 10_000;
const pricesTopic = '/topic/prices';

/** A `/topic/prices` body as ticks; null when it is not JSON or not of the contract's shape. */
export function decodePriceBatch(body: string): PriceTick[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  return Array.isArray(parsed) && parsed.every(isPriceTick) ? parsed : null;
}

export interface MarketSocketOptions {
  url: string;
  onPrices: (ticks: PriceTick[]) => void;
  onState: (state: ConnectionState) => void;
  log?: (message: string) => void;
}

/**
 * The one market connection of this browser: STOMP over WebSocket, subscribed to the
 * all-prices topic, reconnecting by the engine's policy (500 ms × attempt, then give up
 * and let the tabs offer a reload).
 */
export function createMarketSocket(options: MarketSocketOptions) {
  let state: ConnectionState = initialConnectionState;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let subscription: StompSubscription | null = null;
  let stopped = false;

  const client = new Client({
    brokerURL: options.url,
    // Reconnection is ours (the policy above), not the library's.
    reconnectDelay: 0,
    heartbeatIncoming: heartbeatMs,
    heartbeatOutgoing: heartbeatMs,
    debug: () => undefined,
  });

  function setState(next: ConnectionState) {
    state = next;
    options.onState(next);
  }

  client.onConnect = () => {
    setState(connectionOpened());
    subscription = client.subscribe(pricesTopic, (message) => {
      const ticks = decodePriceBatch(message.body);
      if (ticks) options.onPrices(ticks);
      else options.log?.('market: a prices message did not match the contract');
    });
  };

  client.onStompError = (frame: IFrame) => {
    options.log?.(`market: STOMP error ${frame.headers.message ?? ''}`);
  };

  client.onWebSocketClose = () => {
    subscription = null;
    if (stopped) return;
    const lost = connectionLost(state);
    setState(lost.state);
    if (lost.retryInMs === null) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void client.deactivate().then(() => {
        if (!stopped) {
          setState({ ...state, status: 'connecting' });
          client.activate();
        }
      });
    }, lost.retryInMs);
  };

  return {
    start() {
      stopped = false;
      setState({ ...initialConnectionState });
      client.activate();
    },
    /** After giving up, a user's "retry" starts the count again. */
    restart() {
      if (retryTimer) clearTimeout(retryTimer);
      state = initialConnectionState;
      void client.deactivate().then(() => this.start());
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      subscription?.unsubscribe();
      await client.deactivate();
    },
    get state() {
      return state;
    },
  };
}

export type MarketSocket = ReturnType<typeof createMarketSocket>;
