import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';

/** The layout frame of a screen whose content a later issue builds. */
export function FramePage(props: { titleKey: string }) {
  const { t } = useTranslation();
  return <PageFrame title={t(props.titleKey)} />;
}
