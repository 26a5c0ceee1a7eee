import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DepositPage } from '../../../src/app/pages/user/deposit-page';
import { userInfo } from '../../../src/shared/api/account';
import { depositStatus } from '../../../src/shared/api/deposit';
import { walletCoinNetworks, walletSelfNetworks, type CoinNetworkOption } from '../../../src/shared/api/wallet';
import { signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { renderView } from '../support/render';

const platformTron: CoinNetworkOption = {
  id: 11,
  currencyId: 3,
  currency: 'USDT',
  protocol: 'TRC20',
  address: 'TPlatformDepositAddress0001',
  said: 'TPlatformDepositAddress0001',
  logoUrl: '',
  minWithdrawAmount: '50',
  maxWithdrawAmount: '10000000',
  feeType: 'FIX_AMOUNT',
  feeNum: '1',
};
const ownAddress = 'TCustomersOwnDepositAddress9';

function depositServer(walletType: number) {
  const server = createFakeServer();
  server.on(userInfo, () => ({ nick: 'Ana', uid: 7, avator: '', email: 'ana@example.com', inviteCode: 'ANA7', registerType: 'E' as const, walletType, verifiedStatus: 2, account: { balanceAmount: '0.00', lockMargin: '0.00' } }));
  server.on(depositStatus, () => ({ enabled: true }));
  server.on(walletCoinNetworks, () => ({ dtoList: [platformTron] }));
  server.on(walletSelfNetworks, () => ({ dtoList: [{ ...platformTron, address: ownAddress, said: ownAddress }] }));
  return server;
}

describe('the deposit page', () => {
  it('offers a self-owned wallet (walletType 1) its own addresses, from the self wallet list', async () => {
    signIn();
    const server = depositServer(1);
    renderView(<DepositPage />, { server, path: '/user/deposit' });
    expect(await screen.findByText(ownAddress)).toBeInTheDocument();
    expect(server.callsOf(walletSelfNetworks)).toHaveLength(1);
    expect(server.callsOf(walletCoinNetworks)).toHaveLength(0);
  });

  it('offers everyone else the platform’s addresses', async () => {
    signIn();
    const server = depositServer(0);
    renderView(<DepositPage />, { server, path: '/user/deposit' });
    expect(await screen.findByText(platformTron.address)).toBeInTheDocument();
    await waitFor(() => expect(server.callsOf(walletCoinNetworks)).toHaveLength(1));
    expect(server.callsOf(walletSelfNetworks)).toHaveLength(0);
  });
});
