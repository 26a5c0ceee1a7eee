import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { bankCardDelete, bankCardInsert, bankCardList, bankCardOne, bankCardUpdate, type BankCardSummary } from '../../../../shared/api/withdraw';
import { bankCardErrors, listedBankNames, normalizedPhone, type BankCardFieldErrors } from '../../../../shared/money/bank-card-rules';
import { decodeField, encodeField } from '../../../../shared/money/encoded-field';
import { newIdempotencyKey } from '../../../api/http-client';
import { switchesSignal, useApp } from '../../../app-context';
import { confirmDialog } from '../../../components/confirm';
import { showToast } from '../../../components/toasts';
import { TextField } from '../../../components/text-field';
import { savedListSize } from './crypto-wallets';
import { sessionAesKey } from './session-key';
import { SecondFactorField, totpCodeOf, useSecondFactorOn } from './second-factor-field';

/** The customer's cards (bank and last 4 digits); null while loading. */
export function useBankCards(): BankCardSummary[] | null {
  const { http } = useApp();
  const [cards, setCards] = useState<BankCardSummary[] | null>(null);
  useEffect(() => {
    let stopped = false;
    http
      .call(bankCardList, { page: 1, limit: savedListSize })
      .then((answer) => !stopped && setCards(answer.list))
      .catch(() => !stopped && setCards([]));
    return () => {
      stopped = true;
    };
  }, [http]);
  return cards;
}

/** `/user/wallet/bankCard`: each card's bank and account's last 4 digits, and the add button. */
export function BankCardList() {
  const { t } = useTranslation();
  const cards = useBankCards();
  return (
    <div className="money-list">
      {cards === null ? <p>{t('common.loading')}</p> : null}
      {cards?.length === 0 ? <p className="money-empty">{t('withdraw.no_bank_card')}</p> : null}
      <ul className="saved-list" data-testid="bank-card-list">
        {(cards ?? []).map((card) => (
          <li key={card.id}>
            <Link href={`/user/wallet/editBankCard?id=${card.id}`} className="saved-item">
              <strong>{card.bankName}</strong>
              <span className="numeric">{card.accountMasked}</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link href="/user/wallet/addBankCard" className="button primary">
        {t('withdraw.add_bank_card')}
      </Link>
    </div>
  );
}

const plainFields = ['bankName', 'bankCode', 'bankAddress', 'swiftCode', 'branchCode', 'bankCountry', 'postCode', 'accountType', 'insNum', 'traNum'] as const;
const encodedFields = ['name', 'account', 'address', 'idNumber', 'phoneNumber'] as const;
type CardField = (typeof plainFields)[number] | (typeof encodedFields)[number];
type Draft = Record<CardField, string>;

const emptyDraft: Draft = Object.fromEntries([...plainFields, ...encodedFields].map((field) => [field, ''])) as Draft;

/** The form's fields in order, with their labels; the institution and transit numbers only with the bank-info switch. */
const formOrder: readonly CardField[] = ['bankName', 'bankCode', 'swiftCode', 'branchCode', 'bankAddress', 'bankCountry', 'name', 'account', 'accountType', 'address', 'postCode', 'idNumber', 'phoneNumber', 'insNum', 'traNum'];

const errorKeyOf = (errors: BankCardFieldErrors, field: CardField): string | undefined => (errors as Partial<Record<CardField, string>>)[field];

/** `/user/wallet/addBankCard` and `/user/wallet/editBankCard?id=`: the card's fields; editing adds delete behind a warning drawer. */
export function BankCardForm(props: { cardId: number | null }) {
  useSignals();
  const { t } = useTranslation();
  const { http } = useApp();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<BankCardFieldErrors>({});
  const [loaded, setLoaded] = useState(props.cardId === null);
  const [busy, setBusy] = useState(false);
  const secondFactorOn = useSecondFactorOn();
  const [code, setCode] = useState('');
  const bankInfo = switchesSignal.value.bankInfo;
  const { cardId } = props;

  useEffect(() => {
    if (cardId === null) return;
    let stopped = false;
    http
      .call(bankCardOne, { id: cardId })
      .then((card) => {
        if (stopped) return;
        const key = sessionAesKey();
        const next = { ...emptyDraft };
        for (const field of plainFields) next[field] = card[field];
        for (const field of encodedFields) next[field] = decodeField(card[field], key) ?? '';
        setDraft(next);
        setLoaded(true);
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http, cardId]);

  async function save() {
    const found = bankCardErrors(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const key = sessionAesKey();
    const body = {
      ...Object.fromEntries(plainFields.map((field) => [field, draft[field].trim()])),
      name: encodeField(draft.name.trim(), key),
      account: encodeField(draft.account.trim(), key),
      address: encodeField(draft.address.trim(), key),
      idNumber: encodeField(draft.idNumber.trim(), key),
      phoneNumber: encodeField(normalizedPhone(draft.phoneNumber) ?? '', key),
    } as Record<CardField, string>;
    setBusy(true);
    try {
      const confirmed = { ...body, ...totpCodeOf(secondFactorOn, code) };
      if (cardId === null) await http.call(bankCardInsert, confirmed, { idempotencyKey: newIdempotencyKey() });
      else await http.call(bankCardUpdate, { ...confirmed, id: cardId }, { idempotencyKey: newIdempotencyKey() });
      showToast('success', t(cardId === null ? 'withdraw.add_success' : 'withdraw.update_success'));
      navigate('/user/wallet/bankCard', { replace: true });
    } catch {
      // The request client told the user.
    } finally {
      setBusy(false);
    }
  }

  /** The warning drawer first (the shared confirmation); cancel changes nothing. */
  async function confirmThenRemove() {
    if (await confirmDialog({ title: t('withdraw.warning'), message: t('withdraw.delete_card_confirm') })) await remove();
  }

  async function remove() {
    if (cardId === null) return;
    try {
      await http.call(bankCardDelete, { id: cardId });
      // The specification's notice after a delete: "operation success".
      showToast('success', t('notice.operation_success'));
      navigate('/user/wallet/bankCard', { replace: true });
    } catch {
      // The request client told the customer; the card stays.
    }
  }

  if (!loaded) return <p>{t('common.loading')}</p>;
  return (
    <form
      className="money-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {formOrder
        .filter((field) => bankInfo || (field !== 'insNum' && field !== 'traNum'))
        .map((field) => (
          <TextField
            key={field}
            label={t(`withdraw.card_${field}`)}
            value={draft[field]}
            maxLength={140}
            inputMode={field === 'phoneNumber' ? 'tel' : undefined}
            placeholder={field === 'phoneNumber' ? '+44 7400 123456' : field === 'bankName' ? t('withdraw.card_bankName_hint') : undefined}
            suggestions={field === 'bankName' ? listedBankNames : undefined}
            onChange={(value) => {
              setDraft((current) => ({ ...current, [field]: value }));
              setErrors((current) => ({ ...current, [field]: undefined }));
            }}
            error={errorKeyOf(errors, field) ? t(errorKeyOf(errors, field) ?? '') : null}
          />
        ))}
      <SecondFactorField enabled={secondFactorOn} value={code} onChange={setCode} />
      <button type="submit" className="button primary" disabled={busy}>
        {t('withdraw.save')}
      </button>
      {cardId !== null ? (
        <button type="button" className="button danger" onClick={() => void confirmThenRemove()}>
          {t('withdraw.delete')}
        </button>
      ) : null}
    </form>
  );
}
