/** How long a message waits after its `attempts`-th failed try (pure): doubling from `baseMs`, never beyond `maxMs`. */
export function retryDelayMs(attempts: number, policy: { baseMs: number; maxMs: number }): number {
  const doublings = Math.min(Math.max(attempts - 1, 0), 40);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** doublings);
}
