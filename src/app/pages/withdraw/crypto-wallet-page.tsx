import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { goBackThrough } from '../../routing/back-trail';
import { CryptoWalletList } from '../../features/money/withdraw/crypto-wallets';

/** The specification's way back from the crypto list: /user, then /user/wallet. */
const cryptoListBackTrail = ['/user', '/user/wallet'] as const;

/** `/user/wallet/crypto`: the saved crypto addresses. */
export function CryptoWalletPage() {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  return (
    <PageFrame title={t('page.crypto_wallet')} back={() => goBackThrough(navigate, cryptoListBackTrail)}>
      <CryptoWalletList />
    </PageFrame>
  );
}
