import type { NoticeFeedMessage, NoticeRow } from '../../../src/shared/api/notices';
import { formatMoney, money } from '../../../src/shared/money/money';
import type { NoticeParams } from '../../../src/shared/notices/notice-codes';
import { afterCommit, type Executor } from '../../db/after-commit';
import type { NoticesRepository, NoticeRowOfTable, RecipientsQuery } from './notices-repository';

export { customNoticeActionType, codedNoticeActionType, NoticeCode } from '../../../src/shared/notices/notice-codes';

/** Who hears a user's notice count: the exchange socket's connections per user (the positions feed). */
export interface UserMessages {
  /** Users with at least one open exchange socket. */
  connectedUids(): number[];
  sendToUser(uid: number, message: NoticeFeedMessage): void;
}

export interface NoticeToSend {
  /** One customer, or every customer. */
  uid: number | 'everyone';
  actionType: number;
  alarmType?: number | null;
  title: string;
  content: string;
  remark?: string | null;
  /** An amount the notice is about (a deposit, a withdrawal), as an exact decimal. */
  paymentPrice?: string | null;
  /** A coded notice's other parameters: the amount's currency, a 629012's event (src/shared/notices/notice-codes.ts). */
  params?: NoticeParams | null;
}

const noticePageSize = 10;

/** The stored parameters as strings only (a driver may answer jsonb as text). */
function paramsOf(stored: unknown): Record<string, string> | null {
  const value: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
  if (typeof value !== 'object' || value === null) return null;
  const entries = Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  return entries.length === 0 ? null : Object.fromEntries(entries);
}

function noticeView(row: NoticeRowOfTable): NoticeRow {
  return {
    id: row.id,
    readStatus: row.read_status === 1 ? 1 : 0,
    actionType: row.action_type,
    alarmType: row.alarm_type,
    title: row.title,
    content: row.content,
    remark: row.remark,
    timeStamp: row.created_at.getTime(),
    paymentPrice: row.payment_price === null ? null : formatMoney(money(String(row.payment_price))),
    params: paramsOf(row.params),
  };
}

/**
 * A customer's notices: sent inside the sender's transaction (a money or account module's
 * effect, a staff action), and each affected user's open tabs told the new unread count
 * once that transaction has committed.
 */
export function createNoticesService(deps: {
  repository: NoticesRepository;
  /** Every customer's uid, as one query (identity's): a notice to everyone is one INSERT … SELECT. */
  everyone: (executor: Executor) => RecipientsQuery;
  messages: UserMessages;
  log?: (message: string, error?: unknown) => void;
}) {
  const { repository, messages } = deps;

  /** Tells each of these users' open sockets their unread count. */
  async function pushUnreadCounts(uids: readonly number[]) {
    const counts = await repository.unreadCounts(uids);
    for (const uid of uids) messages.sendToUser(uid, { type: 'notice', data: { count: counts.get(uid) ?? 0 } });
  }

  function pushAfterCommit(executor: Executor, recipients: () => number[]) {
    afterCommit(executor, () => {
      const uids = recipients();
      if (uids.length === 0) return;
      pushUnreadCounts(uids).catch((error: unknown) => deps.log?.('notices: pushing the unread count failed', error));
    });
  }

  return {
    /**
     * Inserts the notice for one user or for every customer in the caller's transaction
     * (opened with `inTransaction`), and answers how many users received it. Their open
     * tabs hear the unread count after the commit.
     */
    async send(executor: Executor, notice: NoticeToSend): Promise<number> {
      const content = {
        actionType: notice.actionType,
        alarmType: notice.alarmType ?? null,
        title: notice.title,
        content: notice.content,
        remark: notice.remark ?? null,
        paymentPrice: notice.paymentPrice ?? null,
        params: notice.params ? { ...notice.params } : null,
      };
      if (notice.uid === 'everyone') {
        const count = await repository.insertForRecipients(executor, deps.everyone(executor), content);
        // Every customer received it: those with a socket open are the ones to tell.
        pushAfterCommit(executor, () => messages.connectedUids());
        return count;
      }
      const uid = notice.uid;
      const count = await repository.insertForUser(executor, uid, content);
      pushAfterCommit(executor, () => [uid]);
      return count;
    },

    async unreadCount(uid: number): Promise<{ count: number }> {
      return { count: (await repository.unreadCounts([uid])).get(uid) ?? 0 };
    },

    async list(uid: number, page: number, limit = noticePageSize): Promise<{ list: NoticeRow[]; pages: number }> {
      const [rows, total] = await Promise.all([repository.pageOf(uid, page, limit), repository.countOf(uid)]);
      return { list: rows.map(noticeView), pages: Math.ceil(total / limit) };
    },

    /** Marks the caller's own notices read (others' ids change nothing); their tabs hear the new count. */
    async read(uid: number, ids: readonly number[]): Promise<void> {
      const changed = await repository.markRead(uid, ids);
      if (changed > 0) await pushUnreadCounts([uid]);
    },
  };
}

export type NoticesService = ReturnType<typeof createNoticesService>;
