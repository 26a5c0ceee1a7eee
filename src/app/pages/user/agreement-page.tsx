import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandPage } from '../../features/profile/brand-page';
import { forgetDraft } from '../../features/money/deposit/deposit-draft';

/**
 * `/user/agreement`: the brand's deposit service agreement (its pages/<lang>.json). Back returns to the deposit form, which
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
  return <BrandPage page="agreement" fallbackTitle={t('deposit.agreement_link')} />;
}
