/** A small seeded generator (mulberry32), so that a simulated market can be replayed exactly. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Standard normal (Box–Muller). */
    normal(): number {
      const u = Math.max(next(), Number.EPSILON);
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
    },
    /** Exponential waiting time with the given rate per unit. */
    exponential(rate: number): number {
      return -Math.log(Math.max(next(), Number.EPSILON)) / rate;
    },
  };
}

export type Random = ReturnType<typeof seededRandom>;
