import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoanScreen } from '../../../src/app/features/money/loan/loan-screen';
import { loanCheck, loanRepaymentGet, type LoanDto, type RepaymentDto } from '../../../src/shared/api/loan';
import { signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

const activeLoan: LoanDto = {
  id: 7,
  uid: 1001,
  amount: '50000.00',
  amountOwed: '50000.00',
  days: 7,
  guarantor: 1002,
  remark: '',
  repaymentDate: Date.UTC(2030, 0, 8),
  status: 1,
  rejectReason: null,
  createTime: Date.UTC(2030, 0, 1),
};
const rejected: RepaymentDto = { id: 3, loanId: 7, amount: '10000.00', amountOwed: '40000.00', status: 2, rejectReason: 'wrong amount', createTime: Date.UTC(2030, 0, 2) };

async function openLoan(repayments: { dtoList: RepaymentDto[]; repayAfterRejection?: boolean }) {
  signIn();
  const server = createFakeServer();
  server.on(loanCheck, () => ({ dto: activeLoan }));
  server.on(loanRepaymentGet, () => repayments);
  renderView(<LoanScreen />, { server, path: '/user/loan' });
  await screen.findByTestId('loan-repayment-view');
  await waitFor(() => expect(server.callsOf(loanRepaymentGet)).toHaveLength(1));
  return screen.getByTestId('loan-repay');
}

describe('the repayment view', () => {
  it('after a rejected repayment says so and offers no other (the specification)', async () => {
    const repay = await openLoan({ dtoList: [rejected] });
    expect(await screen.findByRole('alert')).toHaveTextContent(t('loan.p_loan_repayment_reject'));
    expect(repay).toBeDisabled();
  });

  it('lets a rejected repayment be tried again where the brand allows it', async () => {
    const repay = await openLoan({ dtoList: [rejected], repayAfterRejection: true });
    await waitFor(() => expect(repay).toBeEnabled());
  });

  it('repays with no records yet', async () => {
    const repay = await openLoan({ dtoList: [] });
    await waitFor(() => expect(repay).toBeEnabled());
  });
});
