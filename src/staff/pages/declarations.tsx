import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDialog } from '../../app/components/confirm';
import { TextField } from '../../app/components/text-field';
import { staffDeclarations, staffDeclareAccount, staffDeclareDocument } from '../../shared/api/staff';
import { canonicalDocumentNumber } from '../../shared/staff/conflict-of-interest';
import { Card, ConsolePage, Facts } from '../components/section';
import { runAction } from '../session/run-action';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';

/** The shortest document number the server takes (src/shared/api/staff.ts). */
const documentMinLength = 4;

/**
 * The member's conflict-of-interest declarations: their own identity document (once, before
 * any decision) and the customer accounts that are theirs. Neither can be taken back, so each
 * is confirmed first.
 */
export function DeclarationsPage() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const format = useFormat();
  const declarations = useLoad(() => client.call(staffDeclarations, {}), []);
  const [documentNumber, setDocumentNumber] = useState('');
  const [documentError, setDocumentError] = useState<string | null>(null);
  const [uid, setUid] = useState('');
  const [uidError, setUidError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const declareDocument = async (event: FormEvent) => {
    event.preventDefault();
    if (canonicalDocumentNumber(documentNumber).length < documentMinLength) {
      setDocumentError(t('staff.declarations.document_invalid', { min: documentMinLength }));
      return;
    }
    setDocumentError(null);
    const confirmed = await confirmDialog({
      title: t('staff.declarations.document_title'),
      message: t('staff.declarations.document_confirm', { number: documentNumber.trim() }),
      confirmLabel: t('staff.declarations.document_submit'),
    });
    if (!confirmed) return;
    setBusy(true);
    const done = await runAction(() => client.call(staffDeclareDocument, { documentNumber: documentNumber.trim() }), t('staff.declarations.document_done'));
    setBusy(false);
    if (done) {
      setDocumentNumber('');
      declarations.reload();
    }
  };

  const declareAccount = async (event: FormEvent) => {
    event.preventDefault();
    const value = uid.trim();
    if (!/^[1-9]\d{0,9}$/.test(value)) {
      setUidError(t('staff.declarations.uid_invalid'));
      return;
    }
    setUidError(null);
    const confirmed = await confirmDialog({
      title: t('staff.declarations.accounts_title'),
      message: t('staff.declarations.account_confirm', { uid: value }),
      confirmLabel: t('staff.declarations.account_submit'),
    });
    if (!confirmed) return;
    setBusy(true);
    const done = await runAction(() => client.call(staffDeclareAccount, { uid: Number(value) }), t('staff.declarations.account_done', { uid: value }));
    setBusy(false);
    if (done) {
      setUid('');
      declarations.reload();
    }
  };

  const data = declarations.data;
  return (
    <ConsolePage title={t('staff.declarations.title')}>
      <Card title={t('staff.declarations.document_title')}>
        {data?.document ? (
          <Facts
            rows={[
              [t('staff.declarations.document_number'), <span className="numeric">{data.document.masked}</span>],
              [t('staff.declarations.declared_at'), format.time(data.document.declaredTime)],
            ]}
          />
        ) : data ? (
          <form className="staff-form" onSubmit={(event) => void declareDocument(event)} noValidate>
            <p role="status" className="staff-warning">
              {t('staff.declarations.document_missing')}
            </p>
            <TextField label={t('staff.declarations.document_number')} value={documentNumber} onChange={setDocumentNumber} autoComplete="off" maxLength={64} error={documentError} />
            <button type="submit" className="button primary" disabled={busy}>
              {t('staff.declarations.document_submit')}
            </button>
          </form>
        ) : (
          <p className="staff-muted">{t('common.loading')}</p>
        )}
      </Card>
      <Card title={t('staff.declarations.accounts_title')}>
        {data && data.accounts.length > 0 ? (
          <table className="staff-table">
            <caption className="visually-hidden">{t('staff.declarations.accounts_title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('staff.declarations.uid')}</th>
                <th scope="col">{t('staff.declarations.recorded_by')}</th>
                <th scope="col">{t('staff.declarations.declared_at')}</th>
              </tr>
            </thead>
            <tbody>
              {data.accounts.map((account) => (
                <tr key={account.uid}>
                  <td className="numeric">{account.uid}</td>
                  <td>{account.recordedBy}</td>
                  <td>{format.time(account.time)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : data ? (
          <p className="staff-muted">{t('staff.declarations.accounts_none')}</p>
        ) : null}
        <form className="staff-declare-account" onSubmit={(event) => void declareAccount(event)} noValidate>
          <TextField label={t('staff.declarations.uid')} value={uid} onChange={setUid} inputMode="numeric" maxLength={10} error={uidError} />
          <button type="submit" className="button secondary" disabled={busy}>
            {t('staff.declarations.account_submit')}
          </button>
        </form>
      </Card>
      {/* Below the cards: on a phone the document's form, the one action, comes first. */}
      <p className="staff-muted">{t('staff.declarations.intro')}</p>
    </ConsolePage>
  );
}
