/**
 * The specification's way back through a trail of pages (the crypto pages'): the current
 * entry becomes the first path, each next one is pushed, the last is shown, so the
 * browser's back retraces the trail.
 */
export function goBackThrough(navigate: (path: string, options?: { replace?: boolean }) => void, trail: readonly string[]) {
  trail.forEach((path, index) => navigate(path, { replace: index === 0 }));
}
