import { useTranslation } from 'react-i18next';
import { noticeText, type NoticeWording } from '../../../shared/notices/notice-codes';

/** A notice's title and content in the reader's language: by its code and parameters, or as stored (custom and unknown ones). */
export function useNoticeText(): (notice: NoticeWording) => { title: string; content: string } {
  const { t } = useTranslation();
  return (notice) => noticeText(notice, (key, params) => t(key, params));
}
