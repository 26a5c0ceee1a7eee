import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../app/components/dialog';
import { TextField } from '../../app/components/text-field';
import { configCurrencies, configSetCoinNetwork, configSetCurrency, type StaffCoinNetwork, type StaffCurrency } from '../../shared/api/staff';
import {
  coinNetworkTermsViolation,
  currencyTermsViolation,
  withdrawFeeTypes,
  type CoinNetworkTerms,
  type ConfigViolation,
  type CurrencyTerms,
  type WithdrawFeeTypeName,
} from '../../shared/money/currency-config';
import { Card } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { runAction } from '../session/run-action';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';

const currencyColumn = gridColumns<StaffCurrency>();

/** What a dialog edits: a currency (its id absent when new) or a network of one. */
type Editing = { kind: 'currency'; currency: StaffCurrency | null } | { kind: 'network'; currency: StaffCurrency; network: StaffCoinNetwork | null };

/** The wallets' currencies with their networks: terms only (no balance or price is set here). */
export function CurrenciesTab() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const currencies = useLoad(() => client.call(configCurrencies, {}), []);
  const [editing, setEditing] = useState<Editing | null>(null);
  const onOff = (enabled: boolean) => (enabled ? t('staff.currencies.on') : t('staff.currencies.off'));
  const columns = [
    currencyColumn.accessor('code', { header: t('staff.currencies.code') }),
    currencyColumn.accessor('name', { header: t('staff.currencies.name') }),
    currencyColumn.accessor('decimals', { header: t('staff.currencies.decimals') }),
    currencyColumn.accessor((row) => row.valuedByProduct ?? t('staff.currencies.pegged'), { id: 'valuedByProduct', header: t('staff.currencies.price_product') }),
    currencyColumn.accessor('transferFeeRate', { header: t('staff.currencies.transfer_fee_rate') }),
    currencyColumn.accessor((row) => onOff(row.enabled), { id: 'enabled', header: t('staff.currencies.enabled') }),
    currencyColumn.accessor('sort', { header: t('staff.currencies.sort') }),
    currencyColumn.display({
      id: 'networks',
      header: t('staff.currencies.networks'),
      cell: (info) => {
        const currency = info.row.original;
        return (
          <span className="staff-chip-list">
            {currency.networks.map((network) => (
              <button
                key={network.id}
                type="button"
                className="button secondary staff-small-button"
                aria-label={t('staff.currencies.edit_network', { code: currency.code, network: network.network })}
                onClick={() => setEditing({ kind: 'network', currency, network })}
              >
                {network.network} · {onOff(network.enabled)}
              </button>
            ))}
            <button type="button" className="button secondary staff-small-button" aria-label={t('staff.currencies.add_network', { code: currency.code })} onClick={() => setEditing({ kind: 'network', currency, network: null })}>
              +
            </button>
          </span>
        );
      },
    }),
    currencyColumn.display({
      id: 'edit',
      header: () => <span className="visually-hidden">{t('staff.common.actions')}</span>,
      cell: (info) => (
        <button
          type="button"
          className="button secondary staff-small-button"
          aria-label={t('staff.currencies.edit_named', { code: info.row.original.code })}
          onClick={() => setEditing({ kind: 'currency', currency: info.row.original })}
        >
          {t('staff.common.edit')}
        </button>
      ),
    }),
  ];
  return (
    <Card title={t('staff.config.tabs.currencies')}>
      <p className="staff-muted">{t('staff.currencies.explain')}</p>
      <StaffGrid
        label={t('staff.config.tabs.currencies')}
        columns={columns}
        data={currencies.data?.list ?? []}
        rowKey={(row) => String(row.id)}
        toolbar={
          <button type="button" className="button primary" onClick={() => setEditing({ kind: 'currency', currency: null })}>
            {t('staff.currencies.add_currency')}
          </button>
        }
      />
      {editing?.kind === 'currency' ? <CurrencyDialog currency={editing.currency} onClose={() => setEditing(null)} onSaved={currencies.reload} /> : null}
      {editing?.kind === 'network' ? <NetworkDialog currency={editing.currency} network={editing.network} onClose={() => setEditing(null)} onSaved={currencies.reload} /> : null}
    </Card>
  );
}

interface CurrencyDraft {
  code: string;
  name: string;
  decimals: string;
  icon: string;
  valuedByProduct: string;
  transferFeeRate: string;
  enabled: boolean;
  sort: string;
}

function wholeNumber(text: string): number {
  return /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
}

function CurrencyDialog(props: { currency: StaffCurrency | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { client } = useStaff();
  const existing = props.currency;
  const [draft, setDraft] = useState<CurrencyDraft>(() => ({
    code: existing?.code ?? '',
    name: existing?.name ?? '',
    decimals: String(existing?.decimals ?? 8),
    icon: existing?.icon ?? '',
    valuedByProduct: existing?.valuedByProduct ?? '',
    transferFeeRate: existing?.transferFeeRate ?? '0',
    enabled: existing?.enabled ?? true,
    sort: String(existing?.sort ?? 0),
  }));
  const [problem, setProblem] = useState<ConfigViolation<CurrencyTerms> | null>(null);
  const set = (field: keyof CurrencyDraft) => (value: string) => setDraft({ ...draft, [field]: value });
  const save = async () => {
    const terms: CurrencyTerms = {
      code: draft.code.trim(),
      name: draft.name.trim(),
      decimals: wholeNumber(draft.decimals),
      icon: draft.icon.trim(),
      valuedByProduct: draft.valuedByProduct.trim() === '' ? null : draft.valuedByProduct.trim(),
      transferFeeRate: draft.transferFeeRate.trim(),
      enabled: draft.enabled,
      sort: wholeNumber(draft.sort),
    };
    const found = currencyTermsViolation(terms);
    setProblem(found);
    if (found) return;
    const body = existing ? { id: existing.id, ...terms } : terms;
    const done = await runAction(() => client.call(configSetCurrency, body), (answer) => t('staff.proposals.proposed_done', { id: answer.proposalId }));
    if (done) {
      props.onSaved();
      props.onClose();
    }
  };
  const invalid = (field: keyof CurrencyTerms) => (problem?.field === field ? t(`staff.currencies.problems.${field}`) : null);
  const title = existing ? t('staff.currencies.edit_named', { code: existing.code }) : t('staff.currencies.add_currency');
  return (
    <Dialog title={title} onClose={props.onClose} footer={<DialogButtons onClose={props.onClose} onSave={() => void save()} />}>
      <TextField label={t('staff.currencies.code')} value={draft.code} onChange={set('code')} disabled={existing !== null} error={invalid('code')} maxLength={12} />
      <TextField label={t('staff.currencies.name')} value={draft.name} onChange={set('name')} error={invalid('name')} maxLength={60} />
      <TextField label={t('staff.currencies.decimals')} value={draft.decimals} onChange={set('decimals')} inputMode="numeric" error={invalid('decimals')} />
      <TextField label={t('staff.currencies.icon')} value={draft.icon} onChange={set('icon')} error={invalid('icon')} maxLength={300} />
      <TextField label={t('staff.currencies.price_product')} value={draft.valuedByProduct} onChange={set('valuedByProduct')} placeholder={t('staff.currencies.price_product_hint')} error={invalid('valuedByProduct')} />
      <TextField label={t('staff.currencies.transfer_fee_rate')} value={draft.transferFeeRate} onChange={set('transferFeeRate')} inputMode="decimal" error={invalid('transferFeeRate')} />
      <TextField label={t('staff.currencies.sort')} value={draft.sort} onChange={set('sort')} inputMode="numeric" error={invalid('sort')} />
      <EnabledSwitch checked={draft.enabled} onChange={(enabled) => setDraft({ ...draft, enabled })} />
    </Dialog>
  );
}

type NetworkDraft = Omit<CoinNetworkTerms, 'enabled'> & { enabled: boolean };

function NetworkDialog(props: { currency: StaffCurrency; network: StaffCoinNetwork | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { client } = useStaff();
  const existing = props.network;
  const [draft, setDraft] = useState<NetworkDraft>(() => ({
    network: existing?.network ?? '',
    depositAddress: existing?.depositAddress ?? '',
    minWithdraw: existing?.minWithdraw ?? '0',
    maxWithdraw: existing?.maxWithdraw ?? '0',
    withdrawFeeType: existing?.withdrawFeeType ?? 'FIX_AMOUNT',
    withdrawFee: existing?.withdrawFee ?? '0',
    enabled: existing?.enabled ?? true,
  }));
  const [problem, setProblem] = useState<ConfigViolation<CoinNetworkTerms> | null>(null);
  const set = (field: keyof NetworkDraft) => (value: string) => setDraft({ ...draft, [field]: value });
  const save = async () => {
    const terms: CoinNetworkTerms = {
      ...draft,
      network: draft.network.trim(),
      depositAddress: draft.depositAddress.trim(),
      minWithdraw: draft.minWithdraw.trim(),
      maxWithdraw: draft.maxWithdraw.trim(),
      withdrawFee: draft.withdrawFee.trim(),
    };
    const found = coinNetworkTermsViolation(terms);
    setProblem(found);
    if (found) return;
    const body = { ...(existing ? { id: existing.id } : {}), currencyId: props.currency.id, ...terms };
    const done = await runAction(() => client.call(configSetCoinNetwork, body), (answer) => t('staff.proposals.proposed_done', { id: answer.proposalId }));
    if (done) {
      props.onSaved();
      props.onClose();
    }
  };
  const invalid = (field: keyof CoinNetworkTerms) => (problem?.field === field ? t(`staff.currencies.problems.${field}`) : null);
  const title = existing
    ? t('staff.currencies.edit_network', { code: props.currency.code, network: existing.network })
    : t('staff.currencies.add_network', { code: props.currency.code });
  return (
    <Dialog title={title} onClose={props.onClose} footer={<DialogButtons onClose={props.onClose} onSave={() => void save()} />}>
      <TextField label={t('staff.currencies.network')} value={draft.network} onChange={set('network')} error={invalid('network')} maxLength={32} />
      <TextField label={t('staff.currencies.deposit_address')} value={draft.depositAddress} onChange={set('depositAddress')} error={invalid('depositAddress')} maxLength={128} />
      <TextField label={t('staff.currencies.min_withdraw')} value={draft.minWithdraw} onChange={set('minWithdraw')} inputMode="decimal" error={invalid('minWithdraw')} />
      <TextField label={t('staff.currencies.max_withdraw')} value={draft.maxWithdraw} onChange={set('maxWithdraw')} inputMode="decimal" error={invalid('maxWithdraw')} />
      <label className="staff-inline-field">
        {t('staff.currencies.fee_type')}
        <select className="staff-select" value={draft.withdrawFeeType} onChange={(event) => setDraft({ ...draft, withdrawFeeType: event.target.value as WithdrawFeeTypeName })}>
          {withdrawFeeTypes.map((type) => (
            <option key={type} value={type}>
              {t(`staff.currencies.fee_types.${type === '' ? 'none' : type}`)}
            </option>
          ))}
        </select>
      </label>
      <TextField label={t('staff.currencies.fee')} value={draft.withdrawFee} onChange={set('withdrawFee')} inputMode="decimal" error={invalid('withdrawFee')} />
      <EnabledSwitch checked={draft.enabled} onChange={(enabled) => setDraft({ ...draft, enabled })} />
    </Dialog>
  );
}

function EnabledSwitch(props: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <label className="staff-switch">
      <input type="checkbox" role="switch" checked={props.checked} onChange={(event) => props.onChange(event.target.checked)} />
      <span>{t('staff.currencies.enabled')}</span>
    </label>
  );
}

function DialogButtons(props: { onClose: () => void; onSave: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <button type="button" className="button secondary" onClick={props.onClose}>
        {t('common.cancel')}
      </button>
      <button type="button" className="button primary" onClick={props.onSave}>
        {t('staff.common.save')}
      </button>
    </>
  );
}
