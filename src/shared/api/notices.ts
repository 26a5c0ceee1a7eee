import * as z from 'zod/mini';
import { contract, noBody } from './contract';

/**
 * A customer's notices (../shared/API.md `notice/*`; the exchange socket pushes
 * `{ type: "notice", data: { count } }` whenever one arrives). `actionType` 4 is a notice
 * with a custom title and content, as staff send them; other action types carry a
 * notification code (`alarmType`) whose text the app translates.
 */
export const noticeRow = z.object({
  id: z.int(),
  /** 0 unread, 1 read. */
  readStatus: z.union([z.literal(0), z.literal(1)]),
  actionType: z.int(),
  alarmType: z.nullable(z.int()),
  title: z.string(),
  content: z.string(),
  remark: z.nullable(z.string()),
  timeStamp: z.int(),
  paymentPrice: z.nullable(z.string()),
  /** A coded notice's other parameters (`currency`, a 629012's `event`: src/shared/notices/notice-codes.ts); null for others. */
  params: z.nullable(z.record(z.string(), z.string())),
});
export type NoticeRow = z.infer<typeof noticeRow>;

export const noticeUnreadCount = contract('/v1/waa/notice/unreadCount', noBody, z.object({ count: z.int().check(z.minimum(0)) }));
export const noticeList = contract(
  '/v1/waa/notice/list',
  z.strictObject({ page: z._default(z.int().check(z.minimum(1)), 1), limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 10) }),
  z.object({ list: z.array(noticeRow), pages: z.int().check(z.minimum(0)) }),
);
export const noticeRead = contract('/v1/waa/notice/read', z.strictObject({ ids: z.array(z.int().check(z.positive())).check(z.minLength(1), z.maxLength(100)) }), z.null());

/** The exchange socket's message when a notice arrives: the unread count after it. */
export const noticeFeedMessage = z.object({ type: z.literal('notice'), data: z.object({ count: z.int().check(z.minimum(0)) }) });
export type NoticeFeedMessage = z.infer<typeof noticeFeedMessage>;
