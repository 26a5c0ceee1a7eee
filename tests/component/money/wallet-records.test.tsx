import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WalletRecords } from '../../../src/app/features/money/wallet/wallet-records';
import { walletRecords, type WalletRecord } from '../../../src/shared/api/wallet';
import { signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

const at = Date.parse('2026-03-03T12:00:00Z');
const records: WalletRecord[] = [
  { orderType: 2, movement: 'withdrawalReturned', currency: 'USDT', uid: '5', orderQuantity: '100.00', unit: 'USDT', orderTime: at + 4 },
  { orderType: 2, movement: 'withdrawal', currency: 'USDT', uid: '4', orderQuantity: '-100.00', unit: 'USDT', orderTime: at + 3 },
  { orderType: 1, movement: 'transferOut', currency: 'USDT', uid: '3', orderQuantity: '50.00', unit: 'USDT', orderTime: at + 2 },
  { orderType: 0, movement: 'transferIn', currency: 'USDT', uid: '2', orderQuantity: '-20.00', unit: 'USDT', orderTime: at + 1 },
  { orderType: 2, movement: 'deposit', currency: 'USDT', uid: '1', orderQuantity: '500.00', unit: 'USDT', orderTime: at },
  // A back end that names only the type: labelled by it.
  { orderType: 2, currency: 'BTC', uid: '0', orderQuantity: '0.10', unit: 'BTC', orderTime: at - 1 },
];

describe('the wallet records', () => {
  it('label a deposit and a withdrawal as what they are, not "Order", and the rest by their type', async () => {
    signIn();
    const server = createFakeServer();
    server.on(walletRecords, () => ({ list: records, pages: 1 }));
    renderView(<WalletRecords />, { server, path: '/user/myWallet' });
    const list = await screen.findByTestId('wallet-records');
    await within(list).findByText('500.00 USDT', { exact: false });
    const labels = [...list.querySelectorAll('.wallet-record-type')].map((node) => node.textContent);
    expect(labels).toEqual([
      t('wallet.record_withdrawal_returned'),
      t('deposit.records_type_withdraw'),
      t('wallet.record_type_1'),
      t('wallet.record_type_0'),
      t('deposit.records_type_deposit'),
      t('wallet.record_type_2'),
    ]);
  });
});
