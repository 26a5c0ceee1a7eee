import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { Dialog } from '../../app/components/dialog';
import { TextField } from '../../app/components/text-field';
import type { OptionProduct } from '../../shared/api/options';
import type { Product } from '../../shared/api/market';
import {
  configBanners,
  configOptionProducts,
  configProducts,
  configServiceLink,
  configSetBanners,
  configSetOptionProduct,
  configSetProduct,
  configSetServiceLink,
  configSetSwitch,
  configSwitches,
  type ProductFields,
} from '../../shared/api/staff';
import { parseMoney } from '../../shared/money/money';
import { parseTimeRatePayload } from '../../shared/options/option-rules';
import { Card, ConsolePage, Tabs } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { runAction } from '../session/run-action';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { changedProductFields, type ProductDraft, productDraftOf, productDraftProblem } from './config-rules';
import type { ProductTermsViolation } from '../../shared/market/product-fields';
import { safeBannerUrl } from '../../shared/config/banner-url';
import { CurrenciesTab } from './config-currencies';
import { ProposalsTab } from './proposals';
import { LimitsTab } from './config-limits';
import { DialogFooter } from '../components/dialog-footer';

type ConfigTab = 'switches' | 'products' | 'optionProducts' | 'currencies' | 'limits' | 'proposals' | 'banners' | 'serviceLink';
const configTabs: readonly ConfigTab[] = ['switches', 'products', 'optionProducts', 'currencies', 'limits', 'proposals', 'banners', 'serviceLink'];

/** The brand's configuration: switches, products, option products, the wallets' currencies, banners and the customer-service link. No price is set here. */
export function ConfigPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = configTabs.find((candidate) => candidate === requested) ?? 'switches';
  return (
    <ConsolePage title={t('staff.config.title')}>
      <Tabs label={t('staff.config.title')} tabs={configTabs.map((id) => ({ id, label: t(`staff.config.tabs.${id}`) }))} current={tab} onChange={(next) => setParams({ tab: next })} />
      {tab === 'switches' ? <SwitchesTab /> : null}
      {tab === 'products' ? <ProductsTab /> : null}
      {tab === 'optionProducts' ? <OptionProductsTab /> : null}
      {tab === 'currencies' ? <CurrenciesTab /> : null}
      {tab === 'limits' ? <LimitsTab /> : null}
      {tab === 'proposals' ? <ProposalsTab /> : null}
      {tab === 'banners' ? <BannersTab /> : null}
      {tab === 'serviceLink' ? <ServiceLinkTab /> : null}
    </ConsolePage>
  );
}

function SwitchesTab() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const switches = useLoad(() => client.call(configSwitches, {}), []);
  return (
    <Card title={t('staff.config.tabs.switches')}>
      <p className="staff-muted">{t('staff.config.switches_explain')}</p>
      <ul className="staff-switches">
        {(switches.data?.items ?? []).map((item) => (
          <li key={item.name}>
            <label className="staff-switch">
              <input
                type="checkbox"
                role="switch"
                checked={item.enable}
                onChange={(event) => {
                  const enable = event.target.checked;
                  void runAction(() => client.call(configSetSwitch, { name: item.name, enable }), t('staff.config.switch_saved', { name: item.name })).then((done) => done && switches.reload());
                }}
              />
              <span>{item.name}</span>
            </label>
          </li>
        ))}
      </ul>
    </Card>
  );
}

const productColumn = gridColumns<Product>();

function ProductsTab() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const products = useLoad(() => client.call(configProducts, {}), []);
  const [editing, setEditing] = useState<Product | null>(null);
  const columns = [
    productColumn.accessor('productCode', { header: t('staff.products.code') }),
    productColumn.accessor('productName', { header: t('staff.products.name') }),
    productColumn.accessor((row) => (row.tradeStatus === 1 ? t('staff.products.tradable') : t('staff.products.halted')), { id: 'tradeStatus', header: t('staff.products.trade_status') }),
    productColumn.accessor('spread', { header: t('staff.products.spread') }),
    productColumn.accessor('feeRate', { header: t('staff.products.fee_rate') }),
    productColumn.accessor('overnightRate', { header: t('staff.products.overnight_rate') }),
    productColumn.accessor('multiple', { header: t('staff.products.leverage') }),
    productColumn.accessor('minCount', { header: t('staff.products.min_volume') }),
    productColumn.accessor('maxCount', { header: t('staff.products.max_volume') }),
    productColumn.display({
      id: 'edit',
      header: () => <span className="visually-hidden">{t('staff.common.actions')}</span>,
      cell: (info) => (
        <button type="button" className="button secondary staff-small-button" aria-label={t('staff.products.edit_named', { code: info.row.original.productCode })} onClick={() => setEditing(info.row.original)}>
          {t('staff.common.edit')}
        </button>
      ),
    }),
  ];
  return (
    <>
      <StaffGrid label={t('staff.config.tabs.products')} filterable columns={columns} data={products.data?.list ?? []} rowKey={(row) => row.productCode} />
      {editing ? <ProductDialog product={editing} onClose={() => setEditing(null)} onSaved={products.reload} /> : null}
    </>
  );
}

function ProductDialog(props: { product: Product; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { client } = useStaff();
  const [draft, setDraft] = useState<ProductDraft>(() => productDraftOf(props.product));
  const [problem, setProblem] = useState<ProductTermsViolation | null>(null);
  const set = (field: keyof ProductDraft) => (value: string) => setDraft({ ...draft, [field]: value });
  const save = async () => {
    const found = productDraftProblem(props.product, draft);
    setProblem(found);
    if (found) return;
    const fields: ProductFields = changedProductFields(props.product, draft);
    if (Object.keys(fields).length === 0) {
      props.onClose();
      return;
    }
    const done = await runAction(() => client.call(configSetProduct, { productCode: props.product.productCode, fields }), (answer) => t('staff.proposals.proposed_done', { id: answer.proposalId }));
    if (done) {
      props.onSaved();
      props.onClose();
    }
  };
  const invalid = (field: keyof ProductDraft) => (problem?.field === field ? t(`staff.products.problems.${field}`, { step: props.product.pip }) : null);
  return (
    <Dialog
      title={t('staff.products.edit_named', { code: props.product.productCode })}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="button secondary" onClick={props.onClose}>
            {t('common.cancel')}
          </button>
          <button type="button" className="button primary" onClick={() => void save()}>
            {t('staff.common.save')}
          </button>
        </>
      }
    >
      <label className="staff-inline-field">
        {t('staff.products.trade_status')}
        <select className="staff-select" value={draft.tradeStatus} onChange={(event) => set('tradeStatus')(event.target.value)}>
          <option value="1">{t('staff.products.tradable')}</option>
          <option value="0">{t('staff.products.halted')}</option>
        </select>
      </label>
      <TextField label={t('staff.products.spread')} value={draft.spread} onChange={set('spread')} inputMode="decimal" error={invalid('spread')} />
      <TextField label={t('staff.products.fee_rate')} value={draft.feeRate} onChange={set('feeRate')} inputMode="decimal" error={invalid('feeRate')} />
      <TextField label={t('staff.products.overnight_rate')} value={draft.overnightRate} onChange={set('overnightRate')} inputMode="decimal" error={invalid('overnightRate')} />
      <TextField label={t('staff.products.leverage')} value={draft.multiple} onChange={set('multiple')} inputMode="numeric" error={invalid('multiple')} />
      <TextField label={t('staff.products.min_volume')} value={draft.minCount} onChange={set('minCount')} inputMode="decimal" error={invalid('minCount')} />
      <TextField label={t('staff.products.max_volume')} value={draft.maxCount} onChange={set('maxCount')} inputMode="decimal" error={invalid('maxCount')} />
    </Dialog>
  );
}

const optionColumn = gridColumns<OptionProduct>();

function OptionProductsTab() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const products = useLoad(() => client.call(configOptionProducts, {}), []);
  const [editing, setEditing] = useState<OptionProduct | null>(null);
  const columns = [
    optionColumn.accessor('productCode', { header: t('staff.products.code') }),
    optionColumn.accessor('productName', { header: t('staff.products.name') }),
    optionColumn.accessor((row) => (row.tradeStatus === 1 ? t('staff.products.tradable') : t('staff.products.halted')), { id: 'tradeStatus', header: t('staff.products.trade_status') }),
    optionColumn.accessor('feeRate', { header: t('staff.products.fee_rate') }),
    optionColumn.accessor((row) => Object.keys(row.timeRatePayload).length, { id: 'entries', header: t('staff.options.entries') }),
    optionColumn.display({
      id: 'edit',
      header: () => <span className="visually-hidden">{t('staff.common.actions')}</span>,
      cell: (info) => (
        <button type="button" className="button secondary staff-small-button" aria-label={t('staff.products.edit_named', { code: info.row.original.productCode })} onClick={() => setEditing(info.row.original)}>
          {t('staff.common.edit')}
        </button>
      ),
    }),
  ];
  return (
    <>
      <StaffGrid label={t('staff.config.tabs.optionProducts')} filterable columns={columns} data={products.data?.list ?? []} rowKey={(row) => String(row.id)} />
      {editing ? <OptionProductDialog product={editing} onClose={() => setEditing(null)} onSaved={products.reload} /> : null}
    </>
  );
}

function OptionProductDialog(props: { product: OptionProduct; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const { client } = useStaff();
  const [tradeStatus, setTradeStatus] = useState<0 | 1>(props.product.tradeStatus);
  const [feeRate, setFeeRate] = useState(props.product.feeRate);
  const [entries, setEntries] = useState(() => Object.entries(props.product.timeRatePayload).map(([key, value]) => ({ key, value })));
  const payload = Object.fromEntries(entries.map((entry) => [entry.key.trim(), entry.value.trim()]));
  // The shared rules the server and the option form use: a malformed or repeated entry is named before sending.
  const rejected = new Set(parseTimeRatePayload(payload).rejected);
  const keysRepeat = new Set(entries.map((entry) => entry.key.trim())).size !== entries.length;
  const feeRateUnits = parseMoney(feeRate.trim());
  // The option fee rate's rule as the server's: a fraction of the amount, at least 0 and below 1.
  const feeInvalid = feeRateUnits === null || feeRateUnits < 0n || feeRateUnits >= (parseMoney('1') ?? 0n);
  const save = async () => {
    if (rejected.size > 0 || keysRepeat || feeInvalid) return;
    const done = await runAction(
      () => client.call(configSetOptionProduct, { id: props.product.id, tradeStatus, feeRate: feeRate.trim(), timeRatePayload: payload }),
      (answer) => t('staff.proposals.proposed_done', { id: answer.proposalId }),
    );
    if (done) {
      props.onSaved();
      props.onClose();
    }
  };
  return (
    <Dialog
      title={t('staff.products.edit_named', { code: props.product.productCode })}
      onClose={props.onClose}
      footer={<DialogFooter confirmLabel={t('staff.common.save')} disabled={rejected.size > 0 || keysRepeat || feeInvalid} onCancel={props.onClose} onConfirm={() => void save()} />}
    >
      <label className="staff-inline-field">
        {t('staff.products.trade_status')}
        <select className="staff-select" value={tradeStatus} onChange={(event) => setTradeStatus(event.target.value === '1' ? 1 : 0)}>
          <option value="1">{t('staff.products.tradable')}</option>
          <option value="0">{t('staff.products.halted')}</option>
        </select>
      </label>
      <TextField label={t('staff.products.fee_rate')} value={feeRate} onChange={setFeeRate} inputMode="decimal" error={feeInvalid ? t('staff.products.fee_invalid') : null} />
      <p className="staff-muted">{t('staff.options.entry_format')}</p>
      <ul className="staff-entries">
        {entries.map((entry, index) => (
          <li key={index} data-invalid={rejected.has(entry.key.trim()) ? 'true' : undefined}>
            <input className="staff-input staff-entry-key" aria-label={t('staff.options.entry_key', { index: index + 1 })} value={entry.key} maxLength={8} onChange={(event) => setEntries(entries.map((other, at) => (at === index ? { ...other, key: event.target.value } : other)))} />
            <input className="staff-input" aria-label={t('staff.options.entry_value', { index: index + 1 })} value={entry.value} maxLength={200} onChange={(event) => setEntries(entries.map((other, at) => (at === index ? { ...other, value: event.target.value } : other)))} />
            <button type="button" className="button secondary staff-small-button" onClick={() => setEntries(entries.filter((_, at) => at !== index))}>
              {t('staff.common.remove')}
            </button>
          </li>
        ))}
      </ul>
      {rejected.size > 0 ? <p className="field-error" role="alert">{t('staff.options.entries_rejected', { keys: [...rejected].join(', ') })}</p> : null}
      {keysRepeat ? <p className="field-error" role="alert">{t('staff.options.keys_repeat')}</p> : null}
      <button type="button" className="button secondary" onClick={() => setEntries([...entries, { key: String(entries.length + 1), value: '' }])}>
        {t('staff.options.add_entry')}
      </button>
    </Dialog>
  );
}

interface BannerDraft {
  bannerUrl: string;
  sort: string;
  active: boolean;
}

function BannersTab() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const banners = useLoad(() => client.call(configBanners, {}), []);
  const [rows, setRows] = useState<BannerDraft[] | null>(null);
  const shown: BannerDraft[] = rows ?? (banners.data?.rows ?? []).map((row) => ({ bannerUrl: row.bannerUrl, sort: String(row.sort), active: row.active }));
  const invalid = shown.some((row) => safeBannerUrl(row.bannerUrl) === null || !/^\d{1,4}$/.test(row.sort.trim()));
  const update = (index: number, change: Partial<BannerDraft>) => setRows(shown.map((row, at) => (at === index ? { ...row, ...change } : row)));
  const save = async () => {
    if (invalid) return;
    const done = await runAction(
      () => client.call(configSetBanners, { rows: shown.map((row) => ({ bannerUrl: row.bannerUrl.trim(), sort: Number(row.sort.trim()), active: row.active })) }),
      t('staff.banners.saved'),
    );
    if (done) {
      setRows(null);
      banners.reload();
    }
  };
  return (
    <Card title={t('staff.config.tabs.banners')}>
      <ul className="staff-entries">
        {shown.map((row, index) => (
          <li key={index}>
            <input className="staff-input" aria-label={t('staff.banners.url', { index: index + 1 })} value={row.bannerUrl} maxLength={500} onChange={(event) => update(index, { bannerUrl: event.target.value })} />
            <input className="staff-input staff-entry-key" aria-label={t('staff.banners.sort', { index: index + 1 })} value={row.sort} inputMode="numeric" maxLength={4} onChange={(event) => update(index, { sort: event.target.value })} />
            <label className="staff-switch">
              <input type="checkbox" role="switch" checked={row.active} onChange={(event) => update(index, { active: event.target.checked })} />
              {t('staff.banners.active')}
            </label>
            <button type="button" className="button secondary staff-small-button" onClick={() => setRows(shown.filter((_, at) => at !== index))}>
              {t('staff.common.remove')}
            </button>
          </li>
        ))}
      </ul>
      {invalid ? <p className="field-error" role="alert">{t('staff.banners.invalid')}</p> : null}
      <div className="staff-row">
        <button type="button" className="button secondary" disabled={shown.length >= 20} onClick={() => setRows([...shown, { bannerUrl: '', sort: String(shown.length), active: true }])}>
          {t('staff.banners.add')}
        </button>
        <button type="button" className="button primary" disabled={invalid || rows === null} onClick={() => void save()}>
          {t('staff.common.save')}
        </button>
      </div>
    </Card>
  );
}

function ServiceLinkTab() {
  const { t } = useTranslation();
  const { client } = useStaff();
  const link = useLoad(() => client.call(configServiceLink, {}), []);
  const [value, setValue] = useState<string | null>(null);
  const shown = value ?? link.data?.value ?? '';
  return (
    <Card title={t('staff.config.tabs.serviceLink')}>
      <p className="staff-muted">{t('staff.service_link.explain')}</p>
      <TextField label={t('staff.service_link.label')} value={shown} maxLength={500} onChange={setValue} />
      <button
        type="button"
        className="button primary"
        disabled={value === null}
        onClick={() => void runAction(() => client.call(configSetServiceLink, { value: shown.trim() }), t('staff.service_link.saved')).then((done) => done && (setValue(null), link.reload()))}
      >
        {t('staff.common.save')}
      </button>
    </Card>
  );
}
