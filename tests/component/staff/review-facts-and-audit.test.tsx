import { act, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Route, Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { describe, expect, it } from 'vitest';
import { auditList, reviewsGet, type AuditRow, type ReviewItem } from '../../../src/shared/api/staff';
import type { BrandConfig } from '../../../src/shared/config/brand-config';
import type { StaffClient } from '../../../src/staff/api/staff-client';
import { AuditPage } from '../../../src/staff/pages/audit';
import { ReviewItemPage } from '../../../src/staff/pages/review-item';
import { StaffContext, type StaffSelf } from '../../../src/staff/session/staff-context';
import { consoleI18n } from '../support/i18n';


const deposit: ReviewItem = {
  id: 5,
  kind: 'deposit',
  status: 'pending',
  uid: 1007,
  facts: { currency: 'USDT', network: 'TRC20', amount: '12500.5', amountUsd: '12500.50', paidTo: 'TQ9wXkP2mJ7vR4sD8fG3hN6bV1cZ5aE0yU', locale: 'ja', last24hUsd: '300.00', legacyNote: 'kept as sent' },
  amountUsd: '12501',
  needsTwoApprovals: false,
  createdTime: Date.UTC(2026, 11, 1, 9, 30),
  decidedTime: null,
};

const auditRows: AuditRow[] = [
  { id: 1, staffId: 2, staffEmail: 'cara@example.com', action: 'customers.setTradingProhibited', targetType: 'customer', targetId: '1007', before: { tradeProhibited: false, reason: null }, after: { tradeProhibited: true, reason: 'chargeback' }, time: Date.UTC(2026, 11, 1, 10), address: '10.0.0.1' },
  {
    id: 3, staffId: 1, staffEmail: 'ada@example.com', action: 'config.approveProposal', targetType: 'proposal', targetId: '9',
    before: { kind: 'limits', status: 'proposed', setting: { none: { dailyWithdrawUsd: '1000.00' } } },
    after: { kind: 'limits', status: 'approved', setting: { none: { dailyWithdrawUsd: '1500000.00' } } },
    time: Date.UTC(2026, 11, 1, 12), address: null,
  },
  { id: 4, staffId: 1, staffEmail: 'ada@example.com', action: 'config.setBanners', targetType: 'banners', targetId: null, before: [{ bannerUrl: '/banners/a.svg', sort: 0, active: true }], after: [{ bannerUrl: '/banners/a.svg', sort: 0, active: false }], time: Date.UTC(2026, 11, 1, 13), address: null },
  { id: 2, staffId: 1, staffEmail: 'ada@example.com', action: 'staff.setRoles', targetType: 'staff', targetId: '3', before: { roles: ['support'] }, after: { roles: ['admin', 'finance'] }, time: Date.UTC(2026, 11, 1, 11), address: null },
];

function renderConsole(path: string, routePattern: string, page: () => React.ReactNode, i18n = consoleI18n('de')) {
  const answers = new Map<string, unknown>([
    [reviewsGet.path, { item: deposit, files: [], decisions: [] }],
    [auditList.path, { list: auditRows, pages: 1 }],
  ]);
  const client = { call: async (contract: { path: string }) => answers.get(contract.path) } as unknown as StaffClient;
  const config = { amountCommaGrouping: true, timeZone: 'UTC' } as unknown as BrandConfig;
  const me = { id: 1, email: 'ada@example.com', roles: ['admin', 'finance', 'compliance'] } as unknown as StaffSelf;
  const { hook } = memoryLocation({ path, static: true });
  return render(
    <I18nextProvider i18n={i18n}>
      <StaffContext.Provider value={{ client, me, config, signOut: () => undefined }}>
        <Router hook={hook}>
          <Route path={routePattern}>{page()}</Route>
        </Router>
      </StaffContext.Provider>
    </I18nextProvider>,
  );
}

function factValue(facts: HTMLElement, label: string): string {
  const term = within(facts).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

describe('review facts and audit values, for an operator reading German', () => {
  it("labels a deposit's facts and shows their values formatted, not the server's raw keys", async () => {
    renderConsole('/queues/deposit/5', '/queues/:kind/:id', () => <ReviewItemPage />);
    const facts = (await screen.findByText('Bezahlt an', { selector: 'dt' })).closest('dl')!;
    expect(factValue(facts, 'Währung')).toBe('USDT');
    expect(factValue(facts, 'Netzwerk')).toBe('TRC20');
    expect(factValue(facts, 'Betrag')).toBe('12,500.5');
    expect(factValue(facts, 'Wert')).toBe('12,500.50 USD');
    expect(factValue(facts, 'Wert (USD)')).toBe('12,501.00');
    expect(factValue(facts, 'Gleiche Art, letzte 24 Stunden')).toBe('300.00 USD');
    expect(factValue(facts, 'Sprache des Kunden')).toBe('日本語');
    expect(factValue(facts, 'Bezahlt an')).toBe('TQ9wXkP2mJ7vR4sD8fG3hN6bV1cZ5aE0yU');
    // A fact this console does not know yet still shows, under the server's own name.
    expect(factValue(facts, 'legacyNote')).toBe('kept as sent');
    for (const raw of ['paidTo', 'amountUsd', 'last24hUsd', 'currency']) expect(within(facts).queryByText(raw)).toBeNull();
  });

  it('shows audit changes with field labels and words: no raw null, booleans or JSON arrays', async () => {
    renderConsole('/audit', '/audit', () => <AuditPage />);
    const trading = (await screen.findByText('Handel gesperrt', { selector: '.staff-change-field' })).closest('li')!;
    expect(trading.textContent).toBe('Handel gesperrt: Nein → Ja');
    const reason = within(trading.closest('ul')!).getByText('Begründung').closest('li')!;
    expect(reason.textContent).toBe('Begründung: — → chargeback');
    const roles = screen.getByText('Rollen', { selector: '.staff-change-field' }).closest('li')!;
    expect(roles.textContent).toBe('Rollen: Support → Administrator, Finanzen');
    // A proposal's limits: each level's label and the amount grouped; its status in words.
    const limit = screen.getByText('Einstellung › Nicht verifiziert › Auszahlungen pro 24 Stunden (USD)', { selector: '.staff-change-field' }).closest('li')!;
    expect(limit.textContent).toBe('Einstellung › Nicht verifiziert › Auszahlungen pro 24 Stunden (USD): 1,000.00 → 1,500,000.00');
    const status = within(limit.closest('ul')!).getByText('Status', { selector: '.staff-change-field' }).closest('li')!;
    expect(status.textContent).toBe('Status: Wartet auf Freigabe → Genehmigt');
    // A list of banners by position, not as JSON.
    const banner = screen.getByText('1 › Angezeigt', { selector: '.staff-change-field' }).closest('li')!;
    expect(banner.textContent).toBe('1 › Angezeigt: Ja → Nein');
    const page = document.body.textContent ?? '';
    for (const raw of ['null', '["admin"', 'tradeProhibited', 'false', 'true', 'setting', 'dailyWithdrawUsd', '1500000', 'bannerUrl', '{"']) expect(page).not.toContain(raw);
  });

  it('words the audit changes anew when the operator picks another language', async () => {
    const i18n = consoleI18n('de');
    await i18n.changeLanguage('en');
    renderConsole('/audit', '/audit', () => <AuditPage />, i18n);
    const english = (await screen.findByText('Trading prohibited', { selector: '.staff-change-field' })).closest('li')!;
    expect(english.textContent).toBe('Trading prohibited: No → Yes');
    await act(() => i18n.changeLanguage('de'));
    const german = (await screen.findByText('Handel gesperrt', { selector: '.staff-change-field' })).closest('li')!;
    expect(german.textContent).toBe('Handel gesperrt: Nein → Ja');
  });
});
