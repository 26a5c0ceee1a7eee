import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ResetDemoButton } from '../../../src/app/features/trading/positions/position-parts';
import { resetMock } from '../../../src/shared/api/account';
import { resetEngineSignals, signIn } from '../support/engine-state';
import { createFakeServer } from '../support/fake-server';
import { t } from '../support/i18n';
import { renderView } from '../support/render';

afterEach(() => resetEngineSignals());

describe('the demo reset', () => {
  it('resets after a confirmation and says "operation success", the specification\'s words', async () => {
    signIn('demo');
    const server = createFakeServer();
    server.on(resetMock, () => null);
    const { user } = renderView(<ResetDemoButton />, { server });
    await user.click(screen.getByRole('button', { name: t('position.reset_demo') }));
    await user.click(within(await screen.findByRole('dialog', { name: t('position.reset_demo') })).getByRole('button', { name: t('common.confirm') }));
    await waitFor(() => expect(server.callsOf(resetMock)).toHaveLength(1));
    expect(await screen.findByRole('status')).toHaveTextContent(t('notice.operation_success'));
  });
});
