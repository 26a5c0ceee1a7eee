import {
  auditList,
  staffCreate,
  staffDeclarations,
  staffDeclareAccount,
  staffDeclareDocument,
  staffDisable,
  staffEnrol,
  staffEnrolConfirm,
  staffList,
  staffLogin,
  staffLoginCode,
  staffLogout,
  staffMe,
  staffPassword,
  staffRecordAccountLink,
  staffRefresh,
  staffResendInvitation,
  staffSetRoles,
} from '../../../src/shared/api/staff';
import { signInClientOf } from '../../auth/sign-in-guard';
import type { registerStaffScope } from './staff-scope';
import type { StaffService } from './staff-service';

/** The staff core's own calls: sign-in, the member's own account, staff management and the audit list. */
export function registerStaffCoreRoutes({ staffRoutes, signedOutRoute }: ReturnType<typeof registerStaffScope>, staff: StaffService, options: { behindTls: boolean }) {
  signedOutRoute(staffLogin, async (body, request, reply) => {
    const { answer, setCookie } = await staff.login(body, signInClientOf(request, options.behindTls));
    if (setCookie) void reply.header('set-cookie', setCookie);
    return answer;
  });
  signedOutRoute(staffLoginCode, async (body, request) => {
    await staff.sendSignInCode(body.email, request.ip);
    return null;
  });
  signedOutRoute(staffRefresh, (body, request) => staff.sessions.refresh(body.refreshToken, request.ip));
  signedOutRoute(staffEnrol, (body, request) => staff.enrolment.enrol(body, request.ip));
  signedOutRoute(staffEnrolConfirm, async (body, request) => {
    await staff.enrolment.confirm(body, request.ip);
    return null;
  });

  staffRoutes.route(staffLogout, async (_body, request) => {
    await staff.sessions.logout(request.staffSession.familyId, request.staff);
    return null;
  });
  staffRoutes.route(staffMe, async (_body, request) => {
    const { staffId, email, roles, mustChangePassword } = request.staffSession;
    return { staffId, email, roles, mustChangePassword };
  });
  staffRoutes.route(staffPassword, async (body, request) => {
    await staff.changePassword(request.staffSession, body, request.staff.address);
    return null;
  });

  staffRoutes.route(staffDeclarations, (_body, request) => staff.conflicts.declarations(request.staff.staffId));
  staffRoutes.route(staffDeclareDocument, async (body, request) => {
    await staff.conflicts.declareDocument(request.staff, request.staff.staffId, body.documentNumber);
    return null;
  });
  staffRoutes.route(staffDeclareAccount, async (body, request) => {
    await staff.conflicts.declareAccount(request.staff, body.uid);
    return null;
  });
  staffRoutes.route(staffRecordAccountLink, async (body, request) => {
    await staff.conflicts.recordAccountLink(request.staff, body);
    return null;
  });

  staffRoutes.route(staffList, (body) => staff.management.list(body.page, body.limit));
  staffRoutes.route(staffCreate, (body, request) => staff.management.invite(request.staff, body));
  staffRoutes.route(staffResendInvitation, (body, request) => staff.management.resendInvitation(request.staff, body));
  staffRoutes.route(staffSetRoles, async (body, request) => {
    await staff.management.setRoles(request.staff, body);
    return null;
  });
  staffRoutes.route(staffDisable, async (body, request) => {
    await staff.management.disable(request.staff, body);
    return null;
  });

  staffRoutes.route(auditList, (body) => staff.audit.list(body));
}
