import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { AddCryptoForm } from '../../features/money/withdraw/crypto-wallets';

/** `/user/wallet/addCrypto`: a coin and network, then the address. */
export function AddCryptoPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.add_crypto')}>
      <AddCryptoForm />
    </PageFrame>
  );
}
