import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DepositForm, type DepositCoinOption } from '../../../src/app/features/money/deposit/deposit-form';
import { depositSubmit } from '../../../src/shared/api/deposit';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { qrCodeDataUrl } from '../../../src/app/features/money/deposit/deposit-qr';
import { minimumDepositUsd } from '../../../src/shared/money/deposit-rules';
import { idempotencyHeader } from '../../../src/shared/api/idempotency';
import { uploadPartNames } from '../../../src/shared/api/uploads';
import { signIn } from '../support/engine-state';
import { createFakeServer, Refusal } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

const coins: DepositCoinOption[] = [
  { id: 11, currency: 'USDT', protocol: 'TRC20', address: 'TPlatformTronAddress', said: 'TPlatformTronAddress', logoUrl: '' },
  { id: 12, currency: 'USDT', protocol: 'ERC20', address: '0xPlatformEthereumAddress', said: '0xPlatformEthereumAddress', logoUrl: '' },
];

/** A small PNG a customer might pick as proof (the bytes of a 1 × 1 image). */
const pngBytes = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (char) => char.charCodeAt(0));
const proofPng = () => new File([pngBytes], 'transfer.png', { type: 'image/png' });

function acceptingServer() {
  const server = createFakeServer();
  server.on(depositSubmit, () => null);
  return server;
}

/** Step two for the network; the server accepts the deposit unless the test gives one that answers otherwise. */
async function openStepTwo(coin: string, server = acceptingServer()) {
  signIn();
  const view = renderView(<DepositForm coins={coins} />, { server, path: '/user/deposit' });
  await view.user.selectOptions(screen.getByRole('combobox', { name: t('deposit.choose_coin') }), coin);
  await view.user.click(screen.getByRole('button', { name: t('deposit.next') }));
  const amount = screen.getByRole('textbox', { name: t('deposit.amount') });
  return { ...view, amount, done: screen.getByRole('button', { name: t('deposit.done') }), proof: screen.getByLabelText(t('deposit.proof'), { selector: 'input' }) };
}

describe('the deposit form', () => {
  it('shows the address as a QR code beside its text on step 1, redrawn for another network', async () => {
    signIn();
    const { user } = renderView(<DepositForm coins={coins} />);
    const qr = await screen.findByRole('img', { name: t('deposit.qr_alt', { network: 'USDT · TRC20' }) });
    expect(qr).toHaveAttribute('src', await qrCodeDataUrl('TPlatformTronAddress'));
    expect(screen.getByTestId('deposit-address')).toHaveTextContent('TPlatformTronAddress');
    expect(screen.getByRole('button', { name: t('deposit.copy') })).toBeVisible();
    await user.selectOptions(screen.getByRole('combobox', { name: t('deposit.choose_coin') }), 'USDT · ERC20');
    const redrawn = await screen.findByRole('img', { name: t('deposit.qr_alt', { network: 'USDT · ERC20' }) });
    await waitFor(async () => expect(redrawn).toHaveAttribute('src', await qrCodeDataUrl('0xPlatformEthereumAddress')));
    expect(redrawn.getAttribute('src')).not.toBe(await qrCodeDataUrl('TPlatformTronAddress'));
  });

  it('says the minimum deposit of the reader\'s language on step 1, the one the server holds them to', async () => {
    signIn();
    renderView(<DepositForm coins={coins} />);
    expect(screen.getByTestId('deposit-step-1')).toBeInTheDocument();
    expect(screen.getByTestId('deposit-minimum')).toHaveTextContent(t('deposit.minimum_hint', { amount: minimumDepositUsd('en') }));
    expect(minimumDepositUsd('en')).toBe('1000');
  });

  it('shows the chosen network\'s address to pay into', async () => {
    signIn();
    const { user } = renderView(<DepositForm coins={coins} />);
    expect(screen.getByTestId('deposit-address')).toHaveTextContent('TPlatformTronAddress');
    await user.selectOptions(screen.getByRole('combobox', { name: t('deposit.choose_coin') }), 'USDT · ERC20');
    expect(screen.getByTestId('deposit-address')).toHaveTextContent('0xPlatformEthereumAddress');
  });

  it('asks for the amount, the proof and the agreement before sending anything', async () => {
    const { user, server, done } = await openStepTwo('USDT · TRC20');
    await user.click(done);
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts).toEqual([t('deposit.enter_amount'), t('deposit.upload_proof'), t('deposit.read_agreement')]);
    expect(server.callsOf(depositSubmit)).toEqual([]);
  });

  it('takes digits and one dot with at most 5 decimals, and refuses a leading dot or nothing above zero', async () => {
    const { user, amount, done } = await openStepTwo('USDT · TRC20');
    await user.type(amount, '12a.3456789');
    expect(amount).toHaveValue('12.34567');

    await user.clear(amount);
    await user.type(amount, '.5');
    await user.click(done);
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent(t('deposit.enter_amount'));

    await user.clear(amount);
    await user.type(amount, '0.00');
    await user.click(done);
    expect(screen.getAllByRole('alert')[0]).toHaveTextContent(t('deposit.not_positive'));
  });

  it('sends nothing until the agreement is ticked, however complete the rest', async () => {
    const { user, server, amount, proof, done } = await openStepTwo('USDT · TRC20');
    await user.type(amount, '1500');
    await user.upload(proof, proofPng());
    await screen.findByRole('img', { name: t('deposit.proof') });
    await user.click(done);
    expect(screen.getByRole('alert')).toHaveTextContent(t('deposit.read_agreement'));
    expect(server.callsOf(depositSubmit)).toEqual([]);
  });

  it('warns at the proof picker to use the native camera first, as the specification asks of file pickers', async () => {
    await openStepTwo('USDT · TRC20');
    expect(screen.getByTestId('deposit-camera-warning')).toHaveTextContent(t('notice.native_camera_first'));
    expect(screen.getByText(t('notice.native_camera_first'))).toBeVisible();
  });

  it('refuses a proof that is not a photo or screenshot', async () => {
    const { user, proof } = await openStepTwo('USDT · TRC20');
    await user.upload(proof, new File(['GIF89a'], 'transfer.gif', { type: 'image/gif' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(t('upload.illegal_extension'));
  });

  it('says at the amount what one deposit may be worth at most when the server refuses it over the maximum, and keeps the form', async () => {
    const server = createFakeServer();
    server.on(depositSubmit, () => new Refusal(ErrorCode.DEPOSIT_OVER_MAXIMUM, 'A single deposit can be worth at most 10000.00 USD', { maxUsd: '10000.00' }));
    const { user, amount, proof, done } = await openStepTwo('USDT · TRC20', server);
    await user.type(amount, '25000');
    await user.upload(proof, proofPng());
    await screen.findByRole('img', { name: t('deposit.proof') });
    await user.click(screen.getByRole('checkbox', { name: t('deposit.agreement_read') }));
    await user.click(done);

    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('A single deposit can be worth at most 10,000.00 USD');
    // Beside the amount the customer corrects, not in a toast that goes (and covers Done on a small phone).
    expect(amount).toHaveAccessibleDescription(expect.stringContaining('10,000.00 USD'));
    expect(screen.queryByText(/above the maximum allowed/)).toBeNull();
    expect(amount).toHaveValue('25000');
    expect(screen.getByTestId('deposit-step-2')).toBeInTheDocument();
  });

  it('sends the amount, the network, its address and the proof as one deposit, then starts over', async () => {
    const { user, server, amount, proof, done } = await openStepTwo('USDT · ERC20');
    await user.type(amount, '1500.5');
    await user.upload(proof, proofPng());
    expect(await screen.findByRole('img', { name: t('deposit.proof') })).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: t('deposit.agreement_read') }));
    await user.click(done);

    await waitFor(() => expect(server.callsOf(depositSubmit)).toHaveLength(1));
    const [call] = server.callsOf(depositSubmit);
    expect(call?.body).toMatchObject({ coinId: 12, amt: '1500.5', said: '0xPlatformEthereumAddress', locale: 'en' });
    expect(call?.files[uploadPartNames.depositProof]?.name).toBe('transfer.png');
    expect(call?.headers[idempotencyHeader]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await screen.findByRole('status')).toHaveTextContent(t('deposit.submitted'));
    expect(await screen.findByTestId('deposit-step-1')).toBeInTheDocument();
  });
});
