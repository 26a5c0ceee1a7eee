import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { customersEndSessions, customersGet, customersLedger, customersSetDepositBlocked, customersSetTradingProhibited, noticesSend, type CustomerDetail, type LedgerLine } from '../../shared/api/staff';
import { ReasonDialog } from '../components/reason-dialog';
import { Card, ConsolePage, Facts, Tabs } from '../components/section';
import { gridColumns, StaffGrid } from '../components/staff-grid';
import { mayCall } from '../navigation';
import { runAction } from '../session/run-action';
import { useFormat } from '../session/use-format';
import { useLoad } from '../session/use-load';
import { useStaff } from '../session/staff-context';
import { verificationLabel } from './customers';
import { NoticeDialog } from './notice-dialog';

type TabId = 'overview' | 'orders' | 'options' | 'ledger';
type OpenOrder = CustomerDetail['openOrders'][number];
type OpenOption = CustomerDetail['openOptions'][number];

const orderColumn = gridColumns<OpenOrder>();
const optionColumn = gridColumns<OpenOption>();
const ledgerColumn = gridColumns<LedgerLine>();

/** A customer: profile, balances, wallets, verification, open orders and options, the ledger (finance) and the actions the member's roles allow. */
export function CustomerPage() {
  const { t } = useTranslation();
  const { client, me } = useStaff();
  const format = useFormat();
  const uid = Number(useParams<{ uid: string }>().uid);
  const detail = useLoad(() => client.call(customersGet, { uid }), [uid]);
  const [tab, setTab] = useState<TabId>('overview');
  const [dialog, setDialog] = useState<'trading' | 'deposits' | 'sessions' | 'notice' | null>(null);

  const mayLedger = mayCall(me.roles, '/v1/staff/customers/ledger');
  const mayProhibit = mayCall(me.roles, '/v1/staff/customers/setTradingProhibited');
  const mayBlockDeposits = mayCall(me.roles, '/v1/staff/customers/setDepositBlocked');
  const mayEndSessions = mayCall(me.roles, '/v1/staff/customers/endSessions');
  const mayNotify = mayCall(me.roles, '/v1/staff/notices/send');

  const customer = detail.data;
  if (!customer) {
    return (
      <ConsolePage title={t('staff.customer.title', { uid })}>
        <p className="staff-muted">{detail.loading ? t('common.loading') : t('staff.customer.missing')}</p>
        <Link href="/customers">{t('staff.customers.back')}</Link>
      </ConsolePage>
    );
  }
  const { profile } = customer;
  const prohibited = profile.tradeProhibited;
  const depositBlocked = profile.depositBlocked;

  const tabs: Array<{ id: TabId; label: string }> = [
    { id: 'overview', label: t('staff.customer.overview') },
    { id: 'orders', label: t('staff.customer.open_orders', { count: customer.openOrders.length }) },
    { id: 'options', label: t('staff.customer.open_options', { count: customer.openOptions.length }) },
    ...(mayLedger ? [{ id: 'ledger' as const, label: t('staff.customer.ledger') }] : []),
  ];

  return (
    <ConsolePage
      title={t('staff.customer.title', { uid: profile.uid })}
      actions={
        <>
          {mayProhibit ? (
            <button type="button" className="button secondary" onClick={() => setDialog('trading')}>
              {prohibited ? t('staff.customer.allow_trading') : t('staff.customer.prohibit_trading')}
            </button>
          ) : null}
          {mayBlockDeposits ? (
            <button type="button" className="button secondary" onClick={() => setDialog('deposits')}>
              {depositBlocked ? t('staff.customer.unblock_deposits') : t('staff.customer.block_deposits')}
            </button>
          ) : null}
          {mayEndSessions ? (
            <button type="button" className="button secondary" onClick={() => setDialog('sessions')}>
              {t('staff.customer.end_sessions')}
            </button>
          ) : null}
          {mayNotify ? (
            <button type="button" className="button primary" onClick={() => setDialog('notice')}>
              {t('staff.customer.send_notice')}
            </button>
          ) : null}
        </>
      }
    >
      <p className="staff-subtitle">
        {profile.email ?? profile.phone ?? profile.nick}
        {prohibited ? <span className="staff-status staff-status-bad">{t('staff.customer.prohibited')}</span> : <span className="staff-status staff-status-good">{t('staff.customer.allowed')}</span>}
        {depositBlocked ? <span className="staff-status staff-status-bad">{t('staff.customer.deposits_blocked')}</span> : null}
        {profile.blocked ? <span className="staff-status staff-status-bad">{t('staff.customer.blocked')}</span> : null}
      </p>
      <Tabs label={t('staff.customer.sections')} tabs={tabs} current={tab} onChange={setTab} />
      {tab === 'overview' ? (
        <div className="staff-card-grid">
          <Card title={t('staff.customer.profile')}>
            <Facts
              rows={[
                [t('staff.customer.uid'), profile.uid],
                [t('staff.customer.email'), profile.email ?? '—'],
                [t('staff.customer.phone'), profile.phone ?? '—'],
                [t('staff.customer.nick'), profile.nick],
                [t('staff.customer.register_type'), t(`staff.customer.register_types.${profile.registerType}`, { defaultValue: profile.registerType })],
                [t('staff.customer.locale'), profile.locale],
                [t('staff.customer.invite_code'), profile.inviteCode],
                [t('staff.customer.two_factor'), profile.twoFactorEnabled ? t('staff.common.yes') : t('staff.common.no')],
                [t('staff.customer.created'), format.time(profile.createdTime)],
                [t('staff.customer.trading'), prohibited ? t('staff.customer.prohibited') : t('staff.customer.allowed')],
                [t('staff.customer.trading_reason'), profile.tradeProhibitedReason ?? '—'],
                [t('staff.customer.deposits'), depositBlocked ? t('staff.customer.deposits_blocked') : t('staff.customer.deposits_allowed')],
                [t('staff.customer.deposits_reason'), profile.depositBlockReason ?? '—'],
              ]}
            />
          </Card>
          <Card title={t('staff.customer.balances')}>
            <Facts
              rows={[
                [t('staff.customer.real_balance'), format.amount(customer.balances.real.balanceAmount)],
                [t('staff.customer.real_margin'), format.amount(customer.balances.real.lockMargin)],
                [t('staff.customer.demo_balance'), format.amount(customer.balances.demo.balanceAmount)],
                [t('staff.customer.demo_margin'), format.amount(customer.balances.demo.lockMargin)],
              ]}
            />
          </Card>
          <Card title={t('staff.customer.wallets')}>
            {customer.wallets.length === 0 ? (
              <p className="staff-muted">{t('staff.customer.no_wallets')}</p>
            ) : (
              <Facts rows={customer.wallets.map((wallet) => [wallet.currency, format.amount(wallet.balance)] as const)} />
            )}
          </Card>
          <Card title={t('staff.customer.verification')}>
            <Facts rows={[[t('staff.customer.verification_status'), verificationLabel(customer.verification.verifiedStatus, t)]]} />
          </Card>
        </div>
      ) : null}
      {tab === 'orders' ? (
        <StaffGrid
          label={t('staff.customer.open_orders', { count: customer.openOrders.length })}
          filterable
          rowKey={(row) => `${row.book}-${row.id}`}
          data={customer.openOrders}
          columns={[
            orderColumn.accessor('uid', { header: t('staff.orders.number') }),
            orderColumn.accessor('book', { header: t('staff.orders.book'), cell: (info) => t(`staff.books.${info.getValue()}`) }),
            orderColumn.accessor('productName', { header: t('staff.orders.product') }),
            orderColumn.accessor((row) => (row.orderType === 0 ? t('staff.orders.buy') : t('staff.orders.sell')), { id: 'side', header: t('staff.orders.side') }),
            orderColumn.accessor((row) => (row.status === 1 ? t('staff.orders.pending') : t('staff.orders.position')), { id: 'status', header: t('staff.orders.status') }),
            orderColumn.accessor('orderQuantity', { header: t('staff.orders.volume') }),
            orderColumn.accessor('lever', { header: t('staff.orders.leverage') }),
            orderColumn.accessor((row) => row.openingPrice ?? row.limitPrice ?? '—', { id: 'price', header: t('staff.orders.price') }),
            orderColumn.accessor('securityDepositInitial', { header: t('staff.orders.margin'), cell: (info) => format.amount(info.getValue()) }),
            orderColumn.accessor('orderTime', { header: t('staff.orders.time'), cell: (info) => format.time(info.getValue()) }),
          ]}
        />
      ) : null}
      {tab === 'options' ? (
        <StaffGrid
          label={t('staff.customer.open_options', { count: customer.openOptions.length })}
          filterable
          rowKey={(row) => `${row.book}-${row.id}`}
          data={customer.openOptions}
          columns={[
            optionColumn.accessor('uid', { header: t('staff.orders.number') }),
            optionColumn.accessor('book', { header: t('staff.orders.book'), cell: (info) => t(`staff.books.${info.getValue()}`) }),
            optionColumn.accessor('productName', { header: t('staff.orders.product') }),
            optionColumn.accessor((row) => (row.orderType === 0 ? t('staff.orders.up') : t('staff.orders.down')), { id: 'side', header: t('staff.orders.side') }),
            optionColumn.accessor('amount', { header: t('staff.orders.amount'), cell: (info) => format.amount(info.getValue()) }),
            optionColumn.accessor('price', { header: t('staff.orders.price') }),
            optionColumn.accessor('endTime', { header: t('staff.orders.ends'), cell: (info) => format.time(info.getValue()) }),
          ]}
        />
      ) : null}
      {tab === 'ledger' && mayLedger ? <LedgerTab uid={profile.uid} /> : null}

      {dialog === 'trading' ? (
        <ReasonDialog
          title={prohibited ? t('staff.customer.allow_trading') : t('staff.customer.prohibit_trading')}
          confirmLabel={prohibited ? t('staff.customer.allow_trading') : t('staff.customer.prohibit_trading')}
          onClose={() => setDialog(null)}
          onSubmit={async (reason) => {
            const done = await runAction(
              () => client.call(customersSetTradingProhibited, { uid: profile.uid, prohibited: !prohibited, reason }),
              prohibited ? t('staff.customer.trading_allowed_done') : t('staff.customer.trading_prohibited_done'),
            );
            if (done) detail.reload();
            return done;
          }}
        >
          <p>{prohibited ? t('staff.customer.allow_explain') : t('staff.customer.prohibit_explain')}</p>
        </ReasonDialog>
      ) : null}
      {dialog === 'deposits' ? (
        <ReasonDialog
          title={depositBlocked ? t('staff.customer.unblock_deposits') : t('staff.customer.block_deposits')}
          confirmLabel={depositBlocked ? t('staff.customer.unblock_deposits') : t('staff.customer.block_deposits')}
          onClose={() => setDialog(null)}
          onSubmit={async (reason) => {
            const done = await runAction(
              () => client.call(customersSetDepositBlocked, { uid: profile.uid, blocked: !depositBlocked, reason }),
              depositBlocked ? t('staff.customer.deposits_unblocked_done') : t('staff.customer.deposits_blocked_done'),
            );
            if (done) detail.reload();
            return done;
          }}
        >
          <p>{depositBlocked ? t('staff.customer.unblock_deposits_explain') : t('staff.customer.block_deposits_explain')}</p>
        </ReasonDialog>
      ) : null}
      {dialog === 'sessions' ? (
        <ReasonDialog
          title={t('staff.customer.end_sessions')}
          confirmLabel={t('staff.customer.end_sessions')}
          onClose={() => setDialog(null)}
          onSubmit={(reason) => runAction(() => client.call(customersEndSessions, { uid: profile.uid, reason }), t('staff.customer.sessions_ended'))}
        >
          <p>{t('staff.customer.end_sessions_explain')}</p>
        </ReasonDialog>
      ) : null}
      {dialog === 'notice' ? (
        <NoticeDialog
          recipient={t('staff.notices.to_customer', { uid: profile.uid })}
          onClose={() => setDialog(null)}
          onSend={(notice) => runAction(() => client.call(noticesSend, { uid: profile.uid, ...notice }), t('staff.notices.sent_one'))}
        />
      ) : null}
    </ConsolePage>
  );
}

function LedgerTab(props: { uid: number }) {
  const { t } = useTranslation();
  const { client } = useStaff();
  const format = useFormat();
  const [page, setPage] = useState(1);
  const ledger = useLoad(() => client.call(customersLedger, { uid: props.uid, page, limit: 50 }), [props.uid, page]);
  return (
    <StaffGrid
      label={t('staff.customer.ledger')}
      filterable
      data={ledger.data?.list ?? []}
      empty={ledger.loading ? t('common.loading') : t('staff.grid.empty')}
      serverPages={{ page, pages: ledger.data?.pages ?? 1, onPage: setPage }}
      columns={[
        ledgerColumn.accessor('time', { header: t('staff.ledger.time'), cell: (info) => format.time(info.getValue()) }),
        ledgerColumn.accessor('journalId', { header: t('staff.ledger.journal') }),
        ledgerColumn.accessor('journalKind', { header: t('staff.ledger.kind') }),
        ledgerColumn.accessor((row) => `${row.book} / ${row.accountKind}`, { id: 'account', header: t('staff.ledger.account') }),
        ledgerColumn.accessor('amount', { header: t('staff.ledger.amount'), cell: (info) => <span className="numeric">{format.amount(info.getValue())}</span> }),
        ledgerColumn.accessor((row) => row.reference ?? '—', { id: 'reference', header: t('staff.ledger.reference') }),
      ]}
    />
  );
}
