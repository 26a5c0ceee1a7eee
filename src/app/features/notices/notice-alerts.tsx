import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { HttpClient } from '../../api/http-client';
import { useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import { noticesSignal, sessionSignal } from '../../engine/signals';
import { loadEveryScreenStrings } from '../../i18n/i18n';

/** The notice calls' contracts, fetched with a signed-in tab's first call: the first load holds no schema. */
const noticeCalls = () => import('../../../shared/api/notices');

/** Asks the unread count again (after a notice was read); kept only while the same user is signed in. */
export function refreshUnreadCount(http: HttpClient): void {
  const user = sessionSignal.peek().uid;
  noticeCalls()
    .then(({ noticeUnreadCount }) => http.call(noticeUnreadCount, {}, { silent: true }))
    .then(({ count }) => {
      if (sessionSignal.peek().uid === user) noticesSignal.value = { ...noticesSignal.peek(), unreadCount: count };
    })
    .catch(() => undefined);
}

/**
 * Keeps the unread notice count: asked once after sign-in and again whenever the window
 * regains focus or the tab is shown again (pushes may have been missed while the tab
 * slept); every notice the exchange socket announces shows its title, worded by its code in
 * the reader's language, in a toast. Renders nothing; mounted once per tab.
 */
export function NoticeAlerts() {
  useSignals();
  const { http } = useApp();
  const { t } = useTranslation();
  const session = sessionSignal.value;
  const user = session.signedIn ? session.uid : null;
  const { arrivals } = noticesSignal.value;
  const shownArrivals = useRef(arrivals);

  useEffect(() => {
    if (user === null) return;
    let current = true;
    const ask = () => {
      noticeCalls()
        .then(({ noticeUnreadCount }) => http.call(noticeUnreadCount, {}, { silent: true }))
        .then(({ count }) => {
          if (current && sessionSignal.peek().uid === user) noticesSignal.value = { ...noticesSignal.peek(), unreadCount: count };
        })
        .catch(() => undefined);
    };
    ask();
    window.addEventListener('focus', ask);
    // A tab shown again (switched back to on a phone) may have missed pushes too.
    const onVisible = () => {
      if (document.visibilityState === 'visible') ask();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      current = false;
      window.removeEventListener('focus', ask);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [http, user]);

  useEffect(() => {
    if (arrivals === shownArrivals.current) return;
    shownArrivals.current = arrivals;
    if (user === null) return;
    // How a notice is worded (its rules and its strings, which the first screen does not carry) comes with the first one that arrives.
    Promise.all([noticeCalls().then(({ noticeList }) => http.call(noticeList, { page: 1, limit: 1 }, { silent: true })), import('../../../shared/notices/notice-codes'), loadEveryScreenStrings()])
      .then(([{ list }, { noticeText }]) => {
        const newest = list[0];
        if (newest && sessionSignal.peek().uid === user) showToast('info', noticeText(newest, (key, params) => t(key, params)).title);
      })
      .catch(() => undefined);
  }, [http, user, arrivals, t]);

  return null;
}

/** The unread count on the user entry (phone tab bar, desktop top bar); nothing when there is none. */
export function NoticeBadge() {
  useSignals();
  const { t } = useTranslation();
  const count = noticesSignal.value.unreadCount;
  if (!sessionSignal.value.signedIn || !count) return null;
  return (
    <span className="notice-badge numeric" role="status" aria-label={t('notice.unread_badge', { count })}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
