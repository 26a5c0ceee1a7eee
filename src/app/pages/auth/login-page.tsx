import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { LanguagePicker } from '../../components/language-picker';
import { PageFrame } from '../../components/page-frame';

/** Sign-in frame: back to home, service shortcut, language picker, forgot and register links. */
export function LoginPage() {
  const { t } = useTranslation();
  return (
    <PageFrame
      back="/"
      title={t('page.login')}
      actions={
        <>
          <Link href="/user/service" className="icon-button" aria-label={t('common.customer_service')}>
            ☏
          </Link>
          <LanguagePicker compact />
        </>
      }
    >
      <nav className="auth-links">
        <Link href="/forgot">{t('page.forgot')}</Link>
        <Link href="/register">{t('page.register')}</Link>
      </nav>
    </PageFrame>
  );
}
