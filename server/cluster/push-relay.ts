import { z } from 'zod';
import { exchangeFeedMessage, optionFeedMessage } from '../../src/shared/api/trading';
import type { PositionsFeed } from '../modules/trading/positions-feed';
import type { ClusterLink } from './cluster-link';

const book = z.enum(['real', 'demo']);
const uid = z.number().int().positive();

/** What one process tells the others so that a user's sockets hear it wherever they are held. */
const clusterPush = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('changed'), uid, book }),
  z.object({ kind: z.literal('sendTo'), uid, book, message: optionFeedMessage }),
  z.object({ kind: z.literal('sendToUser'), uid, message: exchangeFeedMessage }),
  z.object({ kind: z.literal('endSessions'), ended: z.union([z.object({ fid: z.string() }), z.object({ uid })]) }),
  /** An option placed on another process: the jobs leader records its symbol's ticks and settles it at its end. */
  z.object({ kind: z.literal('optionScheduled'), symbol: z.string(), endMs: z.number().int() }),
]);
export type ClusterPush = z.infer<typeof clusterPush>;

/**
 * The positions feed of one process among several: each change, message and ended session
 * is delivered to this process's sockets at once and published on the cluster link, where
 * every other process delivers it to the sockets it holds. Without a link the feed is itself.
 */
export function relayedPositionsFeed(
  feed: PositionsFeed,
  link: ClusterLink | null,
  options: {
    onOptionScheduled?: (symbol: string, endMs: number) => void;
    /** Another process changed an account's orders or money. */
    onAccountChanged?: (uid: number, book: 'real' | 'demo') => void;
    log: (details: object, message: string) => void },
): PositionsFeed & { optionScheduled(symbol: string, endMs: number): void } {
  if (!link) return { ...feed, optionScheduled: () => undefined };
  const publish = (push: ClusterPush) => link.publish('push', push);
  link.subscribe('push', (data) => {
    const parsed = clusterPush.safeParse(data);
    if (!parsed.success) {
      options.log({ issues: parsed.error.issues.slice(0, 3) }, 'cluster push of an unknown shape dropped');
      return;
    }
    const push = parsed.data;
    switch (push.kind) {
      case 'changed':
        feed.changed(push.uid, push.book);
        return options.onAccountChanged?.(push.uid, push.book);
      case 'sendTo':
        return feed.sendTo(push.uid, push.book, push.message);
      case 'sendToUser':
        return feed.sendToUser(push.uid, push.message);
      case 'endSessions':
        return feed.endSessions(push.ended);
      case 'optionScheduled':
        return options.onOptionScheduled?.(push.symbol, push.endMs);
    }
  });
  return {
    ...feed,
    changed(uid, book) {
      feed.changed(uid, book);
      publish({ kind: 'changed', uid, book });
    },
    sendTo(uid, book, message) {
      feed.sendTo(uid, book, message);
      publish({ kind: 'sendTo', uid, book, message });
    },
    sendToUser(uid, message) {
      feed.sendToUser(uid, message);
      publish({ kind: 'sendToUser', uid, message });
    },
    endSessions(ended) {
      feed.endSessions(ended);
      publish({ kind: 'endSessions', ended });
    },
    optionScheduled(symbol, endMs) {
      publish({ kind: 'optionScheduled', symbol, endMs });
    },
  };
}
