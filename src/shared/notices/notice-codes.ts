/**
 * Notification codes (`alarmType`) and the parameters a coded notice carries, so that the
 * app words each notice in the reader's language (`noticeText`) while the server stores only
 * the code and its parameters (with an English title and content kept as the fallback).
 *
 * Parameters, by name (senders use exactly these):
 * - `paymentPrice` (the notice row's field): the amount the notice is about, an exact decimal;
 * - `remark` (the notice row's field): the reviewer's reason of a rejection;
 * - `params.currency`: the amount's currency code (`USDT`, `USD`, …);
 * - `params.event` (629012 only): what happened, one of `noticeEvents`.
 */
export const NoticeCode = {
  withdrawalRejected: 629005,
  depositRejected: 629006,
  verificationRejected: 629007,
  newMessage: 629012,
  loanRejected: 629021,
} as const;
export type NoticeCode = (typeof NoticeCode)[keyof typeof NoticeCode];

/** `actionType` of a notice with a custom title and content (what staff send): shown as stored. */
export const customNoticeActionType = 4;
/** `actionType` of a notice a module sends with a notification code. */
export const codedNoticeActionType = 1;

/** The events a "new message" (629012) names in `params.event`. */
export const noticeEvents = [
  'depositApproved',
  'withdrawalApproved',
  'verificationApproved',
  'juniorVerificationApproved',
  'juniorVerificationRejected',
  'loanApproved',
  'repaymentApproved',
  'repaymentRejected',
] as const;
export type NoticeEvent = (typeof noticeEvents)[number];

/** What a coded notice may carry besides `paymentPrice` and `remark`. */
export interface NoticeParams {
  currency?: string;
  event?: NoticeEvent;
}

/** Which templates need an amount (their text names it); without one the stored text is shown. */
const amountTemplates = new Set<string>([
  `code.${NoticeCode.withdrawalRejected}`,
  `code.${NoticeCode.depositRejected}`,
  'event.depositApproved',
  'event.withdrawalApproved',
  'event.loanApproved',
  'event.repaymentApproved',
  'event.repaymentRejected',
]);

/** The parts of a notice its wording depends on (a `notice/list` row). */
export interface NoticeWording {
  actionType: number;
  alarmType: number | null;
  title: string;
  content: string;
  remark: string | null;
  paymentPrice: string | null;
  params?: Record<string, string> | null | undefined;
}

const knownCodes = new Set<number>(Object.values(NoticeCode));

function isNoticeEvent(value: unknown): value is NoticeEvent {
  return typeof value === 'string' && (noticeEvents as readonly string[]).includes(value);
}

/**
 * The i18n keys and parameters of a notice's title and content, or null when it is shown as
 * stored: a custom notice (actionType 4), an unknown code, a 629012 without a known event,
 * or a template whose amount is missing.
 */
export function noticeTemplate(notice: NoticeWording): { titleKey: string; contentKey: string; params: Record<string, string> } | null {
  if (notice.actionType === customNoticeActionType || notice.alarmType === null || !knownCodes.has(notice.alarmType)) return null;
  let template: string;
  if (notice.alarmType === NoticeCode.newMessage) {
    const event = notice.params?.event;
    if (!isNoticeEvent(event)) return null;
    template = `event.${event}`;
  } else {
    template = `code.${notice.alarmType}`;
  }
  if (amountTemplates.has(template) && (notice.paymentPrice === null || notice.paymentPrice === '')) return null;
  const base = template.replace('.', '_');
  return {
    titleKey: `notices.${base}_title`,
    contentKey: `notices.${base}_content`,
    // The amount with its currency when one is named ("100.5 USDT").
    params: { amount: [notice.paymentPrice ?? '', notice.params?.currency ?? ''].filter(Boolean).join(' '), reason: notice.remark ?? '' },
  };
}

/** A notice's title and content in the reader's language (`translate` is i18next's `t`), or as stored. */
export function noticeText(notice: NoticeWording, translate: (key: string, params: Record<string, string>) => string): { title: string; content: string } {
  const template = noticeTemplate(notice);
  if (!template) return { title: notice.title, content: notice.content };
  return { title: translate(template.titleKey, template.params), content: translate(template.contentKey, template.params) };
}
