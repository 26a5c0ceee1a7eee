import { createStaffConflicts } from './staff-conflicts';
import { createStaffContext, type StaffDependencies } from './staff-context';
import { createStaffDuties } from './staff-duties';
import { createStaffEnrolment } from './staff-enrolment';
import { createStaffManagement } from './staff-management';
import { createStaffPassword } from './staff-password';
import { createStaffSessions } from './staff-sessions';
import { createStaffSignIn } from './staff-sign-in';

/** The staff core's use cases, composed from one file each. */
export function createStaffService(deps: StaffDependencies) {
  const context = createStaffContext(deps);
  const sessions = createStaffSessions(deps, context);
  const enrolment = createStaffEnrolment(deps, context);
  const duties = createStaffDuties(deps, context);
  return {
    sessions,
    ...createStaffSignIn(deps, context, sessions),
    ...createStaffPassword(deps, context, sessions),
    enrolment,
    /** Segregation of duties: the review queues and dual control ask it, and learn of disabled members through it. */
    duties,
    /** Conflict of interest: the members' own documents and customer accounts; the review queues ask it. */
    conflicts: createStaffConflicts(deps, context),
    management: createStaffManagement(deps, context, sessions, enrolment, duties),
    audit: deps.audit,
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
