/**
 * Detects more than `taps` taps within `windowMs` (the hidden debug console opens after
 * more than 5 rapid taps within 3 s). Pure: the caller passes each tap's time.
 */
export function createTapSequenceDetector(options: { taps: number; windowMs: number }) {
  let times: number[] = [];
  return {
    /** Records a tap; true when this tap completes a sequence (which then starts over). */
    tap(nowMs: number): boolean {
      times = times.filter((time) => nowMs - time <= options.windowMs);
      times.push(nowMs);
      if (times.length > options.taps) {
        times = [];
        return true;
      }
      return false;
    },
  };
}

export const debugConsoleTaps = { taps: 5, windowMs: 3000 } as const;
