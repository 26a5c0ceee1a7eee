import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConfirmHost } from '../../../src/app/components/confirm';
import { staffDeclarations, staffDeclareAccount, staffDeclareDocument } from '../../../src/shared/api/staff';
import { DeclarationsPage } from '../../../src/staff/pages/declarations';
import { renderConsolePage } from '../support/console';
import { createFakeServer } from '../support/fake-server';

/** The page over a fake server whose member has declared nothing yet; declaring changes what it answers next. */
function renderDeclarations() {
  const server = createFakeServer();
  let document: { masked: string; declaredTime: number } | null = null;
  const accounts: { uid: number; recordedBy: string; time: number }[] = [];
  server.on(staffDeclarations, () => ({ document, accounts }));
  server.on(staffDeclareDocument, (body) => {
    document = { masked: `${body.documentNumber.slice(0, 2)}****${body.documentNumber.slice(-2)}`, declaredTime: 1_796_000_000_000 };
    return null;
  });
  server.on(staffDeclareAccount, (body) => {
    accounts.push({ uid: body.uid, recordedBy: 'finance@bank.example', time: 1_796_000_000_000 });
    return null;
  });
  renderConsolePage(
    <>
      <DeclarationsPage />
      <ConfirmHost />
    </>,
    server,
    { staffId: 3, email: 'finance@bank.example', roles: ['finance'] },
  );
  return server;
}

describe('the member’s declarations page', () => {
  it('refuses a document number shorter than 4 characters besides spaces and dashes, sending nothing', async () => {
    const user = userEvent.setup();
    const server = renderDeclarations();
    const card = await screen.findByRole('region', { name: 'My identity document' });
    await user.type(within(card).getByLabelText('Document number'), 'A1- 2');
    await user.click(within(card).getByRole('button', { name: 'Declare document' }));
    expect(within(card).getByText('Enter the number as printed on the document (at least 4 characters).')).toBeVisible();
    expect(server.bodiesOf(staffDeclareDocument)).toEqual([]);
  });

  it('declares the document only once confirmed, then shows its mask and no form to change it', async () => {
    const user = userEvent.setup();
    const server = renderDeclarations();
    const card = await screen.findByRole('region', { name: 'My identity document' });
    await user.type(within(card).getByLabelText('Document number'), ' P1234567 ');
    await user.click(within(card).getByRole('button', { name: 'Declare document' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Declare P1234567 as your own identity document? It cannot be changed afterwards.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(server.bodiesOf(staffDeclareDocument)).toEqual([]);

    await user.click(within(card).getByRole('button', { name: 'Declare document' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Declare document' }));
    expect(await within(card).findByText('P1****67')).toBeVisible();
    expect(server.bodiesOf(staffDeclareDocument)).toEqual([{ documentNumber: 'P1234567' }]);
    expect(within(card).queryByRole('button', { name: 'Declare document' })).toBeNull();
  });

  it('takes a customer UID of digits only, and lists the declared account', async () => {
    const user = userEvent.setup();
    const server = renderDeclarations();
    const card = await screen.findByRole('region', { name: 'My customer accounts' });
    expect(await within(card).findByText('No customer account declared.')).toBeVisible();
    for (const typed of ['12ab', '0', '-5']) {
      await user.clear(within(card).getByLabelText('Customer UID'));
      await user.type(within(card).getByLabelText('Customer UID'), typed);
      await user.click(within(card).getByRole('button', { name: 'Declare account' }));
      expect(within(card).getByText("Enter the customer account's UID (digits only).")).toBeVisible();
    }
    expect(server.bodiesOf(staffDeclareAccount)).toEqual([]);
    await user.clear(within(card).getByLabelText('Customer UID'));
    await user.type(within(card).getByLabelText('Customer UID'), '1042');
    await user.click(within(card).getByRole('button', { name: 'Declare account' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Declare account' }));
    expect(await within(card).findByRole('cell', { name: '1042' })).toBeVisible();
    expect(server.bodiesOf(staffDeclareAccount)).toEqual([{ uid: 1042 }]);
  });
});
