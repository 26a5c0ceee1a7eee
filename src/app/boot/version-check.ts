/**
 * The running bundle compares its build id with `/version.json` of the server. A
 * different id means a newer deployment: reload at `/` once to pick it up. The marker
 * in session storage stops a reload loop when the server keeps answering another id.
 */
export function versionCheckDecision(
  runningBuildId: string,
  serverBuildId: string | null,
  alreadyReloadedFor: string | null,
): 'continue' | 'reload' {
  if (!serverBuildId || serverBuildId === runningBuildId) return 'continue';
  return alreadyReloadedFor === serverBuildId ? 'continue' : 'reload';
}
