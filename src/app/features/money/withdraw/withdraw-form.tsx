import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import {
  withdrawBankCalculate,
  withdrawBankMeta,
  withdrawBankSubmit,
  withdrawBounds,
  withdrawLimits,
  withdrawStatus,
  withdrawSubmit,
  withdrawWalletCalculate,
  withdrawalNeedsVerification,
  type BankWithdrawMeta,
  type WithdrawalQuoteData,
  type WithdrawLimitsData,
} from '../../../../shared/api/withdraw';
import { ErrorCode } from '../../../../shared/errors/catalogue';
import { encodeField } from '../../../../shared/money/encoded-field';
import { formatMoney, parseMoney } from '../../../../shared/money/money';
import { parseWithdrawalAmount, withdrawalAmountInput, withdrawalMaxAmount, type WithdrawalFeeType } from '../../../../shared/money/withdrawal-quote';
import { newIdempotencyKey, RequestError } from '../../../api/http-client';
import { switchesSignal, useApp } from '../../../app-context';
import { useBrandFormat } from '../../../format/use-brand-format';
import { showToast } from '../../../components/toasts';
import { TextField } from '../../../components/text-field';
import { useWalletBalances } from '../wallet/use-wallet-balances';
import { useBankCards } from './bank-cards';
import { loadCoinNetworks, type CoinNetworkOption } from './coin-networks';
import { useSavedCryptoWallets } from './crypto-wallets';
import { OptionPicker } from './option-picker';
import { SecondFactorField, totpCodeOf, useSecondFactorOn } from './second-factor-field';
import { sessionAesKey } from './session-key';
import '../../../styles/money.css';

type Method = 'crypto' | 'bank';
/** The fee quote is asked again every second while the amount stays in range (spec §4 "Withdraw"). */
const requoteMs = 1000;
const blockedCodes: ReadonlySet<number> = new Set([ErrorCode.WITHDRAWAL_UNAVAILABLE, ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION, ErrorCode.WITHDRAWAL_UNDER_REVIEW]);

/** The methods this account may use, or the blocked code of `withdraw/status` (with the verification screen it asks for, 1067). */
function useWithdrawMethods() {
  const { http } = useApp();
  const [state, setState] = useState<{ methods: Method[] | null; blockedCode: number | null; verifyAt: string | null }>({ methods: null, blockedCode: null, verifyAt: null });
  useEffect(() => {
    let stopped = false;
    http
      .call(withdrawStatus, {}, { silent: true })
      .then((flags) => {
        const methods: Method[] = [];
        if (flags.cryptoEnabled) methods.push('crypto');
        if (flags.bankCardEnabled) methods.push('bank');
        if (!stopped) setState({ methods, blockedCode: null, verifyAt: null });
      })
      .catch((error: unknown) => {
        const failure = error instanceof RequestError && error.failure.kind === 'code' ? error.failure : null;
        const code = failure?.code ?? ErrorCode.WITHDRAWAL_UNAVAILABLE;
        const verifyAt = code === ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION ? verificationScreenFor(failure?.data) : null;
        if (!stopped) setState({ methods: [], blockedCode: blockedCodes.has(code) ? code : ErrorCode.WITHDRAWAL_UNAVAILABLE, verifyAt });
      });
    return () => {
      stopped = true;
    };
  }, [http]);
  return state;
}

/**
 * Where a customer refused for want of verification (1067) goes: the junior form when junior
 * is what the server asks and the brand offers it, otherwise the full verification (which
 * meets any level).
 */
function verificationScreenFor(data: unknown): string {
  const refusal = withdrawalNeedsVerification.safeParse(data);
  const junior = refusal.success && refusal.data.requiredLevel === 'junior' && switchesSignal.peek()['user/juniorVerfiy'];
  return junior ? '/user/juniorVerified' : '/user/verified';
}

/** What the customer may still withdraw (`withdraw/limits`), asked again after a refused submission. */
function useWithdrawLimits(enabled: boolean) {
  const { http } = useApp();
  const [limits, setLimits] = useState<WithdrawLimitsData | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    http
      .call(withdrawLimits, {}, { silent: true })
      .then((answer) => !stopped && setLimits(answer))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http, enabled, asked]);
  return { limits, reload: () => setAsked((count) => count + 1) };
}

/**
 * The bounds the server enforces on the channel now (`withdraw/bounds`: the coin's within the
 * 50 – 10,000,000 USD limits at the live rate), asked when the channel changes and again when
 * a quote is refused for its range (the rate moved). Null until answered for this channel.
 */
function useEnforcedBounds(channel: { currencyId: number; coinId?: number } | null) {
  const { http } = useApp();
  const key = channel ? JSON.stringify(channel) : null;
  const [answered, setAnswered] = useState<{ key: string; min: string; max: string } | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    if (key === null) return;
    let stopped = false;
    http
      .call(withdrawBounds, JSON.parse(key) as { currencyId: number; coinId?: number }, { silent: true })
      .then((bounds) => !stopped && setAnswered({ key, ...bounds }))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http, key, asked]);
  const reload = useCallback(() => setAsked((count) => count + 1), []);
  return { bounds: answered !== null && answered.key === key ? answered : null, reload };
}

/** "You can withdraw X more today / this month", and the cooling-off hold with the time it ends. */
function WithdrawAllowance(props: { limits: WithdrawLimitsData }) {
  const { t } = useTranslation();
  const format = useBrandFormat();
  return (
    <div className="withdraw-allowance" data-testid="withdraw-allowance">
      {props.limits.holdUntilTs !== null ? (
        <p className="withdraw-hold" role="status" data-testid="withdraw-hold">
          {t('withdraw.hold_until', { time: format.time(props.limits.holdUntilTs) })}
        </p>
      ) : null}
      <p className="field-hint numeric" data-testid="withdraw-left-today">
        {t('withdraw.left_today', { amount: format.amount(props.limits.dailyLeftUsd) })}
      </p>
      <p className="field-hint numeric" data-testid="withdraw-left-month">
        {t('withdraw.left_month', { amount: format.amount(props.limits.monthlyLeftUsd) })}
      </p>
    </div>
  );
}

/**
 * `/user/withdraw`: tabs (only with more than one method), the coin/network and address
 * pickers or the bank card picker, the amount with its range hint, and the fee quote
 * (fee, what arrives, the balance after), asked again every second while the amount is in
 * range. A tab change clears the amount. Without a saved address or card, the add button.
 */
export function WithdrawForm() {
  useSignals();
  const { t } = useTranslation();
  // NO_WALLET_WITHDRAW: the address is typed in (the saved-wallet entry is hidden); else one of the saved ones is picked.
  const typedAddressMode = switchesSignal.value.NO_WALLET_WITHDRAW;
  const [typedAddress, setTypedAddress] = useState('');
  const { http } = useApp();
  const [, navigate] = useLocation();
  const format = useBrandFormat();
  const { methods, blockedCode, verifyAt } = useWithdrawMethods();
  const [method, setMethod] = useState<Method>('crypto');
  const [networks, setNetworks] = useState<CoinNetworkOption[]>([]);
  const [networkId, setNetworkId] = useState<number | null>(null);
  const [walletId, setWalletId] = useState<number | null>(null);
  const [cardId, setCardId] = useState<number | null>(null);
  const [bankMeta, setBankMeta] = useState<BankWithdrawMeta | null>(null);
  const [picker, setPicker] = useState<'network' | 'wallet' | 'card' | null>(null);
  const [amount, setAmount] = useState('');
  const [answered, setAnswered] = useState<{ request: string; quote: WithdrawalQuoteData } | null>(null);
  const [busy, setBusy] = useState(false);
  const { wallets } = useSavedCryptoWallets();
  const { data: walletBalances } = useWalletBalances();
  const cards = useBankCards();
  const { limits, reload: reloadLimits } = useWithdrawLimits(methods !== null && blockedCode === null);
  const secondFactorOn = useSecondFactorOn();
  const [code, setCode] = useState('');
  const onHold = limits !== null && limits.holdUntilTs !== null;

  const activeMethod: Method = methods && methods.length > 0 && !methods.includes(method) ? (methods[0] ?? 'crypto') : method;

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

  useEffect(() => {
    if (!methods?.includes('bank')) return;
    let stopped = false;
    http
      .call(withdrawBankMeta, {})
      .then((meta) => !stopped && setBankMeta(meta))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http, methods]);

  const network = networks.find((item) => item.id === networkId) ?? null;
  const networkWallets = useMemo(() => (wallets ?? []).filter((wallet) => wallet.currencyId === networkId), [wallets, networkId]);
  const wallet = networkWallets.find((item) => item.walletId === walletId) ?? networkWallets[0] ?? null;
  const card = (cards ?? []).find((item) => item.id === cardId) ?? cards?.[0] ?? null;

  // The bounds: those the server enforces (the coin's within the USD limits), else, until it
  // answers, the coin's, or the bank channel's with 0 as the default.
  const enforced = useEnforcedBounds(
    activeMethod === 'crypto' ? (network ? { currencyId: network.currencyId, coinId: network.id } : null) : bankMeta ? { currencyId: bankMeta.currencyId } : null,
  );
  const channelBounds = activeMethod === 'crypto' ? { min: network?.minWithdrawAmount ?? '0', max: network?.maxWithdrawAmount ?? '0' } : { min: bankMeta?.minWithdrawAmount ?? '0', max: bankMeta?.maxWithdrawAmount ?? '0' };
  const boundUnits = { min: parseMoney((enforced.bounds ?? channelBounds).min) ?? 0n, max: parseMoney((enforced.bounds ?? channelBounds).max) ?? 0n };
  const bounds = { min: formatMoney(boundUnits.min, 0), max: formatMoney(boundUnits.max, 0) };
  const amountUnits = parseWithdrawalAmount(amount);
  // The coin the amount is typed in, shown with every figure of the quote.
  const coinUnit = (activeMethod === 'crypto' ? network?.currency : bankMeta?.currency) ?? '';
  const minUnits = boundUnits.min;
  const maxUnits = boundUnits.max;
  const inRange = amountUnits !== null && amountUnits >= minUnits && amountUnits <= maxUnits;
  const cryptoAddress = typedAddressMode ? typedAddress.trim() : (wallet?.cryptocurrencyAddress ?? '');
  const destinationReady = activeMethod === 'crypto' ? network !== null && cryptoAddress !== '' : bankMeta !== null && card !== null;

  // What can be withdrawn now: the channel currency's wallet, and the most "Max" fills within the bounds and the fee.
  const channelTerms: { currencyId: number; currency: string; feeType: WithdrawalFeeType; feeNum: string } | null = activeMethod === 'crypto' ? network : bankMeta;
  const channelWallet = channelTerms ? (walletBalances?.list.find((item) => item.currencyId === channelTerms.currencyId) ?? null) : null;
  const availableUnits = channelWallet ? parseMoney(channelWallet.balance) : null;
  const maxAmount =
    channelTerms && availableUnits !== null
      ? withdrawalMaxAmount(availableUnits, { min: minUnits, max: maxUnits }, { feeType: channelTerms.feeType, feeNum: parseMoney(channelTerms.feeNum) ?? 0n })
      : null;

  // Quote now and every second while the amount is in range and a destination is chosen.
  // A quote shows only for the request it answered: another amount or channel shows none until its own arrives.
  const reloadBounds = enforced.reload;
  const quoteRequest = JSON.stringify([activeMethod, network?.id ?? null, bankMeta?.currencyId ?? null, amount]);
  const quote = inRange && destinationReady && answered?.request === quoteRequest ? answered.quote : null;
  useEffect(() => {
    if (!inRange || !destinationReady) return;
    let stopped = false;
    const ask = () => {
      const request =
        activeMethod === 'crypto' && network
          ? http.call(withdrawWalletCalculate, { currencyId: network.currencyId, coinId: network.id, num: amount }, { silent: true })
          : http.call(withdrawBankCalculate, { currencyId: bankMeta?.currencyId ?? 0, num: amount }, { silent: true });
      request
        .then((answer) => !stopped && setAnswered({ request: quoteRequest, quote: answer }))
        .catch((error: unknown) => {
          // Refused for its range: the bounds moved with the rate; ask them again, and the message names the new ones.
          if (!stopped && error instanceof RequestError && error.failure.kind === 'code' && error.failure.code === ErrorCode.INCORRECT_PARAMETER_VALUE) reloadBounds();
        });
    };
    ask();
    const timer = setInterval(ask, requoteMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [http, activeMethod, network, bankMeta, amount, inRange, destinationReady, quoteRequest, reloadBounds]);

  const practical = quote ? (parseMoney(quote.practical) ?? 0n) : null;
  // The quote's figures in the coin with their USD value, as the fee reads (the specification shows them in USD).
  const withUsd = (inCoin: string, usd: string | undefined) => (usd === undefined ? inCoin : `${inCoin} (≈ ${format.amount(usd, 'USD')})`);
  const amountError =
    amount !== '' && !inRange
      ? t('withdraw.amount_limit', { min: bounds.min, max: bounds.max })
      : quote?.isOver
        ? t('withdraw.insufficient_balance')
        : practical !== null && practical <= 0n
          ? t('withdraw.practicalNum_rule')
          : null;
  const canSubmit = quote !== null && amountError === null && destinationReady && !busy && !onHold && (!secondFactorOn || code.length === 6);

  function selectMethod(next: Method) {
    setMethod(next);
    setAmount('');
  }

  async function submit() {
    if (!quote) return;
    setBusy(true);
    try {
      const key = newIdempotencyKey();
      if (activeMethod === 'crypto' && network && cryptoAddress !== '') {
        await http.call(
          withdrawSubmit,
          {
            num: amount,
            practicalNum: quote.practical,
            currencyId: network.currencyId,
            coinId: network.id,
            paymentAddress: encodeField(cryptoAddress, sessionAesKey()),
            locale: document.documentElement.lang || 'en',
            ...totpCodeOf(secondFactorOn, code),
          },
          { idempotencyKey: key },
        );
      } else if (card) {
        await http.call(
          withdrawBankSubmit,
          { num: amount, practicalNum: quote.practical, userBankId: card.id, withdrawType: 1, locale: document.documentElement.lang || 'en', ...totpCodeOf(secondFactorOn, code) },
          { idempotencyKey: key },
        );
      }
      // The specification's notice after a withdrawal, a delete or a demo reset: "operation success".
      showToast('success', t('notice.operation_success'));
      navigate('/user', { replace: true });
    } catch (error) {
      // The request client told the user; a limit or a hold it met shows on the form from now on.
      const refused = error instanceof RequestError && error.failure.kind === 'code' ? error.failure.code : null;
      if (refused === ErrorCode.WITHDRAWAL_OVER_LIMIT || refused === ErrorCode.WITHDRAWAL_ON_HOLD) reloadLimits();
      setCode('');
    } finally {
      setBusy(false);
    }
  }

  if (methods === null) return <p>{t('common.loading')}</p>;
  if (blockedCode !== null) {
    return (
      <div className="money-empty" data-testid="withdraw-blocked">
        <p>{t(`errors.${blockedCode}`)}</p>
        {verifyAt ? (
          <Link href={verifyAt} className="button primary">
            {t('withdraw.verify_identity')}
          </Link>
        ) : null}
      </div>
    );
  }

  return (
    <form
      className="money-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {limits ? <WithdrawAllowance limits={limits} /> : null}
      {methods.length > 1 ? (
        <div className="type-tabs" role="tablist" aria-label={t('withdraw.method')}>
          {methods.map((item) => (
            <button key={item} type="button" role="tab" aria-selected={item === activeMethod} className="type-tab" onClick={() => selectMethod(item)}>
              {t(item === 'crypto' ? 'withdraw.tab_crypto' : 'withdraw.tab_bank')}
            </button>
          ))}
        </div>
      ) : null}

      {activeMethod === 'crypto' ? (
        <>
          <OptionPicker
            label={t('withdraw.coin_network')}
            placeholder={t('withdraw.choose_coin')}
            options={networks.map((item) => ({ id: item.id, label: `${item.currency} · ${item.protocol}` }))}
            selectedId={networkId}
            open={picker === 'network'}
            onOpen={() => setPicker('network')}
            onClose={() => setPicker(null)}
            onSelect={(id) => {
              setNetworkId(id);
              setWalletId(null);
              setTypedAddress('');
            }}
            testId="withdraw-network-picker"
          />
          {typedAddressMode ? (
            <TextField
              label={t('withdraw.crypto_address')}
              value={typedAddress}
              maxLength={128}
              autoComplete="off"
              onChange={(value) => setTypedAddress(value.replace(/\s/g, ''))}
            />
          ) : wallets !== null && networkWallets.length === 0 ? (
            <div className="money-empty">
              <p>{t('withdraw.add_wallet_first')}</p>
              <Link href="/user/wallet/addCrypto" className="button secondary">
                {t('withdraw.add_crypto_wallet')}
              </Link>
            </div>
          ) : (
            <>
              <OptionPicker
                label={t('withdraw.crypto_address')}
                placeholder={t('withdraw.choose_address')}
                options={networkWallets.map((item) => ({ id: item.walletId, label: item.cryptocurrencyAddress }))}
                selectedId={wallet?.walletId ?? null}
                open={picker === 'wallet'}
                onOpen={() => setPicker('wallet')}
                onClose={() => setPicker(null)}
                onSelect={setWalletId}
                testId="withdraw-address-picker"
              />
            </>
          )}
        </>
      ) : cards !== null && cards.length === 0 ? (
        <div className="money-empty">
          <p>{t('withdraw.add_wallet_first')}</p>
          <Link href="/user/wallet/addBankCard" className="button secondary">
            {t('withdraw.add_bank_card')}
          </Link>
        </div>
      ) : (
        <OptionPicker
          label={t('withdraw.bank_card')}
          placeholder={t('withdraw.choose_card')}
          options={(cards ?? []).map((item) => ({ id: item.id, label: item.bankName, detail: item.accountMasked }))}
          selectedId={card?.id ?? null}
          open={picker === 'card'}
          onOpen={() => setPicker('card')}
          onClose={() => setPicker(null)}
          onSelect={setCardId}
          testId="withdraw-card-picker"
        />
      )}

      <TextField
        label={t('withdraw.amount')}
        value={amount}
        inputMode="decimal"
        inputClassName="numeric"
        placeholder={t('withdraw.range_hint', { min: bounds.min, max: bounds.max })}
        onChange={(value) => setAmount(withdrawalAmountInput(value))}
        error={amountError}
        after={
          <button type="button" className="field-action" disabled={maxAmount === null} onClick={() => maxAmount !== null && setAmount(formatMoney(maxAmount, 0))} data-testid="withdraw-max">
            {t('withdraw.max')}
          </button>
        }
      />
      <p className="field-hint numeric" data-testid="withdraw-available">
        {t('wallet.available', { amount: channelWallet?.balance ?? '--', unit: channelWallet?.unit ?? channelTerms?.currency ?? '' })}
      </p>
      <p className="field-hint numeric" data-testid="withdraw-range">
        {t('withdraw.range_hint', { min: bounds.min, max: bounds.max })}
      </p>

      <dl className="detail-rows numeric" data-testid="withdraw-quote">
        <div>
          <dt>{t('withdraw.fee')}</dt>
          <dd data-testid="withdraw-fee">{quote ? `${format.quantity(quote.feeNum, coinUnit)} (≈ ${format.amount(quote.feeUsd, 'USD')})` : '--'}</dd>
        </div>
        <div>
          <dt>{t('withdraw.estimated_arrival')}</dt>
          <dd data-testid="withdraw-practical">{quote ? withUsd(format.quantity(quote.practical, coinUnit), quote.practicalUsd) : '--'}</dd>
        </div>
        <div>
          {/* What leaves the balance: the whole amount (the fee is taken out of it). */}
          <dt>{t('withdraw.estimated_deduction')}</dt>
          <dd data-testid="withdraw-deduction">{quote ? format.quantity(amount, coinUnit) : '--'}</dd>
        </div>
        <div>
          <dt>{t('withdraw.balance_after')}</dt>
          <dd data-testid="withdraw-after">{quote ? withUsd(format.quantity(quote.afterBalance, coinUnit), quote.afterBalanceUsd) : '--'}</dd>
        </div>
      </dl>

      <SecondFactorField enabled={secondFactorOn} value={code} onChange={setCode} />
      <div className="money-form-actions">
        {/* The specification's word for the submit button: Done. */}
        <button type="submit" className="button primary" disabled={!canSubmit}>
          {t('common.done')}
        </button>
      </div>
    </form>
  );
}
