import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { reviewsList, staffDeclarations } from '../../shared/api/staff';
import { reviewKindsFor, sectionsFor } from '../navigation';
import { ConsolePage, Card } from '../components/section';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';

/** Home: the open items of each queue the member may decide, and the sections they may use. */
export function HomePage() {
  const { t } = useTranslation();
  const { client, me } = useStaff();
  const kinds = reviewKindsFor(me.roles);
  const first = kinds[0];
  // One call answers the counts of every kind the caller may review.
  const counts = useLoad(async () => (first ? (await client.call(reviewsList, { kind: first, page: 1, limit: 1 })).counts : {}), [first]);
  const sections = sectionsFor(me.roles).filter((section) => section.id !== 'home');
  // A member who declared no document decides nothing (2019): told here, before a queue refuses them.
  const declarations = useLoad(() => client.call(staffDeclarations, {}, { silent: true }), []);
  return (
    <ConsolePage title={t('staff.home.title', { email: me.email })}>
      {declarations.data && declarations.data.document === null ? (
        <p role="status" className="staff-warning">
          {t('staff.declarations.document_missing')} <Link href="/declarations">{t('staff.declarations.go')}</Link>
        </p>
      ) : null}
      {kinds.length > 0 ? (
        <Card title={t('staff.home.queues')}>
          <ul className="staff-count-cards">
            {kinds.map((kind) => (
              <li key={kind}>
                <Link href={`/queues/${kind}`} className="staff-count-card">
                  <span>{t(`staff.kinds.${kind}`)}</span>
                  <strong className="numeric" aria-label={t('staff.home.open_count', { kind: t(`staff.kinds.${kind}`) })}>
                    {counts.loading ? '…' : (counts.data?.[kind] ?? 0)}
                  </strong>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <Card title={t('staff.home.sections')}>
        <ul className="staff-link-list">
          {sections.map((section) => (
            <li key={section.id}>
              <Link href={section.href}>{t(section.labelKey)}</Link>
            </li>
          ))}
        </ul>
      </Card>
    </ConsolePage>
  );
}
