import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { NoticeList } from '../../features/notices/notice-list';

/** `/user/notification`: the customer's notifications, newest first, each opened in a sheet (phones) or a dialog (desktop). */
export function NotificationPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.notification')} fill>
      <NoticeList />
    </PageFrame>
  );
}
