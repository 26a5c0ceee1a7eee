// Finance staff for the browser tests' review approvals (withdraw.spec.ts), made as an operator
// would (`npm run staff -- create`) in the e2e database before the server starts: two members
// per layout project, so that each run of the spec has two fresh approvers (four-eyes), and one
// that approves the deposits funding the browser tests' real accounts (tests/e2e/support.ts).
import { runStaffCommand } from '../server/tools/staff';

// Each member's own identity document, declared at creation: a member decides no review item before.
const document = (email: string) => ['--document', `E2E-${email}`];

const created: Record<string, { email: string; oneTimePassword: string; otpauthUrl: string }> = {};
// 'funding-b': the second approver of a funding deposit of FOUR_EYES_USD or more.
for (const name of ['mobile-a', 'mobile-b', 'desktop-a', 'desktop-b', 'funding', 'funding-b']) {
  created[name] = await runStaffCommand(['create', '--email', `finance-${name}@e2e.example`, '--role', 'finance', ...document(`finance-${name}@e2e.example`)]);
}
// The loan spec's own two approvers per layout, and an admin that turns the `user/loan` switch on for it (loan.spec.ts).
for (const name of ['loan-mobile-a', 'loan-mobile-b', 'loan-desktop-a', 'loan-desktop-b']) {
  created[name] = await runStaffCommand(['create', '--email', `finance-${name}@e2e.example`, '--role', 'finance', ...document(`finance-${name}@e2e.example`)]);
}
created['loan-admin'] = await runStaffCommand(['create', '--email', 'admin-loan@e2e.example', '--role', 'admin', ...document('admin-loan@e2e.example')]);
// A support member who sends notices to customers (tests/e2e/account-notices.spec.ts).
created.notices = await runStaffCommand(['create', '--email', 'support-notices@e2e.example', '--role', 'support', ...document('support-notices@e2e.example')]);
// Compliance members for the identity verification reviews (verification.spec.ts), one per layout project.
for (const project of ['mobile', 'desktop']) {
  created[`compliance-${project}`] = await runStaffCommand(['create', '--email', `compliance-${project}@e2e.example`, '--role', 'compliance', ...document(`compliance-${project}@e2e.example`)]);
}
// A compliance member who approves the junior verifications a real-money withdrawal needs (tests/e2e/support.ts verifyJunior).
created['compliance-funding'] = await runStaffCommand(['create', '--email', 'compliance-funding@e2e.example', '--role', 'compliance', ...document('compliance-funding@e2e.example')]);
// Two admins for staff enrolment and dual control (staff-enrolment.spec.ts): one invites and proposes, the other approves.
created['enrol-admin'] = await runStaffCommand(['create', '--email', 'admin-enrol@e2e.example', '--role', 'admin', ...document('admin-enrol@e2e.example')]);
created['proposals-admin'] = await runStaffCommand(['create', '--email', 'admin-proposals@e2e.example', '--role', 'admin', ...document('admin-proposals@e2e.example')]);
// An admin who walks every console screen for the accessibility check (accessibility.spec.ts).
created['a11y-admin'] = await runStaffCommand(['create', '--email', 'admin-a11y@e2e.example', '--role', 'admin', ...document('admin-a11y@e2e.example')]);
process.stdout.write(`${JSON.stringify(created)}\n`);
