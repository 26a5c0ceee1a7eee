/**
 * Segregation of duties (../shared/API.md "Money controls and staff enrolment"), one rule for
 * every two-person control: the two approvals of a four-eyes review item, and a dual-control
 * proposal and its approval. The two must be different members; neither may have created
 * the other or changed the other's roles within the period (STAFF_DUTIES_PERIOD_DAYS), and
 * no third member may have made both within it: an admin who makes a member cannot use them
 * as the second pair of eyes, nor make two members (invited to addresses the admin reads)
 * and use them as the two.
 */

/** One member acting on another's account: created it (`staff.create`), sent its invitation again (`staff.resendInvitation`) or changed its roles (`staff.setRoles`). */
export interface StaffRelation {
  /** Who acted; null for the command line. */
  actorId: number | null;
  targetId: number;
  atMs: number;
}

/** Why two members may not be the two people of one control; null when they may. */
export type DutiesConflict = 'same' | 'related' | null;

export function dutiesConflict(first: number, second: number, relations: readonly StaffRelation[], nowMs: number, periodMs: number): DutiesConflict {
  if (first === second) return 'same';
  const recent = relations.filter((relation) => nowMs - relation.atMs < periodMs);
  const direct = recent.some((relation) => (relation.actorId === first && relation.targetId === second) || (relation.actorId === second && relation.targetId === first));
  // A common maker: one member (not the command line) who acted on both.
  const makersOf = (member: number) => new Set(recent.filter((relation) => relation.targetId === member && relation.actorId !== null).map((relation) => relation.actorId));
  const makersOfSecond = makersOf(second);
  const common = [...makersOf(first)].some((maker) => makersOfSecond.has(maker));
  return direct || common ? 'related' : null;
}
