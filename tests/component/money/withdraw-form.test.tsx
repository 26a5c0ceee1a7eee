import { cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WithdrawForm } from '../../../src/app/features/money/withdraw/withdraw-form';
import { twoFactorStatus } from '../../../src/shared/api/auth';
import { idempotencyHeader } from '../../../src/shared/api/idempotency';
import { walletBalance, walletCoinNetworks, type CoinNetworkOption } from '../../../src/shared/api/wallet';
import { bankCardList, cryptoWalletList, withdrawBounds, withdrawStatus, withdrawSubmit, withdrawWalletCalculate, type WithdrawalQuoteData } from '../../../src/shared/api/withdraw';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { decodeField, encodeField } from '../../../src/shared/money/encoded-field';
import { formatMoney, parseMoney } from '../../../src/shared/money/money';
import { signIn, testAesKey } from '../support/engine-state';
import { createFakeServer, Refusal } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';
import { switchesSignal } from '../../../src/app/app-context';
import { switchDefaults } from '../../../src/shared/config/switches';

const usdtTron: CoinNetworkOption = {
  id: 11,
  currencyId: 3,
  currency: 'USDT',
  protocol: 'TRC20',
  address: 'TPlatformDepositAddress',
  said: 'TPlatformDepositAddress',
  logoUrl: '',
  minWithdrawAmount: '10',
  maxWithdrawAmount: '5000',
  feeType: 'FIX_AMOUNT',
  feeNum: '1',
};
const savedAddress = 'TXyzSavedCustomerAddress42';

/** The quote the server gives for an amount: a fixed fee (1 unless said), what arrives, the balance after, in exact decimals. */
function quoteFor(num: string, balance = '1000', fee = '1'): WithdrawalQuoteData {
  const amount = parseMoney(num) ?? 0n;
  const held = parseMoney(balance) ?? 0n;
  const practical = formatMoney(amount - (parseMoney(fee) ?? 0n), 2);
  const afterBalance = formatMoney(held - amount, 2);
  // USDT at 1 USD: the USD values are the coin's.
  return { feeType: 'FIX_AMOUNT', feeNum: fee, feeUsd: fee, practical, isOver: amount > held, afterBalance, practicalUsd: practical, afterBalanceUsd: afterBalance };
}

function withdrawServer(options: { balance?: string; fee?: string; wallets?: boolean; status?: Refusal } = {}) {
  const server = createFakeServer();
  // The USDT wallet holds what the quotes count as available; another currency's wallet must not be taken for it.
  server.on(walletBalance, () => ({
    list: [
      { currency: 'BTC', currencyId: 1, unit: 'BTC', balance: '3.5', usdBalance: '210000.00', icon: '', decimals: 8 },
      { currency: 'USDT', currencyId: usdtTron.currencyId, unit: 'USDT', balance: options.balance ?? '1000', usdBalance: options.balance ?? '1000', icon: '', decimals: 2 },
    ],
    totalBalance: '211000.00',
  }));
  server.on(withdrawStatus, () => options.status ?? { cryptoEnabled: true, bankCardEnabled: false });
  server.on(walletCoinNetworks, () => ({ dtoList: [usdtTron] }));
  // The saved address comes encoded under the session's key, as the server sends it.
  server.on(cryptoWalletList, () => ({
    list: options.wallets === false ? [] : [{ walletId: 21, currencyId: usdtTron.id, currencyName: 'USDT', protocol: 'TRC20', cryptocurrencyAddress: encodeField(savedAddress, testAesKey), logoUrl: '' }],
    pages: 1,
  }));
  server.on(bankCardList, () => ({ list: [], pages: 0 }));
  server.on(withdrawWalletCalculate, (body) => quoteFor(body.num, options.balance, options.fee));
  server.on(withdrawSubmit, () => null);
  return server;
}

async function openWithdraw(server = withdrawServer()) {
  signIn();
  const view = renderView(<WithdrawForm />, { server, path: '/user/withdraw' });
  const amount = await screen.findByRole('textbox', { name: t('withdraw.amount') });
  // The saved address is decoded and chosen once the lists have answered.
  await screen.findByText(savedAddress);
  return { ...view, amount, submit: screen.getByRole('button', { name: t('common.done') }) };
}

describe('the withdraw form', () => {
  it('quotes an amount in range and submits it to the saved address, encoded, with an idempotency key', async () => {
    const { user, server, amount, submit, location } = await openWithdraw();
    expect(screen.getByTestId('withdraw-range')).toHaveTextContent(t('withdraw.range_hint', { min: '10', max: '5000' }));
    await user.type(amount, '100');
    // What arrives and the balance after with their units, in the coin and in USD, as the fee reads.
    await waitFor(() => expect(screen.getByTestId('withdraw-practical')).toHaveTextContent('99.00 USDT (≈ 99.00 USD)'));
    expect(screen.getByTestId('withdraw-fee')).toHaveTextContent('1.00 USDT (≈ 1.00 USD)');
    expect(screen.getByTestId('withdraw-after')).toHaveTextContent('900.00 USDT (≈ 900.00 USD)');
    // The specification's withdrawal labels: amount, fee, estimated arrival, estimated deduction (the whole amount leaves the balance).
    expect(screen.getByText(t('withdraw.estimated_deduction'))).toBeInTheDocument();
    expect(screen.getByTestId('withdraw-deduction')).toHaveTextContent('100.00 USDT');
    expect(submit).toBeEnabled();

    await user.click(submit);
    await waitFor(() => expect(server.callsOf(withdrawSubmit)).toHaveLength(1));
    const [call] = server.callsOf(withdrawSubmit);
    const body = call?.body as { num: string; practicalNum: string; coinId: number; paymentAddress: string };
    expect(body).toMatchObject({ num: '100', practicalNum: '99.00', coinId: usdtTron.id, currencyId: usdtTron.currencyId });
    // Not the address in plain text: the encoded field that decodes to it under the session's key.
    expect(body.paymentAddress).not.toContain(savedAddress);
    expect(decodeField(body.paymentAddress, testAesKey)).toBe(savedAddress);
    expect(call?.headers[idempotencyHeader]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByRole('status')).toHaveTextContent(t('notice.operation_success'));
    await waitFor(() => expect(location.history.at(-1)).toBe('/user'));
  });

  it('shows the available balance of the coin with its unit, and Max fills it cut to five decimals', async () => {
    const { user, server, amount } = await openWithdraw(withdrawServer({ balance: '1234.567891' }));
    expect(await screen.findByTestId('withdraw-available')).toHaveTextContent(t('wallet.available', { amount: '1234.567891', unit: 'USDT' }));
    await user.click(screen.getByRole('button', { name: t('withdraw.max') }));
    expect(amount).toHaveValue('1234.56789');
    await waitFor(() => expect(server.bodiesOf(withdrawWalletCalculate).map((body) => (body as { num: string }).num)).toContain('1234.56789'));
  });

  it('Max stops at the network maximum, and is off when the balance is under the minimum', async () => {
    const { user, amount } = await openWithdraw(withdrawServer({ balance: '7000' }));
    await user.click(await screen.findByRole('button', { name: t('withdraw.max') }));
    expect(amount).toHaveValue('5000');
    cleanup();
    await openWithdraw(withdrawServer({ balance: '9.5' }));
    expect(await screen.findByTestId('withdraw-available')).toHaveTextContent(t('wallet.available', { amount: '9.5', unit: 'USDT' }));
    expect(screen.getByRole('button', { name: t('withdraw.max') })).toBeDisabled();
  });

  it('says the bounds for an amount outside them, asks for no quote and cannot be submitted', async () => {
    const { user, server, amount, submit } = await openWithdraw();
    await user.type(amount, '5');
    expect(screen.getByRole('alert')).toHaveTextContent(t('withdraw.amount_limit', { min: '10', max: '5000' }));
    await user.clear(amount);
    await user.type(amount, '6000');
    expect(screen.getByRole('alert')).toHaveTextContent(t('withdraw.amount_limit', { min: '10', max: '5000' }));
    expect(submit).toBeDisabled();
    // "600" on the way to "6000" was in range and quoted; the amounts out of range were not.
    const quoted = server.bodiesOf(withdrawWalletCalculate).map((body) => (body as { num: string }).num);
    expect(quoted).not.toContain('5');
    expect(quoted).not.toContain('6000');
    expect(screen.getByTestId('withdraw-fee')).toHaveTextContent('--');
  });

  it('in the typed-address mode (NO_WALLET_WITHDRAW) takes the address typed in, quotes once it is there, and submits it encoded', async () => {
    switchesSignal.value = { ...switchDefaults, NO_WALLET_WITHDRAW: true };
    try {
      signIn();
      const server = withdrawServer({ wallets: false });
      const { user } = renderView(<WithdrawForm />, { server, path: '/user/withdraw' });
      const address = await screen.findByRole('textbox', { name: t('withdraw.crypto_address') });
      // No saved-address picker and no "add a crypto wallet first" in this mode.
      expect(screen.queryByText(t('withdraw.add_wallet_first'))).not.toBeInTheDocument();
      await user.type(screen.getByRole('textbox', { name: t('withdraw.amount') }), '100');
      expect(server.bodiesOf(withdrawWalletCalculate)).toEqual([]);
      await user.type(address, ' TTypedAddress 42 ');
      await waitFor(() => expect(screen.getByTestId('withdraw-practical')).toHaveTextContent('99.00 USDT'));
      await user.click(screen.getByRole('button', { name: t('common.done') }));
      await waitFor(() => expect(server.callsOf(withdrawSubmit)).toHaveLength(1));
      const body = server.bodiesOf(withdrawSubmit)[0] as { paymentAddress: string };
      expect(decodeField(body.paymentAddress, testAesKey)).toBe('TTypedAddress42');
    } finally {
      switchesSignal.value = { ...switchDefaults };
    }
  });

  it('hints the bounds the server enforces, under the coin\'s own, and names them for an amount between the two', async () => {
    const server = withdrawServer();
    // The USD limits narrow the coin's 5000 to 2000 at today's rate.
    server.on(withdrawBounds, (body) => {
      expect(body).toEqual({ currencyId: usdtTron.currencyId, coinId: usdtTron.id });
      return { min: '10', max: '2000' };
    });
    const { user, amount, submit } = await openWithdraw(server);
    await waitFor(() => expect(screen.getByTestId('withdraw-range')).toHaveTextContent(t('withdraw.range_hint', { min: '10', max: '2000' })));
    await user.type(amount, '3000');
    expect(screen.getByRole('alert')).toHaveTextContent(t('withdraw.amount_limit', { min: '10', max: '2000' }));
    expect(server.bodiesOf(withdrawWalletCalculate).map((body) => (body as { num: string }).num)).not.toContain('3000');
    expect(submit).toBeDisabled();
  });

  it('asks the bounds again when a quote is refused for its range, and then names the new ones', async () => {
    const server = withdrawServer();
    let maxNow = '5000';
    server.on(withdrawBounds, () => ({ min: '10', max: maxNow }));
    server.on(withdrawWalletCalculate, (body) => {
      // The rate moved: the server's bounds are lower now than the form last heard.
      if (Number(body.num) > 2000) {
        maxNow = '2000';
        return new Refusal(ErrorCode.INCORRECT_PARAMETER_VALUE, 'amount outside the withdrawal limits', { min: '10', max: '2000' });
      }
      return quoteFor(body.num);
    });
    const { user, amount } = await openWithdraw(server);
    await waitFor(() => expect(server.callsOf(withdrawBounds)).toHaveLength(1));
    await user.type(amount, '3000');
    expect(await screen.findByRole('alert')).toHaveTextContent(t('withdraw.amount_limit', { min: '10', max: '2000' }));
    expect(screen.getByTestId('withdraw-range')).toHaveTextContent(t('withdraw.range_hint', { min: '10', max: '2000' }));
    expect(screen.getByTestId('withdraw-fee')).toHaveTextContent('--');
  });

  it('says the balance is short when the quote says so, and cannot be submitted', async () => {
    const { user, amount, submit } = await openWithdraw(withdrawServer({ balance: '50' }));
    await user.type(amount, '100');
    expect(await screen.findByRole('alert')).toHaveTextContent(t('withdraw.insufficient_balance'));
    expect(submit).toBeDisabled();
  });

  it('refuses an amount that the fee would eat whole', async () => {
    const { user, amount, submit } = await openWithdraw(withdrawServer({ fee: '10' }));
    await user.type(amount, '10');
    expect(await screen.findByRole('alert')).toHaveTextContent(t('withdraw.practicalNum_rule'));
    expect(submit).toBeDisabled();
  });

  it('shows why withdrawal is blocked instead of the form, with the way to the verification the server asks for', async () => {
    signIn();
    renderView(<WithdrawForm />, { server: withdrawServer({ status: new Refusal(ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION, '', { requiredLevel: 'junior' }) }) });
    expect(await screen.findByTestId('withdraw-blocked')).toHaveTextContent(t(`errors.${ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION}`));
    expect(screen.getByRole('link', { name: t('withdraw.verify_identity') })).toHaveAttribute('href', '/user/juniorVerified');
    expect(screen.queryByRole('button', { name: t('common.done') })).not.toBeInTheDocument();
  });

  it('leads to the full verification when the brand asks for it', async () => {
    signIn();
    renderView(<WithdrawForm />, { server: withdrawServer({ status: new Refusal(ErrorCode.WITHDRAWAL_NEEDS_VERIFICATION, '', { requiredLevel: 'full' }) }) });
    expect(await screen.findByRole('link', { name: t('withdraw.verify_identity') })).toHaveAttribute('href', '/user/verified');
  });

  it('offers no verification for a block verifying would not lift (one withdrawal under review)', async () => {
    signIn();
    renderView(<WithdrawForm />, { server: withdrawServer({ status: new Refusal(ErrorCode.WITHDRAWAL_UNDER_REVIEW) }) });
    expect(await screen.findByTestId('withdraw-blocked')).toHaveTextContent(t(`errors.${ErrorCode.WITHDRAWAL_UNDER_REVIEW}`));
    expect(screen.queryByRole('link', { name: t('withdraw.verify_identity') })).toBeNull();
  });

  it('asks the authenticator code with its hint written out under the field, and sends it with the withdrawal', async () => {
    const server = withdrawServer();
    server.on(twoFactorStatus, () => ({ enabled: true }));
    const { user, amount, submit } = await openWithdraw(server);
    const code = await screen.findByRole('textbox', { name: t('withdraw.totp_label') });
    // Not a placeholder, which a phone's width cut off: text that wraps.
    expect(code).not.toHaveAttribute('placeholder');
    expect(screen.getByText(t('withdraw.totp_hint'))).toBeVisible();
    await user.type(amount, '100');
    await screen.findByText('99.00 USDT (≈ 99.00 USD)');
    expect(submit).toBeDisabled();
    await user.type(code, '12a3456');
    expect(code).toHaveValue('123456');
    await user.click(submit);
    await waitFor(() => expect(server.bodiesOf(withdrawSubmit)).toHaveLength(1));
    expect(server.bodiesOf(withdrawSubmit)[0]).toMatchObject({ num: '100', totpCode: '123456' });
  });

  it('asks for an address first when none is saved for the network', async () => {
    signIn();
    renderView(<WithdrawForm />, { server: withdrawServer({ wallets: false }) });
    expect(await screen.findByText(t('withdraw.add_wallet_first'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t('withdraw.add_crypto_wallet') })).toHaveAttribute('href', '/user/wallet/addCrypto');
  });
});
