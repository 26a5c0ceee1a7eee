import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FundRecords } from '../../../src/app/features/money/records/fund-records';
import { fundRecords, type FundRecord } from '../../../src/shared/api/deposit';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { signIn } from '../support/engine-state';
import { createFakeServer, Refusal } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

const deposit: FundRecord = {
  id: 'deposit:1',
  actionType: 0,
  currency: 'USDT',
  network: 'TRC20',
  payPrice: '1500.00',
  depositUsdPrice: '1500.00',
  withdrawUsdPrice: null,
  submitTimeTs: Date.UTC(2030, 0, 2, 9),
  decidedTimeTs: null,
  payState: 0,
  failReason: null,
  canceled: false,
  fee: null,
  practical: null,
  destination: null,
};

describe('the deposit and withdrawal records', () => {
  it('tries a failed page again instead of stopping at the first failure (the specification stops after more than 5)', async () => {
    signIn();
    const server = createFakeServer();
    let asked = 0;
    server.on(fundRecords, () => {
      asked += 1;
      return asked === 1 ? new Refusal(ErrorCode.LIST_FAILURE, 'list failure') : { list: [deposit], pages: 1 };
    });
    renderView(<FundRecords />, { server, path: '/user/wallet/depositList' });
    expect(await screen.findByText(t('wallet.records_retrying'))).toBeInTheDocument();
    expect(await screen.findByText('1500.00 USDT')).toBeInTheDocument();
    expect(screen.getByTestId('fund-records-status')).toHaveTextContent(t('deposit.end'));
    expect(server.bodiesOf(fundRecords)).toEqual([
      { pageNum: 1, pageSize: 10 },
      { pageNum: 1, pageSize: 10 },
    ]);
  });
});
