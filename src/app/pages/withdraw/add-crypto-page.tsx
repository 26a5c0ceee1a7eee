import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { goBackThrough } from '../../routing/back-trail';
import { AddCryptoForm } from '../../features/money/withdraw/crypto-wallets';

/** The specification's way back from addCrypto: /user, then /user/wallet, then /user/wallet/crypto. */
const addCryptoBackTrail = ['/user', '/user/wallet', '/user/wallet/crypto'] as const;

/** `/user/wallet/addCrypto`: a coin and network, then the address. */
export function AddCryptoPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  return (
    <PageFrame title={t('page.add_crypto')} back={() => goBackThrough(navigate, addCryptoBackTrail)}>
      <AddCryptoForm />
    </PageFrame>
  );
}
