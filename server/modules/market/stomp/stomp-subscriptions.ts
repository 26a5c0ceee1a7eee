/**
 * One STOMP connection's subscriptions at the market endpoint: one per id, one per
 * destination (each subscription is a copy of every message, so the same destination
 * twice only multiplies load), and at most a set number of them.
 */

interface Subscription {
  readonly destination: string;
  readonly unsubscribe: () => void;
}

/** An ERROR frame's message header and body. */
export interface SubscriptionRefusal {
  message: string;
  detail: string;
}

export class SubscriptionTable {
  private readonly byId = new Map<string, Subscription>();
  private readonly destinations = new Set<string>();

  constructor(private readonly maxSubscriptions: number) {}

  /** Why a new subscription `id` to `destination` is refused; null when it may be added. */
  refusal(id: string, destination: string): SubscriptionRefusal | null {
    if (this.byId.has(id)) return { message: 'duplicate subscription', detail: `subscription id ${id} is in use` };
    if (this.destinations.has(destination)) return { message: 'duplicate destination', detail: `already subscribed to ${destination}` };
    if (this.byId.size >= this.maxSubscriptions) {
      return { message: 'too many subscriptions', detail: `at most ${this.maxSubscriptions} per connection` };
    }
    return null;
  }

  add(id: string, destination: string, unsubscribe: () => void): void {
    this.byId.set(id, { destination, unsubscribe });
    this.destinations.add(destination);
  }

  /** Ends subscription `id`; an unknown id is not an error (a client may repeat an UNSUBSCRIBE). */
  remove(id: string): void {
    const subscription = this.byId.get(id);
    if (!subscription) return;
    subscription.unsubscribe();
    this.byId.delete(id);
    this.destinations.delete(subscription.destination);
  }

  clear(): void {
    for (const subscription of this.byId.values()) subscription.unsubscribe();
    this.byId.clear();
    this.destinations.clear();
  }
}
