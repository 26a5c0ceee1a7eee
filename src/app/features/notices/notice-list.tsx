import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { noticeList, noticeRead, type NoticeRow } from '../../../shared/api/notices';
import { useApp } from '../../app-context';
import { DetailList } from '../../components/detail-list';
import { Dialog } from '../../components/dialog';
import { VirtualList } from '../../components/virtual-list';
import { noticesSignal } from '../../engine/signals';
import { formatPriceTime } from '../../../shared/format/date-time';
import { useBrandFormat } from '../../format/use-brand-format';
import { usePagedList } from '../trading/history/use-paged-list';
import { refreshUnreadCount } from './notice-alerts';
import { useNoticeText } from './notice-text';
import '../../styles/notices.css';

/** The specification's page size of the notification list. */
export const noticePageSize = 10;
/** The specification: after more than 5 failures in a row, infinite scroll stops. */
const failureCap = 5;
/** A notice's row before it is measured: a title line and two lines of content (longer ones wrap, and are measured). */
const noticeRowEstimatePx = 86;

/** The opened notice: its translated text, its amount (codes 629005 and 629006 show paymentPrice) and reason. */
function NoticeDetail(props: { notice: NoticeRow }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const wording = useNoticeText();
  const { notice } = props;
  const { content } = wording(notice);
  const amount = notice.paymentPrice === null ? null : [notice.paymentPrice, notice.params?.currency ?? ''].filter(Boolean).join(' ');
  return (
    <div className="notice-detail" data-testid="notice-detail">
      <p className="notice-detail-content">{content}</p>
      <DetailList
        rows={[
          ...(amount !== null ? [{ label: t('notices.amount'), value: amount }] : []),
          ...(notice.remark ? [{ label: t('notices.reason'), value: notice.remark }] : []),
          { label: t('notices.time'), value: format.time(notice.timeStamp) },
        ]}
      />
    </div>
  );
}

/**
 * The customer's notifications: pages of 10 loaded as the list's end scrolls into view, each
 * worded by its code in the reader's language; opening one shows it in a sheet (phones) or a
 * dialog (desktop) and, if it was unread, marks it read, then the list reloads and the unread
 * count is asked again. A notice arriving live (the exchange socket) reloads the list too.
 */
export function NoticeList() {
  useSignals();
  const { t } = useTranslation();
  const { http, config } = useApp();
  const wording = useNoticeText();
  const [generation, setGeneration] = useState(0);
  const [opened, setOpened] = useState<NoticeRow | null>(null);
  const arrivals = noticesSignal.value.arrivals;

  const { state, list } = usePagedList<NoticeRow, { items: NoticeRow[]; pages: number }>({
    resetKey: `${generation}:${arrivals}`,
    fetchPage: async (page, signal) => {
      const answer = await http.call(noticeList, { page, limit: noticePageSize }, { silent: true, signal });
      return { items: answer.list, pages: answer.pages };
    },
    keyOf: (notice) => String(notice.id),
    failureCap,
    retryDelayMs: (failures) => Math.min(8_000, 500 * 2 ** failures),
  });

  function open(notice: NoticeRow) {
    setOpened(notice);
    if (notice.readStatus !== 0) return;
    http
      .call(noticeRead, { ids: [notice.id] }, { silent: true })
      .then(() => {
        setGeneration((value) => value + 1);
        refreshUnreadCount(http);
      })
      .catch(() => undefined);
  }

  return (
    <>
      <VirtualList
        label={t('page.notification')}
        items={state.items}
        itemKey={(notice) => String(notice.id)}
        sizing={{ estimatePx: noticeRowEstimatePx }}
        scrollerClassName="notice-scroller"
        listClassName="notice-list"
        testId="notice-list"
        onEndReached={list.loadMore}
        endCheckKey={state.status}
        renderRow={(row) => {
          const notice = row.item;
          const { title, content } = wording(notice);
          const unread = notice.readStatus === 0;
          return (
            <li key={row.key} {...row.props}>
              <button type="button" className={`notice-row${unread ? ' unread' : ''}`} onClick={() => open(notice)} data-testid="notice-row">
                <span className="notice-row-head">
                  {unread ? <span className="notice-dot" role="img" aria-label={t('notices.unread')} /> : null}
                  <strong className="notice-row-title">{title}</strong>
                  <time className="notice-row-time numeric">{formatPriceTime(notice.timeStamp, config.timeZone)}</time>
                </span>
                <span className="notice-row-content">{content}</span>
              </button>
            </li>
          );
        }}
        footer={
          <p className="notice-list-status">
            {state.status === 'loading' && state.items.length === 0 ? t('common.loading') : null}
            {state.status === 'retrying' ? t('common.loading') : null}
            {state.status === 'stopped' ? (
              <>
                {t('notices.load_failed')}{' '}
                <button type="button" className="link-button" onClick={() => list.retry()}>
                  {t('common.retry')}
                </button>
              </>
            ) : null}
            {state.status === 'end' ? (state.items.length === 0 ? t('notices.empty') : t('notices.end')) : null}
          </p>
        }
      />
      {opened ? (
        <Dialog title={wording(opened).title} onClose={() => setOpened(null)}>
          <NoticeDetail notice={opened} />
        </Dialog>
      ) : null}
    </>
  );
}
