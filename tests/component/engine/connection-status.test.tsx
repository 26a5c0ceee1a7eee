import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfirmHost } from '../../../src/app/components/confirm';
import { ConnectionIndicator } from '../../../src/app/components/connection-indicator';
import { MarketStatus } from '../../../src/app/components/market-status';
import { marketSignal } from '../../../src/app/engine/signals';
import { initialMarketSnapshot, type MarketSnapshot } from '../../../src/shared/protocol/engine';
import { english } from '../support/i18n';

function show(change: Partial<MarketSnapshot>) {
  act(() => {
    marketSignal.value = { ...initialMarketSnapshot, ready: true, ...change };
  });
}

function renderStatus() {
  return render(
    <I18nextProvider i18n={english}>
      <ConnectionIndicator />
      <MarketStatus />
      <ConfirmHost />
    </I18nextProvider>,
  );
}

afterEach(() => {
  marketSignal.value = initialMarketSnapshot;
});

describe('the connection as the terminal shows it', () => {
  it('names the connection live, delayed, connecting or offline, with an accessible name', () => {
    renderStatus();
    show({ status: 'open' });
    expect(screen.getByRole('img', { name: 'Price connection: Live' })).toBeTruthy();
    show({ status: 'open', stale: true });
    expect(screen.getByRole('img', { name: 'Price connection: Delayed' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Prices are delayed: no update for 10 seconds');
    show({ status: 'closed', stale: true });
    expect(screen.getByRole('img', { name: 'Price connection: Connecting…' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Trying to reconnect…');
    expect(document.documentElement.hasAttribute('data-prices-stale')).toBe(true);
    show({ status: 'closed', stale: true, connectionFailed: true });
    expect(screen.getByRole('img', { name: 'Price connection: Offline' })).toBeTruthy();
    // Live again: the prices are no longer greyed.
    show({ status: 'open' });
    expect(document.documentElement.hasAttribute('data-prices-stale')).toBe(false);
  });

  it('raises the reload alert after the failures, and takes it down by itself once the connection is back', async () => {
    renderStatus();
    show({ status: 'closed', stale: true, connectionFailed: true });
    expect((await screen.findByRole('dialog')).textContent).toContain('The connection to the market failed');
    show({ status: 'open' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('img', { name: 'Price connection: Live' })).toBeTruthy();
  });
});
