import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { PageFrame } from '../../components/page-frame';
import { BankCardForm } from '../../features/money/withdraw/bank-cards';

/** `/user/wallet/editBankCard?id={id}`: an unreadable id edits nothing (the list is one step back). */
export function EditBankCardPage() {
  const { t } = useTranslation();
  const id = Number(new URLSearchParams(useSearch()).get('id'));
  return (
    <PageFrame title={t('page.edit_bank_card')}>
      {Number.isInteger(id) && id > 0 ? <BankCardForm key={id} cardId={id} /> : <p className="money-empty">{t('errors.1008')}</p>}
    </PageFrame>
  );
}
