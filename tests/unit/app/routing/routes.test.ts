import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../../src/app/routing/routes';

describe('route table', () => {
  it('matches every route of the specification, with symbol parameters', () => {
    for (const path of ['/', '/search', '/quotation', '/login', '/register', '/forgot', '/position', '/explore', '/history', '/user', '/user/service', '/user/wallet/editBankCard', '/user/wallet/transactionList']) {
      expect(matchRoute(path), path).not.toBeNull();
    }
    expect(matchRoute('/BTCUSDT/chart')?.params).toEqual({ symbol: 'BTCUSDT' });
    expect(matchRoute('/EURUSD/placeOption')?.route.name).toBe('place-option');
    expect(matchRoute('/EURUSD/place')?.route.name).toBe('place');
  });
});
