import { createStaffContext, type StaffDependencies } from './staff-context';
import { createStaffManagement } from './staff-management';
import { createStaffPassword } from './staff-password';
import { createStaffSessions } from './staff-sessions';
import { createStaffSignIn } from './staff-sign-in';

/** The staff core's use cases, composed from one file each. */
export function createStaffService(deps: StaffDependencies) {
  const context = createStaffContext(deps);
  const sessions = createStaffSessions(deps, context);
  return {
    sessions,
    ...createStaffSignIn(deps, context, sessions),
    ...createStaffPassword(deps, context, sessions),
    management: createStaffManagement(deps, context, sessions),
    audit: deps.audit,
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
