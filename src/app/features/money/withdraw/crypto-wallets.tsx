import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { cryptoWalletDelete, cryptoWalletInsert, cryptoWalletList, type SavedCryptoWallet } from '../../../../shared/api/withdraw';
import { decodeField, encodeField } from '../../../../shared/money/encoded-field';
import { newIdempotencyKey } from '../../../api/http-client';
import { useApp } from '../../../app-context';
import { showToast } from '../../../components/toasts';
import { TextField } from '../../../components/text-field';
import { confirmDialog } from '../../../components/confirm';
import { loadCoinNetworks, type CoinNetworkOption } from './coin-networks';
import { OptionPicker } from './option-picker';
import { SecondFactorField, totpCodeOf, useSecondFactorOn } from './second-factor-field';
import { sessionAesKey } from './session-key';

/** The crypto wallet and bank card lists are fetched at 1000 (spec §9). */
export const savedListSize = 1000;

/** The saved addresses, decoded for display; null while loading. */
export function useSavedCryptoWallets(): { wallets: SavedCryptoWallet[] | null; reload: () => void } {
  const { http } = useApp();
  const [wallets, setWallets] = useState<SavedCryptoWallet[] | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let stopped = false;
    http
      .call(cryptoWalletList, { pageNum: 1, pageSize: savedListSize })
      .then((answer) => {
        if (stopped) return;
        const key = sessionAesKey();
        setWallets(answer.list.map((wallet) => ({ ...wallet, cryptocurrencyAddress: decodeField(wallet.cryptocurrencyAddress, key) ?? '' })));
      })
      .catch(() => !stopped && setWallets([]));
    return () => {
      stopped = true;
    };
  }, [http, version]);
  return { wallets, reload: () => setVersion((value) => value + 1) };
}

/** Where the delete screen reads the entry from (spec: its query parameters). */
export function deleteCryptoHref(wallet: SavedCryptoWallet): string {
  const query = new URLSearchParams({
    currencyId: String(wallet.currencyId),
    walletId: String(wallet.walletId),
    currencyName: wallet.currencyName,
    protocol: wallet.protocol,
    cryptocurrencyAddress: wallet.cryptocurrencyAddress,
  });
  return `/user/wallet/deleteCrypto?${query.toString()}`;
}

/** `/user/wallet/crypto`: the saved addresses, each opening its delete screen, and the add button. */
export function CryptoWalletList() {
  const { t } = useTranslation();
  const { wallets } = useSavedCryptoWallets();
  return (
    <div className="money-list">
      {wallets === null ? <p>{t('common.loading')}</p> : null}
      {wallets?.length === 0 ? <p className="money-empty">{t('withdraw.no_crypto_wallet')}</p> : null}
      <ul className="saved-list" data-testid="crypto-wallet-list">
        {(wallets ?? []).map((wallet) => (
          <li key={wallet.walletId}>
            <Link href={deleteCryptoHref(wallet)} className="saved-item">
              <strong>
                {wallet.currencyName} · {wallet.protocol}
              </strong>
              <span className="numeric saved-address">{wallet.cryptocurrencyAddress}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link href="/user/wallet/addCrypto" className="button primary">
        {t('withdraw.add_crypto_wallet')}
      </Link>
    </div>
  );
}

/** `/user/wallet/addCrypto`: a coin and network, then the address (required). */
export function AddCryptoForm() {
  const { t } = useTranslation();
  const { http } = useApp();
  const [, navigate] = useLocation();
  const [networks, setNetworks] = useState<CoinNetworkOption[]>([]);
  const [networkId, setNetworkId] = useState<number | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [address, setAddress] = useState('');
  const secondFactorOn = useSecondFactorOn();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let stopped = false;
    loadCoinNetworks(http)
      .then((list) => {
        if (stopped) return;
        setNetworks(list);
        setNetworkId((current) => current ?? list[0]?.id ?? null);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http]);

  async function save() {
    if (address.trim() === '') {
      setError(t('withdraw.enter_crypto_address'));
      return;
    }
    if (networkId === null) return;
    setBusy(true);
    try {
      await http.call(
        cryptoWalletInsert,
        { currencyId: networkId, cryptocurrencyAddress: encodeField(address.trim(), sessionAesKey()), ...totpCodeOf(secondFactorOn, code) },
        { idempotencyKey: newIdempotencyKey() },
      );
      showToast('success', t('withdraw.add_success'));
      navigate('/user/wallet/crypto', { replace: true });
    } catch {
      // The request client told the user.
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="money-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <OptionPicker
        label={t('withdraw.coin_network')}
        placeholder={t('withdraw.choose_coin')}
        options={networks.map((network) => ({ id: network.id, label: `${network.currency} · ${network.protocol}` }))}
        selectedId={networkId}
        open={pickerOpen}
        onOpen={() => setPickerOpen(true)}
        onClose={() => setPickerOpen(false)}
        onSelect={setNetworkId}
        testId="coin-network-picker"
      />
      <TextField
        label={t('withdraw.crypto_address')}
        value={address}
        maxLength={140}
        onChange={(value) => {
          setAddress(value);
          setError(null);
        }}
        error={error}
      />
      <SecondFactorField enabled={secondFactorOn} value={code} onChange={setCode} />
      <button type="submit" className="button primary" disabled={busy || networkId === null}>
        {t('common.confirm')}
      </button>
    </form>
  );
}

/** `/user/wallet/deleteCrypto?…`: the entry read-only, and delete behind a confirm drawer. */
export function DeleteCryptoView(props: { query: URLSearchParams }) {
  const { t } = useTranslation();
  const { http } = useApp();
  const [, navigate] = useLocation();
  const walletId = Number(props.query.get('walletId'));
  const rows: [string, string][] = [
    [t('withdraw.coin'), props.query.get('currencyName') ?? ''],
    [t('withdraw.network'), props.query.get('protocol') ?? ''],
    [t('withdraw.crypto_address'), props.query.get('cryptocurrencyAddress') ?? ''],
  ];

  /** The warning drawer first (the shared confirmation); cancel changes nothing. */
  async function confirmThenRemove() {
    if (await confirmDialog({ title: t('withdraw.delete_crypto_title'), message: t('withdraw.delete_crypto_confirm') })) await remove();
  }

  async function remove() {
    try {
      await http.call(cryptoWalletDelete, { walletId });
      // The specification's notice after a delete: "operation success".
      showToast('success', t('notice.operation_success'));
      navigate('/user/wallet/crypto', { replace: true });
    } catch {
      // The request client told the customer; the address stays.
    }
  }

  return (
    <div className="money-form">
      <dl className="detail-rows">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd className="numeric saved-address">{value}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="button danger" disabled={!Number.isInteger(walletId) || walletId <= 0} onClick={() => void confirmThenRemove()}>
        {t('withdraw.delete')}
      </button>
    </div>
  );
}
