import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { reviewsDecide, reviewsGet } from '../../shared/api/staff';
import { isOpenReviewStatus, reviewKinds, type ReviewDecision, type ReviewKind } from '../../shared/staff/roles';
import { ReasonDialog } from '../components/reason-dialog';
import { Card, ConsolePage, Facts } from '../components/section';
import { runAction } from '../session/run-action';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { factRows } from './review-facts';
import { useAuthorisedFile } from './authorised-file';

function isKind(value: string): value is ReviewKind {
  return (reviewKinds as readonly string[]).includes(value);
}

/** One review item: its facts, files shown inline, its decision history, and approve / reject. */
export function ReviewItemPage() {
  const { t } = useTranslation();
  const { client, config } = useStaff();
  const format = useFormat();
  const params = useParams<{ kind: string; id: string }>();
  const kind: ReviewKind = isKind(params.kind) ? params.kind : 'deposit';
  const id = Number(params.id);
  const item = useLoad(() => client.call(reviewsGet, { kind, id }), [kind, id]);
  // One requestId per attempt, made when the dialog opens: a retried or double click sends the
  // same id, so the server decides once (a repeated requestId answers the first result).
  const [attempt, setAttempt] = useState<{ decision: ReviewDecision; requestId: string } | null>(null);

  const data = item.data;
  if (!data) {
    return (
      <ConsolePage title={t('staff.reviews.item_title', { kind: t(`staff.kinds.${kind}`), id })}>
        <p className="staff-muted">{item.loading ? t('common.loading') : t('staff.reviews.missing')}</p>
        <Link href={`/queues/${kind}`}>{t('staff.reviews.back')}</Link>
      </ConsolePage>
    );
  }
  const open = isOpenReviewStatus(data.item.status);

  const startAttempt = (decision: ReviewDecision) => setAttempt({ decision, requestId: crypto.randomUUID() });
  const deciding = attempt?.decision ?? null;

  return (
    <ConsolePage
      title={t('staff.reviews.item_title', { kind: t(`staff.kinds.${kind}`), id })}
      actions={
        open ? (
          <>
            <button type="button" className="button secondary" onClick={() => startAttempt('reject')}>
              {t('staff.reviews.reject')}
            </button>
            <button type="button" className="button primary" onClick={() => startAttempt('approve')}>
              {t('staff.reviews.approve')}
            </button>
          </>
        ) : null
      }
    >
      <p className="staff-subtitle">
        <span className={`staff-status staff-review-${data.item.status}`}>{t(`staff.statuses.${data.item.status}`)}</span>
        {data.item.needsTwoApprovals ? <span className="staff-status">{t('staff.reviews.two_approvals')}</span> : null}
        <Link href={`/queues/${kind}`}>{t('staff.reviews.back')}</Link>
      </p>
      <div className="staff-card-grid">
        <Card title={t('staff.reviews.facts')}>
          <Facts
            rows={[
              [t('staff.customer.uid'), <Link key="uid" href={`/customers/${data.item.uid}`}>{data.item.uid}</Link>],
              ...factRows(data.item.facts, { grouping: config.amountCommaGrouping, t }),
              [t('staff.reviews.amount_usd'), data.item.amountUsd === null ? '—' : format.amount(data.item.amountUsd)],
              [t('staff.reviews.created'), format.time(data.item.createdTime)],
              [t('staff.reviews.decided'), format.time(data.item.decidedTime)],
            ]}
          />
        </Card>
        {/* Beside the facts, the proof first: the reviewer compares the two without scrolling. */}
        <div className="staff-card-column">
          <Card title={t('staff.reviews.files')}>
            {data.files.length === 0 ? (
              <p className="staff-muted">{t('staff.reviews.no_files')}</p>
            ) : (
              <div className="staff-files">
                {data.files.map((file) => (
                  <AuthorisedFile key={file.url} name={file.name} url={file.url} />
                ))}
              </div>
            )}
          </Card>
          <Card title={t('staff.reviews.history')}>
            {data.decisions.length === 0 ? (
              <p className="staff-muted">{t('staff.reviews.no_decisions')}</p>
            ) : (
              <ol className="staff-history">
                {data.decisions.map((decision, index) => (
                  <li key={index}>
                    <strong>{t(`staff.decisions.${decision.decision}`)}</strong> · {decision.staff} · <span className="staff-nowrap">{format.time(decision.time)}</span>
                    {decision.reason ? <p className="preformatted">{decision.reason}</p> : null}
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </div>
      </div>
      {attempt ? (
        <ReasonDialog
          title={deciding === 'approve' ? t('staff.reviews.approve') : t('staff.reviews.reject')}
          confirmLabel={deciding === 'approve' ? t('staff.reviews.approve') : t('staff.reviews.reject')}
          optional={deciding === 'approve'}
          onClose={() => setAttempt(null)}
          onSubmit={async (reason) => {
            const current = attempt;
            const done = await runAction(
              () => client.call(reviewsDecide, { kind, id, decision: current.decision, reason: reason || undefined, requestId: current.requestId }),
              current.decision === 'approve' ? t('staff.reviews.approved_done') : t('staff.reviews.rejected_done'),
            );
            if (done) item.reload();
            return done;
          }}
        >
          {data.item.needsTwoApprovals && deciding === 'approve' ? <p>{t('staff.reviews.four_eyes_explain')}</p> : null}
        </ReasonDialog>
      ) : null}
    </ConsolePage>
  );
}

/** A file of a review item, fetched with the staff token (the file route is authorised) and shown inline. */
function AuthorisedFile(props: { name: string; url: string }) {
  const { t } = useTranslation();
  const file = useAuthorisedFile(props.url);
  if (file.state === 'loading') return <p className="staff-muted">{t('common.loading')}</p>;
  if (file.state === 'failed') return <p className="field-error">{t('staff.reviews.file_failed', { name: props.name })}</p>;
  return (
    <figure className="staff-file">
      {file.type.startsWith('image/') ? (
        <img src={file.objectUrl} alt={props.name} />
      ) : (
        <a href={file.objectUrl} download={props.name}>
          {props.name}
        </a>
      )}
      <figcaption>{props.name}</figcaption>
    </figure>
  );
}
