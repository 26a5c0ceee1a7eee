import os from 'node:os';
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Book, Database } from '../db/schema';
import type { ServerRole } from '../settings';
import type { ClusterLink } from './cluster-link';
import { leaseLeadership, noLeadership, soleLeadership, type Leadership } from './leadership';

/**
 * How this process takes part in a deployment of several (SERVER_ROLES): the link to the
 * others, and whether it leads the market feed and the jobs. One process (`all`, tests)
 * leads both and has no link.
 */
export interface ClusterContext {
  link: ClusterLink | null;
  market: Leadership;
  jobs: Leadership;
  /** An option placed on another process reached this one (its ticks and settlement are the jobs leader's). */
  optionScheduled(symbol: string, endMs: number): void;
  onOptionScheduled(listener: (symbol: string, endMs: number) => void): void;
  /** Another process changed an account's orders or money (trading re-arms its orders' triggers here). */
  accountChanged(uid: number, book: Book): void;
  onAccountChanged(listener: (uid: number, book: Book) => void): void;
  /** Starts competing for the roles, once every module listens. */
  start(): void;
  stop(): Promise<void>;
}

/** A context from its link and leaderships, with the in-process hooks every context has (tests build one with simulated peers). */
export function clusterContextOf(base: Omit<ClusterContext, 'optionScheduled' | 'onOptionScheduled' | 'accountChanged' | 'onAccountChanged'>): ClusterContext {
  const scheduled: ((symbol: string, endMs: number) => void)[] = [];
  const changed: ((uid: number, book: Book) => void)[] = [];
  return {
    ...base,
    optionScheduled: (symbol, endMs) => scheduled.forEach((listener) => listener(symbol, endMs)),
    onOptionScheduled: (listener) => void scheduled.push(listener),
    accountChanged: (uid, book) => changed.forEach((listener) => listener(uid, book)),
    onAccountChanged: (listener) => void changed.push(listener),
  };
}

/** One process, every role, nothing to agree with anyone. */
export function soleProcess(): ClusterContext {
  return clusterContextOf({ link: null, market: soleLeadership('market'), jobs: soleLeadership('jobs'), start: () => undefined, stop: async () => undefined });
}

/** One process among several on one database and broker: leases for the roles it has, the link for ticks and pushes. */
export function clusterMember(deps: {
  db: Kysely<Database>;
  roles: ReadonlySet<ServerRole>;
  link: ClusterLink;
  leaseMs: number;
  log: (details: object, message: string) => void;
}): ClusterContext {
  const holder = `${os.hostname()}:${process.pid}:${crypto.randomBytes(4).toString('hex')}`;
  // The market leader's ticks go out on the link: a process cut off from the broker leaves the market to one that is not.
  const leadership = (role: 'market' | 'jobs') =>
    deps.roles.has(role)
      ? leaseLeadership({ db: deps.db, role, holder, leaseMs: deps.leaseMs, log: deps.log, ...(role === 'market' ? { mayLead: () => deps.link.connected() } : {}) })
      : noLeadership(role);
  const market = leadership('market');
  const jobs = leadership('jobs');
  return clusterContextOf({
    link: deps.link,
    market,
    jobs,
    start() {
      market.start();
      jobs.start();
    },
    async stop() {
      await Promise.all([market.stop(), jobs.stop()]);
      await deps.link.stop();
    },
  });
}
