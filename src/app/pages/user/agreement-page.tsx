import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { forgetDraft } from '../../features/money/deposit/deposit-draft';
import '../../styles/money.css';

/**
 * `/user/agreement`: the deposit service agreement. Back returns to the deposit form, which
 * takes the draft it left here; leaving any other way forgets the draft when this page goes.
 */
export function AgreementPage() {
  const { t } = useTranslation();
  useEffect(
    () => () => {
      // Gone back to the form: it takes the draft itself. Anywhere else: the draft is forgotten.
      if (window.location.pathname !== '/user/deposit') forgetDraft();
    },
    [],
  );
  return (
    <PageFrame title={t('deposit.agreement_title')}>
      <article className="agreement-text">
        <p>{t('deposit.agreement_body')}</p>
        <h2>{t('profile.agreement_copy_trade_title')}</h2>
        <p>{t('profile.agreement_copy_trade')}</p>
      </article>
    </PageFrame>
  );
}
