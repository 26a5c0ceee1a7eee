import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { registerStompEndpoint, type StompEndpoint, type StompEndpointOptions } from '../../server/modules/market/stomp/stomp-endpoint';
import { createTopicBus, type TopicBus } from '../../server/modules/market/topic-bus';

export interface StompTestServer {
  app: FastifyInstance;
  bus: TopicBus;
  endpoint: StompEndpoint;
  url: string;
}

/** A bare Fastify with only the market STOMP endpoint, on a free loopback port. */
export async function startStompTestServer(
  options: Pick<StompEndpointOptions, 'allowedDestination'> & Partial<StompEndpointOptions>,
): Promise<StompTestServer> {
  const app = Fastify({ logger: false });
  const bus = createTopicBus();
  const endpoint = await registerStompEndpoint(app, { path: '/market/stomp', bus, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { app, bus, endpoint, url: `ws://127.0.0.1:${port}/market/stomp` };
}
