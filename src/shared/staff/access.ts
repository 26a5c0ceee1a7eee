import type { StaffRole } from './roles';

/** Who may call a staff route: the listed roles (admin always may), any staff member, or the role of the body's review kind. */
export type StaffAccess = readonly StaffRole[] | 'any' | 'byReviewKind';

/**
 * The staff route table: one declaration of who may call each `/v1/staff/` path
 * (../shared/API.md "Staff back office"). The server checks every call against it (a staff
 * route missing here fails at start), the console shows only what the signed-in member may
 * use, and the role-matrix test walks it. `login` and `refresh` take no staff token.
 */
export const staffRouteAccess = {
  '/v1/staff/logout': 'any',
  '/v1/staff/me': 'any',
  '/v1/staff/password': 'any',
  '/v1/staff/me/declarations': 'any',
  '/v1/staff/me/declareDocument': 'any',
  '/v1/staff/me/declareAccount': 'any',
  '/v1/staff/staff/list': ['admin'],
  '/v1/staff/staff/create': ['admin'],
  '/v1/staff/staff/resendInvitation': ['admin'],
  '/v1/staff/staff/setRoles': ['admin'],
  '/v1/staff/staff/disable': ['admin'],
  '/v1/staff/staff/recordAccountLink': ['compliance'],
  '/v1/staff/customers/search': 'any',
  '/v1/staff/customers/get': 'any',
  '/v1/staff/customers/ledger': ['finance'],
  '/v1/staff/customers/setTradingProhibited': ['compliance'],
  '/v1/staff/customers/endSessions': ['support'],
  '/v1/staff/customers/setDepositBlocked': ['finance'],
  '/v1/staff/customers/setOwnDepositAddress': ['finance'],
  '/v1/staff/reviews/list': 'byReviewKind',
  '/v1/staff/reviews/get': 'byReviewKind',
  '/v1/staff/reviews/decide': 'byReviewKind',
  '/v1/staff/audit/list': ['compliance'],
  '/v1/staff/config/switches': ['admin'],
  '/v1/staff/config/setSwitch': ['admin'],
  '/v1/staff/config/products': ['admin'],
  '/v1/staff/config/setProduct': ['admin'],
  '/v1/staff/config/optionProducts': ['admin'],
  '/v1/staff/config/setOptionProduct': ['admin'],
  '/v1/staff/config/banners': ['admin'],
  '/v1/staff/config/setBanners': ['admin'],
  '/v1/staff/config/serviceLink': ['admin'],
  '/v1/staff/config/setServiceLink': ['admin'],
  '/v1/staff/config/currencies': ['admin'],
  '/v1/staff/config/setCurrency': ['admin'],
  '/v1/staff/config/setCoinNetwork': ['admin'],
  '/v1/staff/config/proposals/list': ['admin'],
  '/v1/staff/config/proposals/decide': ['admin'],
  '/v1/staff/config/limits': ['admin'],
  '/v1/staff/config/setLimits': ['admin'],
  '/v1/staff/notices/send': ['support'],
  // GET: any member may ask; the route answers a file only to one whose roles review an item it belongs to.
  '/v1/staff/file/:id': 'any',
} as const satisfies Record<string, StaffAccess>;

export type StaffPath = keyof typeof staffRouteAccess;

/** Calls a signed-out staff member makes: no staff token is asked (enrolment's token is the invitation's). */
export const staffSignedOutPaths = ['/v1/staff/login', '/v1/staff/login/code', '/v1/staff/refresh', '/v1/staff/enrol', '/v1/staff/enrol/confirm'] as const;

/** Whether a staff member holding `held` may call a path whose access is `access` (for 'byReviewKind', the kind's role). */
export function staffAccessAllows(held: readonly StaffRole[], access: StaffAccess, kindRole?: StaffRole): boolean {
  if (held.includes('admin')) return true;
  if (access === 'any') return held.length > 0;
  if (access === 'byReviewKind') return kindRole !== undefined && held.includes(kindRole);
  return access.some((role) => held.includes(role));
}
