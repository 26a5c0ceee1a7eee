import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DepositForm, type DepositCoinOption } from '../../../src/app/features/money/deposit/deposit-form';
import { depositSubmit } from '../../../src/shared/api/deposit';
import { ErrorCode } from '../../../src/shared/errors/catalogue';
import { signIn } from '../support/engine-state';
import { createFakeServer, Refusal } from '../support/fake-server';
import { english, germanI18n } from '../support/i18n';
import { renderView } from '../support/render';

const coins: DepositCoinOption[] = [{ id: 11, currency: 'USDT', protocol: 'TRC20', address: 'TPlatformTronAddress', said: 'TPlatformTronAddress', logoUrl: '' }];
const pngBytes = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (char) => char.charCodeAt(0));

/**
 * A deposit under the minimum, refused by a server that words its reason as the real one
 * does (tests/api/deposits.test.ts): the minimum in the message, in the language it names
 * in Content-Language. The reader sees those words when they are in the reader's language.
 */
async function refusedDeposit(language: 'en' | 'de', refusal: Refusal) {
  const strings = language === 'de' ? germanI18n() : english;
  const t = strings.t.bind(strings);
  const server = createFakeServer();
  server.on(depositSubmit, () => refusal);
  signIn();
  const { user } = renderView(<DepositForm coins={coins} />, { server, path: '/user/deposit', language });
  await user.click(screen.getByRole('button', { name: t('deposit.next') }));
  await user.type(screen.getByRole('textbox', { name: t('deposit.amount') }), '20');
  await user.upload(screen.getByLabelText(t('deposit.proof'), { selector: 'input' }), new File([pngBytes], 'transfer.png', { type: 'image/png' }));
  await screen.findByRole('img', { name: t('deposit.proof') });
  await user.click(screen.getByRole('checkbox', { name: t('deposit.agreement_read') }));
  await user.click(screen.getByRole('button', { name: t('deposit.done') }));
  await waitFor(() => expect(server.callsOf(depositSubmit)).toHaveLength(1));
  return { t, server };
}

describe('a refusal told in the reader\'s language', () => {
  it('shows the server\'s specific reason to an English reader, not the code\'s generic text', async () => {
    const { t } = await refusedDeposit('en', new Refusal(ErrorCode.INCORRECT_PARAMETER_VALUE, 'The minimum deposit is 1000 USD (1016)', null, 'en'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The minimum deposit is 1000 USD (1016)');
    expect(screen.queryByText(new RegExp(t(`errors.${ErrorCode.INCORRECT_PARAMETER_VALUE}`)))).toBeNull();
  });

  it('shows the German reason to a German reader, the request having asked for German', async () => {
    const { server } = await refusedDeposit('de', new Refusal(ErrorCode.INCORRECT_PARAMETER_VALUE, 'Die Mindesteinzahlung beträgt 30 USD (1016)', null, 'de'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Die Mindesteinzahlung beträgt 30 USD (1016)');
    const [call] = server.callsOf(depositSubmit);
    expect(call?.headers['accept-language']).toBe('de');
    expect(call?.body).toMatchObject({ locale: 'de' });
  });

  it('falls back to the code\'s text in the reader\'s language when the server wrote in another', async () => {
    const { t } = await refusedDeposit('de', new Refusal(ErrorCode.INCORRECT_PARAMETER_VALUE, 'The minimum deposit is 1000 USD (1016)', null, 'en'));
    expect(await screen.findByRole('alert')).toHaveTextContent(`${t(`errors.${ErrorCode.INCORRECT_PARAMETER_VALUE}`)} (1016)`);
    expect(screen.queryByText(/minimum deposit is/)).toBeNull();
  });
});
