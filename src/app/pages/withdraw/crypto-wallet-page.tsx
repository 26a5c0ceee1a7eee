import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { CryptoWalletList } from '../../features/money/withdraw/crypto-wallets';

/** The specification's way back from the crypto list: /user, then /user/wallet. */
const cryptoListBackTrail = ['/user', '/user/wallet'] as const;

/** `/user/wallet/crypto`: the saved crypto addresses. */
export function CryptoWalletPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.crypto_wallet')} back={cryptoListBackTrail}>
      <CryptoWalletList />
    </PageFrame>
  );
}
