import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/page-frame';
import { CryptoWalletList } from '../../features/money/withdraw/crypto-wallets';

/** `/user/wallet/crypto`: the saved crypto addresses. */
export function CryptoWalletPage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('page.crypto_wallet')}>
      <CryptoWalletList />
    </PageFrame>
  );
}
