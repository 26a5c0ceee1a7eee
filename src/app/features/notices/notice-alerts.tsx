import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { noticeList, noticeUnreadCount } from '../../../shared/api/notices';
import { useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import { noticesSignal, sessionSignal } from '../../engine/signals';

/**
 * Keeps the unread notice count: asked once after sign-in and again whenever the window
 * regains focus (pushes may have been missed while the tab slept); every notice the
 * exchange socket announces shows its title in a toast. Renders nothing; mounted once per tab.
 */
export function NoticeAlerts() {
  useSignals();
  const { http } = useApp();
  const session = sessionSignal.value;
  const user = session.signedIn ? session.uid : null;
  const { arrivals } = noticesSignal.value;
  const shownArrivals = useRef(arrivals);

  useEffect(() => {
    if (user === null) return;
    let current = true;
    const ask = () => {
      http
        .call(noticeUnreadCount, {}, { silent: true })
        .then(({ count }) => {
          if (current && sessionSignal.peek().uid === user) noticesSignal.value = { ...noticesSignal.peek(), unreadCount: count };
        })
        .catch(() => undefined);
    };
    ask();
    window.addEventListener('focus', ask);
    return () => {
      current = false;
      window.removeEventListener('focus', ask);
    };
  }, [http, user]);

  useEffect(() => {
    if (arrivals === shownArrivals.current) return;
    shownArrivals.current = arrivals;
    if (user === null) return;
    http
      .call(noticeList, { page: 1, limit: 1 }, { silent: true })
      .then(({ list }) => {
        const newest = list[0];
        if (newest && sessionSignal.peek().uid === user) showToast('info', newest.title);
      })
      .catch(() => undefined);
  }, [http, user, arrivals]);

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
