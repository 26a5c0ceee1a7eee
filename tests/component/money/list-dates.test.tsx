import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { WalletRecords } from '../../../src/app/features/money/wallet/wallet-records';
import { brandFormat } from '../../../src/app/format/use-brand-format';
import { transactionOrdersOf } from '../../../src/app/features/trading/history/market-history';
import { walletRecords } from '../../../src/shared/api/wallet';
import type { TradeOrder } from '../../../src/shared/api/trading';
import { Direction, OrderStatus } from '../../../src/shared/trading/order-rules';
import { signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { english, t } from '../support/i18n';
import { renderView } from '../support/render';

const at = Date.UTC(2026, 10, 23, 16, 16, 49);

describe('records lists date their rows as MM-DD HH:mm:ss (the spec), details keep the year', () => {
  it('in the brand formatter: a list time and a full time', () => {
    const format = brandFormat({ grouping: true, language: 'en', timeZone: 'Europe/London' });
    expect(format.listTime(at)).toBe('11-23 16:16:49');
    expect(format.time(at)).toBe('2026-11-23 16:16:49');
    expect(format.listTime(null)).toBe('—');
  });

  it('in the wallet records list', async () => {
    signIn();
    const server = createFakeServer();
    server.on(walletRecords, () => ({ list: [{ orderType: 0 as const, currency: 'USDT', uid: 'TR-1', orderQuantity: '25.0000', unit: 'USDT', orderTime: at }], pages: 1 }));
    renderView(<WalletRecords />, { server, config: { timeZone: 'Europe/London' } });
    const list = await screen.findByRole('list', { name: t('wallet.wallet_record') });
    expect(await within(list).findByText('11-23 16:16:49')).toBeInTheDocument();
  });

  it("in the transaction list's rows", () => {
    const order: TradeOrder = {
      id: 1, uid: 'ORD-1', orderType: Direction.buy, buyPoint: 1, status: OrderStatus.pending, positionStatus: OrderStatus.pending, tradePair: 'EURUSD', productName: 'EUR/USD',
      orderQuantity: '1.00', lever: 100, securityDepositInitial: '1080.00', openingPrice: null, limitPrice: '1.08000', currentPrice: null, closingPrice: null, stopPrice: null,
      takeProfitPrice: null, profitLoss: null, feeAmount: '2.16', overnightFee: '0.00', closeReason: null, orderTime: at, orderTimeTs: at, transactionTime: null,
      transactionTimeTs: null, closingTimeTs: null, closableAfterTime: null,
    };
    const row = transactionOrdersOf(null).rowOf(order, { t: english.t, format: brandFormat({ grouping: true, language: 'en', timeZone: 'Europe/London' }) });
    expect(row.time).toBe('11-23 16:16:49');
  });
});
