/**
 * Segregation of duties (../shared/API.md "Money controls and staff enrolment"), one rule for
 * every two-person control: the two approvals of a four-eyes review item, and a dual-control
 * proposal and its approval. The two must be different members, and neither may have
 * created the other or changed the other's roles within the period (STAFF_DUTIES_PERIOD_DAYS):
 * an admin who makes a member cannot use them as the second pair of eyes.
 */

/** One member acting on another's account: created it (`staff.create`) or changed its roles (`staff.setRoles`). */
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
  const related = relations.some(
    (relation) => ((relation.actorId === first && relation.targetId === second) || (relation.actorId === second && relation.targetId === first)) && nowMs - relation.atMs < periodMs,
  );
  return related ? 'related' : null;
}
