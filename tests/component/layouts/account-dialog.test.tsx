import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { confirmDialog } from '../../../src/app/components/confirm';
import { WithdrawForm } from '../../../src/app/features/money/withdraw/withdraw-form';
import { AccountDialog } from '../../../src/app/layouts/account-dialog';
import { userInfo } from '../../../src/shared/api/account';
import { walletCoinNetworks } from '../../../src/shared/api/wallet';
import { bankCardList, cryptoWalletList, withdrawStatus } from '../../../src/shared/api/withdraw';
import { signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

function accountServer() {
  const server = createFakeServer();
  server.on(userInfo, () => ({ nick: 'Ana', uid: 7, avator: '', email: 'ana@example.com', inviteCode: 'ANA7', registerType: 'E' as const, walletType: 0, verifiedStatus: 2, account: { balanceAmount: '1000.00', lockMargin: '0.00' } }));
  server.on(withdrawStatus, () => ({ cryptoEnabled: true, bankCardEnabled: false }));
  server.on(walletCoinNetworks, () => ({ dtoList: [] }));
  server.on(cryptoWalletList, () => ({ list: [], pages: 0 }));
  server.on(bankCardList, () => ({ list: [], pages: 0 }));
  return server;
}

/**
 * The terminal with its account button and, once opened, the account dialog over it with
 * the withdraw page inside. `tick` stands for the live prices that re-render the terminal
 * (and so the dialog, with a new `onClose`) many times a second.
 */
function Terminal(props: { tick: number; opened?: boolean }) {
  const [open, setOpen] = useState(props.opened ?? false);
  return (
    <main data-tick={props.tick}>
      <button type="button" onClick={() => setOpen(true)}>
        Account
      </button>
      {open ? (
        <AccountDialog route="user-withdraw" onClose={() => setOpen(false)}>
          <WithdrawForm />
        </AccountDialog>
      ) : null}
    </main>
  );
}

async function openAccount() {
  signIn();
  const view = renderView(<Terminal tick={0} />, { server: accountServer(), path: '/user/withdraw' });
  const opener = screen.getByRole('button', { name: 'Account' });
  await view.user.click(opener);
  const dialog = screen.getByRole('dialog', { name: t('page.user') });
  return { ...view, opener, dialog };
}

describe('the account dialog', () => {
  it('takes focus as it opens, and marks the page shown in its menu', async () => {
    const { dialog } = await openAccount();
    expect(dialog).toHaveFocus();
    const menu = await within(dialog).findByRole('navigation', { name: t('user.menu') });
    expect(within(menu).getByRole('link', { name: t('page.withdraw') })).toHaveAttribute('aria-current', 'page');
  });

  it('closes on Escape and gives focus back to what opened it', async () => {
    const { user, opener } = await openAccount();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  it('leaves Escape to a confirmation on top of it', async () => {
    const { user, dialog } = await openAccount();
    let answered: boolean | null = null;
    void confirmDialog({ title: 'Remove this card?', message: 'It can be added again.' }).then((confirmed) => (answered = confirmed));
    const confirmation = await screen.findByRole('dialog', { name: 'Remove this card?' });
    expect(confirmation).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(answered).toBe(false));
    expect(screen.queryByRole('dialog', { name: 'Remove this card?' })).not.toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
  });

  it('keeps a field typed in at once, and its focus, while the terminal beneath re-renders', async () => {
    const { user, rerender } = await openAccount();
    const amount = await screen.findByRole('textbox', { name: t('withdraw.amount') });
    await user.click(amount);
    await user.type(amount, '250');
    rerender(<Terminal tick={1} />);
    rerender(<Terminal tick={2} />);
    expect(amount).toHaveFocus();
    expect(amount).toHaveValue('250');
    await user.type(amount, '0');
    expect(amount).toHaveValue('2500');
  });

  it('keeps Tab inside while it is open', async () => {
    const { user, dialog } = await openAccount();
    await within(dialog).findByRole('textbox', { name: t('withdraw.amount') });
    for (let step = 0; step < 30; step += 1) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });
});
