import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AddCryptoPage } from '../../../src/app/pages/withdraw/add-crypto-page';
import { CryptoWalletPage } from '../../../src/app/pages/withdraw/crypto-wallet-page';
import { walletCoinNetworks } from '../../../src/shared/api/wallet';
import { cryptoWalletList } from '../../../src/shared/api/withdraw';
import { signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

function cryptoServer() {
  const server = createFakeServer();
  server.on(walletCoinNetworks, () => ({ dtoList: [] }));
  server.on(cryptoWalletList, () => ({ list: [], pages: 0 }));
  return server;
}

describe('the way back from the crypto pages (the specification)', () => {
  it('goes from addCrypto to /user, then /user/wallet, then /user/wallet/crypto', async () => {
    signIn();
    const { user, location } = renderView(<AddCryptoPage />, { server: cryptoServer(), path: '/user/wallet/addCrypto' });
    await user.click(await screen.findByRole('button', { name: t('common.back') }));
    expect(location.history).toEqual(['/user', '/user/wallet', '/user/wallet/crypto']);
  });

  it('goes from the crypto list to /user, then /user/wallet', async () => {
    signIn();
    const { user, location } = renderView(<CryptoWalletPage />, { server: cryptoServer(), path: '/user/wallet/crypto' });
    await user.click(await screen.findByRole('button', { name: t('common.back') }));
    expect(location.history).toEqual(['/user', '/user/wallet']);
  });
});
