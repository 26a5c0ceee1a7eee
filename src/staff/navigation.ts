import { staffAccessAllows, staffRouteAccess } from '../shared/staff/access';
import { reviewKindRole, reviewKinds, type ReviewKind, type StaffRole } from '../shared/staff/roles';

/** A section of the console: its address under /staff/, its label key, and the call it starts with (its access). */
export interface ConsoleSection {
  id: 'home' | 'customers' | 'queues' | 'notices' | 'audit' | 'config' | 'staff' | 'declarations';
  href: string;
  labelKey: string;
}

/**
 * Which call each section needs: a section shows only when the route table lets the member
 * make it. Queues need a review kind the member may decide (see `reviewKindsFor`).
 */
const sectionCalls = {
  home: '/v1/staff/me',
  customers: '/v1/staff/customers/search',
  notices: '/v1/staff/notices/send',
  audit: '/v1/staff/audit/list',
  config: '/v1/staff/config/switches',
  staff: '/v1/staff/staff/list',
  declarations: '/v1/staff/me/declarations',
} as const satisfies Partial<Record<ConsoleSection['id'], keyof typeof staffRouteAccess>>;

const sections: readonly ConsoleSection[] = [
  { id: 'home', href: '/', labelKey: 'staff.nav.home' },
  { id: 'customers', href: '/customers', labelKey: 'staff.nav.customers' },
  { id: 'queues', href: '/queues', labelKey: 'staff.nav.queues' },
  { id: 'notices', href: '/notices', labelKey: 'staff.nav.notices' },
  { id: 'audit', href: '/audit', labelKey: 'staff.nav.audit' },
  { id: 'config', href: '/config', labelKey: 'staff.nav.config' },
  { id: 'staff', href: '/staff-members', labelKey: 'staff.nav.staff' },
  { id: 'declarations', href: '/declarations', labelKey: 'staff.nav.declarations' },
];

/** The review kinds a member may list and decide, in the contract's order. */
export function reviewKindsFor(roles: readonly StaffRole[]): ReviewKind[] {
  return reviewKinds.filter((kind) => staffAccessAllows(roles, staffRouteAccess['/v1/staff/reviews/list'], reviewKindRole[kind]));
}

/** Whether the member may make a call of the route table (for buttons inside a page). */
export function mayCall(roles: readonly StaffRole[], path: keyof typeof staffRouteAccess): boolean {
  return staffAccessAllows(roles, staffRouteAccess[path]);
}

/** The side navigation for a member's roles: only what they may use. */
export function sectionsFor(roles: readonly StaffRole[]): ConsoleSection[] {
  return sections.filter((section) => {
    if (section.id === 'queues') return reviewKindsFor(roles).length > 0;
    return mayCall(roles, sectionCalls[section.id]);
  });
}
