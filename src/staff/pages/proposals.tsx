import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { configProposalsDecide, configProposalsList, proposalStatuses, type ConfigProposal, type ProposalStatus } from '../../shared/api/staff';
import type { ReviewDecision } from '../../shared/staff/roles';
import { ReasonDialog } from '../components/reason-dialog';
import { Card } from '../components/section';
import { ServerPager } from '../components/staff-grid';
import { runAction } from '../session/run-action';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { useChangeText } from './use-change-text';

/** Proposals per page of the server's list (newest first), as the audit trail pages. */
const proposalsPerPage = 50;

/**
 * Dual control (admin): the changes that move money awaiting a second admin, with who
 * proposed them and what changes (before → after). Another admin approves (applied at once)
 * or rejects; the proposer may only reject (withdraw) their own.
 */
export function ProposalsTab() {
  const { t } = useTranslation();
  const { client, me } = useStaff();
  const format = useFormat();
  const change = useChangeText();
  const [status, setStatus] = useState<ProposalStatus | 'all'>('proposed');
  const [page, setPage] = useState(1);
  const proposals = useLoad(() => client.call(configProposalsList, { status: status === 'all' ? undefined : status, page, limit: proposalsPerPage }), [status, page]);
  // One requestId per attempt, made when the dialog opens: a retried click decides once.
  const [attempt, setAttempt] = useState<{ proposal: ConfigProposal; decision: ReviewDecision; requestId: string } | null>(null);
  const list = proposals.data?.list ?? [];

  return (
    <Card
      title={t('staff.proposals.title')}
      actions={
        <label className="staff-inline-field">
          <span>{t('staff.proposals.status_filter')}</span>
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as ProposalStatus | 'all');
              setPage(1);
            }}
          >
            {proposalStatuses.map((candidate) => (
              <option key={candidate} value={candidate}>
                {t(`staff.proposals.statuses.${candidate}`)}
              </option>
            ))}
            <option value="all">{t('staff.proposals.all')}</option>
          </select>
        </label>
      }
    >
      <p className="staff-muted">{t('staff.proposals.intro')}</p>
      {list.length === 0 && !proposals.loading ? <p className="staff-muted">{t('staff.proposals.none')}</p> : null}
      <ul className="staff-proposals">
        {list.map((proposal) => {
          const own = proposal.proposedBy.staffId === me.staffId;
          return (
            <li key={proposal.id} className="staff-proposal" aria-label={`${t(`staff.proposals.kinds.${proposal.kind}`, { defaultValue: proposal.kind })} ${proposal.target ?? ''}`}>
              <header className="staff-proposal-header">
                <strong>
                  {t(`staff.proposals.kinds.${proposal.kind}`, { defaultValue: proposal.kind })} {proposal.target ?? ''}
                </strong>
                <span className={`staff-badge staff-badge-${proposal.status}`}>{t(`staff.proposals.statuses.${proposal.status}`)}</span>
              </header>
              <dl className="staff-facts">
                <div>
                  <dt>{t('staff.proposals.proposed_by')}</dt>
                  <dd>{proposal.proposedBy.email}</dd>
                </div>
                <div>
                  <dt>{t('staff.proposals.proposed_time')}</dt>
                  <dd>{format.time(proposal.proposedTime)}</dd>
                </div>
                {proposal.decidedBy ? (
                  <div>
                    <dt>{t('staff.proposals.decided_by')}</dt>
                    <dd>
                      {proposal.decidedBy.email} · {format.time(proposal.decidedTime)}
                      {proposal.reason ? ` · ${proposal.reason}` : ''}
                    </dd>
                  </div>
                ) : null}
              </dl>
              <table className="staff-change-table">
                <caption className="visually-hidden">{t('staff.proposals.change')}</caption>
                <tbody>
                  {change.describe(proposal.before, proposal.after).map((line) => (
                    <tr key={line.field}>
                      <th scope="row">{change.fieldLabel(line.field)}</th>
                      <td>{line.before}</td>
                      <td aria-hidden="true">→</td>
                      <td>{line.after}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {proposal.status === 'proposed' ? (
                <div className="staff-row">
                  {own ? (
                    <span className="staff-muted">{t('staff.proposals.own')}</span>
                  ) : (
                    <button type="button" className="button primary staff-small-button" aria-label={t('staff.proposals.approve_named', { id: proposal.id })} onClick={() => setAttempt({ proposal, decision: 'approve', requestId: crypto.randomUUID() })}>
                      {t('staff.proposals.approve')}
                    </button>
                  )}
                  <button type="button" className="button secondary staff-small-button" aria-label={t('staff.proposals.reject_named', { id: proposal.id })} onClick={() => setAttempt({ proposal, decision: 'reject', requestId: crypto.randomUUID() })}>
                    {t('staff.proposals.reject')}
                  </button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      <ServerPager page={page} pages={proposals.data?.pages ?? 1} onPage={setPage} />
      {attempt ? (
        <ReasonDialog
          title={attempt.decision === 'approve' ? t('staff.proposals.approve_named', { id: attempt.proposal.id }) : t('staff.proposals.reject_named', { id: attempt.proposal.id })}
          confirmLabel={attempt.decision === 'approve' ? t('staff.proposals.approve') : t('staff.proposals.reject')}
          optional
          onClose={() => setAttempt(null)}
          onSubmit={async (reason) => {
            const current = attempt;
            const done = await runAction(
              () => client.call(configProposalsDecide, { proposalId: current.proposal.id, decision: current.decision, reason: reason || undefined, requestId: current.requestId }),
              current.decision === 'approve' ? t('staff.proposals.approved_done', { id: current.proposal.id }) : t('staff.proposals.rejected_done', { id: current.proposal.id }),
            );
            if (done) proposals.reload();
            return done;
          }}
        >
          {attempt.decision === 'approve' ? <p>{t('staff.proposals.approve_confirm')}</p> : null}
        </ReasonDialog>
      ) : null}
    </Card>
  );
}
