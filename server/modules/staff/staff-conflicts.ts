import type { Transaction } from 'kysely';
import { maskIdNumber } from '../../../src/shared/api/verification';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { documentDigestInput, staffCustomerLink, type CustomerSide } from '../../../src/shared/staff/conflict-of-interest';
import type { Database } from '../../db/schema';
import { databaseRefusal } from '../../db/database-errors';
import { AppError } from '../../http/app-error';
import type { StaffActor } from './audit';
import type { StaffContext, StaffDependencies } from './staff-context';
import { timeMs } from './staff-repository';

/**
 * Conflict of interest as the server applies it (the rule: src/shared/staff/conflict-of-interest.ts):
 * members declare their own identity document and customer accounts, compliance records
 * what a member left out, and a review decision asks `requireUnconflicted` under its item's lock:
 * the account may be neither the decider's nor that of a member related to them (who made the
 * decider, or whom the decider made, within STAFF_DUTIES_PERIOD_DAYS).
 */
export function createStaffConflicts(deps: StaffDependencies, context: StaffContext) {
  const { repository, audit, cipher } = deps;

  async function recordLink(actor: StaffActor, staffId: number, uid: number) {
    try {
      await repository.db.transaction().execute(async (trx) => {
        const member = await repository.findById(staffId, trx);
        if (!member) throw new AppError(ErrorCode.ADMIN_NOT_FOUND, 'no such staff member');
        if (!(await repository.insertCustomerLink(trx, { staffId, uid, recordedBy: actor.staffId }))) return;
        await audit.record(trx, actor, {
          action: staffId === actor.staffId ? 'staff.declareAccount' : 'staff.recordAccountLink',
          targetType: 'staff',
          targetId: String(staffId),
          uid,
          before: null,
          after: { staffId, uid },
        });
      });
    } catch (error) {
      // The customer account's row is the check: no account of that UID.
      if (databaseRefusal(error) === 'foreignKey') throw new AppError(ErrorCode.DATA_NOT_FOUND, 'no customer account of this UID');
      throw error;
    }
  }

  return {
    /** The member's own declarations, as the console's declarations page shows them. */
    async declarations(staffId: number) {
      const member = await repository.findById(staffId);
      if (!member) throw new AppError(ErrorCode.ADMIN_NOT_FOUND, 'no such staff member');
      const links = (await repository.customerLinks([staffId])).get(staffId) ?? [];
      const recorders = new Map<number, string>();
      for (const id of new Set(links.map((link) => link.recordedBy))) recorders.set(id, (await repository.findById(id))?.email ?? String(id));
      return {
        document: member.document_masked && member.document_declared_at ? { masked: member.document_masked, declaredTime: timeMs(member.document_declared_at) } : null,
        accounts: links.map((link) => ({ uid: link.uid, recordedBy: recorders.get(link.recordedBy) ?? String(link.recordedBy), time: link.atMs })),
      };
    },

    /**
     * Declares a member's own document, once; one document, one member (2020 either way). `by`
     * is the member themselves, or the command line creating a member (`npm run staff -- create --document`).
     */
    async declareDocument(by: StaffActor | { staffId: null; address: 'cli' }, staffId: number, documentNumber: string) {
      const digest = cipher.digest(documentDigestInput(documentNumber));
      const masked = maskIdNumber(documentNumber);
      try {
        await repository.db.transaction().execute(async (trx) => {
          if (!(await repository.declareDocument(trx, staffId, { digest, masked }, new Date(context.nowMs())))) throw new AppError(ErrorCode.STAFF_DOCUMENT_DECLARED, 'a document was declared already');
          // The mask only: neither the number nor its digest is written to the trail.
          await audit.append(trx, by, { action: 'staff.declareDocument', targetType: 'staff', targetId: String(staffId), before: null, after: { document: masked } });
        });
      } catch (error) {
        // The unique index: another member declared this document.
        if (databaseRefusal(error) === 'unique') throw new AppError(ErrorCode.STAFF_DOCUMENT_DECLARED, 'another member declared this document');
        throw error;
      }
    },

    /** A customer account declared by the member as their own. */
    declareAccount: (actor: StaffActor, uid: number) => recordLink(actor, actor.staffId, uid),

    /** A customer account recorded as another member's own (compliance, admin). */
    recordAccountLink: (actor: StaffActor, request: { staffId: number; uid: number }) => recordLink(actor, request.staffId, request.uid),

    /**
     * Refuses a decision by `staffId` on an item of `customer`: 2019 while the member has not
     * declared their document, 2018 when the account is theirs. Read in the decision's transaction.
     */
    async requireUnconflicted(trx: Transaction<Database>, staffId: number, customer: CustomerSide): Promise<void> {
      const member = await repository.findById(staffId, trx);
      if (!member) throw new AppError(ErrorCode.ADMIN_NOT_FOUND, 'no such staff member');
      if (member.document_digest === null) throw new AppError(ErrorCode.STAFF_DOCUMENT_UNDECLARED, 'declare your own identity document before deciding review items');
      const linkOf = async (staff: { id: number; email: string; document_digest: string | null }) =>
        staffCustomerLink({ email: staff.email, documentDigest: staff.document_digest, declaredUids: ((await repository.customerLinks([staff.id], trx)).get(staff.id) ?? []).map((link) => link.uid) }, customer);
      const own = await linkOf(member);
      if (own !== null) throw new AppError(ErrorCode.STAFF_CUSTOMER_LINKED, `the customer account is linked to this member (${own})`);
      // A member one made (or who made one) within the period is not independent of them: an admin's
      // invited puppet must not approve the admin's own withdrawal (segregation of duties' period).
      const since = new Date(context.nowMs() - deps.settings.staffDutiesPeriodMs);
      for (const relatedId of await repository.membersRelatedTo(trx, staffId, since)) {
        const related = await repository.findById(relatedId, trx);
        if (related && (await linkOf(related)) !== null) throw new AppError(ErrorCode.STAFF_CUSTOMER_LINKED_RELATED, 'the customer account is linked to a member related to this one');
      }
    },
  };
}

export type StaffConflicts = ReturnType<typeof createStaffConflicts>;
