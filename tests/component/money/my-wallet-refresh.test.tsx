import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { walletRefreshMs } from '../../../src/app/features/money/wallet/use-wallet-balances';
import { MyWalletPage } from '../../../src/app/pages/user/my-wallet-page';
import { walletBalance, walletRecords } from '../../../src/shared/api/wallet';
import { pushBalance, resetEngineSignals, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

/** Lets the fake server's answers (promises and real timeouts) arrive. */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 30)));
const everyRefresh = (times: number) => act(() => vi.advanceTimersByTime(walletRefreshMs * times));

afterEach(() => {
  vi.useRealTimers();
  resetEngineSignals();
});

describe('the wallet page', () => {
  it('refreshes the balances every 8 s on the my_wallet tab only, and at once when it shows again', async () => {
    // Only the refresh's interval is faked: the answers still come on their own.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    signIn();
    pushBalance('1000.00');
    const server = createFakeServer();
    server.on(walletBalance, () => ({ list: [], totalBalance: '0.00' }));
    server.on(walletRecords, () => ({ list: [], pages: 0 }));
    renderView(<MyWalletPage />, { server, path: '/user/myWallet' });
    const asked = () => server.callsOf(walletBalance).length;
    await settle();
    expect(asked()).toBe(1);
    everyRefresh(1);
    await settle();
    expect(asked()).toBe(2);

    fireEvent.click(screen.getByRole('tab', { name: t('wallet.wallet_record') }));
    await settle();
    everyRefresh(3);
    await settle();
    expect(asked()).toBe(2);

    fireEvent.click(screen.getByRole('tab', { name: t('wallet.my_wallet') }));
    await settle();
    expect(asked()).toBe(3);
    everyRefresh(1);
    await settle();
    expect(asked()).toBe(4);
  });
});
