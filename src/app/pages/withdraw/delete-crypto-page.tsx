import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { DeleteCryptoView } from '../../features/money/withdraw/crypto-wallets';

/** `/user/wallet/deleteCrypto?currencyId&walletId&currencyName&protocol&cryptocurrencyAddress`. */
export function DeleteCryptoPage() {
  const { t } = useTranslation();
  const search = useSearch();
  return (
    <PageFrame title={t('page.delete_crypto')}>
      <DeleteCryptoView query={new URLSearchParams(search)} />
    </PageFrame>
  );
}
