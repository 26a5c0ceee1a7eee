import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { configProposalsList, type ConfigProposal } from '../../../src/shared/api/staff';
import { ProposalsTab } from '../../../src/staff/pages/proposals';
import { renderConsolePage } from '../support/console';
import { createFakeServer } from '../support/fake-server';


/** Proposal n of a long history: a limits change by another admin, still open. */
function proposal(id: number): ConfigProposal {
  return {
    id,
    kind: 'limits',
    target: `change-${id}`,
    status: 'proposed',
    proposedBy: { staffId: 7, email: 'proposer@bank.example' },
    proposedTime: 1_796_000_000_000 + id,
    before: { dailyWithdrawUsd: '10000.00' },
    after: { dailyWithdrawUsd: `${10000 + id}.00` },
    decidedBy: null,
    decidedTime: null,
    reason: null,
  };
}

function renderProposals(total: number) {
  const server = createFakeServer();
  server.on(configProposalsList, (body) => {
    const ids = Array.from({ length: total }, (_, index) => total - index).slice((body.page - 1) * body.limit, body.page * body.limit);
    return { list: ids.map(proposal), pages: Math.ceil(total / body.limit) };
  });
  renderConsolePage(<ProposalsTab />, server, { staffId: 1, email: 'admin@bank.example', roles: ['admin'] });
  return server;
}

const proposalItems = () => screen.getAllByRole('listitem').filter((item) => item.classList.contains('staff-proposal'));

describe('the dual-control proposals page', () => {
  it('pages through more than 50 open proposals: the 51st, the oldest, is on page 2', async () => {
    const user = userEvent.setup();
    const server = renderProposals(51);
    expect(await screen.findByText('Page 1 of 2')).toBeVisible();
    expect(proposalItems()).toHaveLength(50);
    expect(screen.getByRole('listitem', { name: /change-51/ })).toBeVisible();
    expect(screen.queryByRole('listitem', { name: /change-1$/ })).toBeNull();

    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 2')).toBeVisible();
    const oldest = await screen.findByRole('listitem', { name: /change-1$/ });
    expect(within(oldest).getByText('proposer@bank.example')).toBeVisible();
    expect(proposalItems()).toHaveLength(1);
    expect(server.bodiesOf(configProposalsList).at(-1)).toMatchObject({ status: 'proposed', page: 2, limit: 50 });

    // Another status starts again at its first page.
    await user.selectOptions(screen.getByRole('combobox'), 'all');
    expect(await screen.findByText('Page 1 of 2')).toBeVisible();
    expect(server.bodiesOf(configProposalsList).at(-1)).toEqual({ page: 1, limit: 50 });
  });

  it('shows no pager while every proposal fits on one page', async () => {
    renderProposals(3);
    expect(await screen.findByRole('listitem', { name: /change-3/ })).toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });
});
