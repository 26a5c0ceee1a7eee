import { useTranslation } from 'react-i18next';
import { Icon } from '../../components/icons';
import '../../styles/money.css';

/** The already-verified screen (status 2 with `verifiedScreen` on): who was verified, the number masked. */
export function AlreadyVerified(props: { realName: string; idCard: string }) {
  const { t } = useTranslation();
  return (
    <div className="verify-done" data-testid="verify-already">
      <div className="verify-done-mark" aria-hidden="true">
        <Icon name="check" size={32} />
      </div>
      <h2>{t('verify.verified_title')}</h2>
      <p>{t('verify.verified_body')}</p>
      <dl className="verify-done-facts">
        <dt>{t('verify.real_name')}</dt>
        <dd>{props.realName}</dd>
        <dt>{t('verify.id_card')}</dt>
        <dd className="numeric">{props.idCard}</dd>
      </dl>
    </div>
  );
}
