import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionAccount } from '../../../shared/protocol/engine';
import { formatMoney, type Units } from '../../../shared/money/money';
import { accountCurrency, accountFigures, belowMarginCall, marginCallCrossed, type AccountFigures } from '../../../shared/trading/account-figures';
import { serverClock, useApp } from '../../app-context';
import { ConnectionIndicator } from '../../components/connection-indicator';
import { showToast } from '../../components/toasts';
import { useSecondTick } from '../../components/use-second-tick';
import { positionsSignal, sessionSignal } from '../../engine/signals';
import { useBrandFormat } from '../../format/use-brand-format';
import { changeTone } from '../catalogue/price-tone';
import { useAccountBalance } from './account-balance';

/**
 * The signed-in account's figures, live: the cash from the balance pushes with the open
 * positions and pending orders of the positions feed; null until both have spoken.
 */
export function useAccountFigures(): AccountFigures | null {
  const balance = useAccountBalance();
  const { holt, pending } = positionsSignal.value;
  if (balance === null || holt === null) return null;
  return accountFigures(balance.balanceAmount, [...holt.orderList, ...(pending?.orderList ?? [])]);
}

/**
 * Whether each account was last seen in a margin call, kept for the app's life rather than
 * the strip's, so that a strip mounted again (another page) does not tell the same call twice.
 */
const lastMarginCall = new Map<string, boolean>();

/** Tells of a margin call once per crossing: when the account goes below the level, not at every price after. */
function useMarginCallNotice(account: string | null, called: boolean | null, levelPercent: number) {
  const { t } = useTranslation();
  useEffect(() => {
    if (account === null || called === null) return;
    if (marginCallCrossed(lastMarginCall.get(account) ?? null, called)) showToast('error', t('strip.margin_call_notice', { level: levelPercent }));
    lastMarginCall.set(account, called);
  }, [account, called, levelPercent, t]);
}

function Figure(props: { label: string; value: string; tone?: string; testId: string }) {
  return (
    <div className="account-strip-figure">
      <dt>{props.label}</dt>
      <dd className={props.tone} data-testid={props.testId}>
        {props.value}
      </dd>
    </div>
  );
}

/** The server's time, at each second, in the brand's time zone and format. */
function ServerClock() {
  const { t } = useTranslation();
  const format = useBrandFormat();
  const nowMs = useSecondTick();
  // The device's clock corrected by the answers' Date headers (it moves with nowMs).
  const serverNowMs = nowMs - serverClock.offsetMs();
  return (
    <div className="account-strip-figure account-strip-clock">
      <dt>{t('strip.server_time')}</dt>
      <dd data-testid="strip-server-time">
        <time dateTime={new Date(serverNowMs).toISOString()}>{format.time(serverNowMs)}</time>
      </dd>
    </div>
  );
}

/**
 * The account strip of every trading screen: balance, equity, used and free margin, margin
 * level and open profit and loss in the account's currency, live; the margin-call warning
 * below the brand's level (in words and colour, and a notice once per crossing); the
 * connection (`withConnection`: on phones, whose top has no bar for it) and the server's clock.
 * A visitor sees the connection and the clock only.
 */
export function AccountStrip(props: { withConnection: boolean }) {
  useSignals();
  const { t } = useTranslation();
  const { config } = useApp();
  const format = useBrandFormat();
  const account = sessionAccount(sessionSignal.value);
  const figures = useAccountFigures();
  const level = config.marginCallLevelPercent;
  const called = figures === null ? null : belowMarginCall(figures, level);
  useMarginCallNotice(account, called, level);
  const amount = (units: Units) => format.units(units);
  return (
    // It scrolls sideways where its figures run out of room (phones): focusable, so the keyboard scrolls it too.
    <section className="account-strip" tabIndex={0} aria-label={t('strip.label')} data-margin-call={called === true ? 'true' : undefined}>
      {props.withConnection ? <ConnectionIndicator /> : null}
      {account !== null ? (
        <dl className="account-strip-figures numeric">
          <div className="account-strip-figure">
            <dt className="visually-hidden">{t('strip.currency')}</dt>
            <dd className="account-strip-currency">{accountCurrency}</dd>
          </div>
          <Figure label={t('strip.balance')} value={figures ? amount(figures.balance) : '…'} testId="strip-balance" />
          <Figure label={t('strip.equity')} value={figures ? amount(figures.equity) : '…'} testId="strip-equity" />
          <Figure label={t('strip.used_margin')} value={figures ? amount(figures.usedMargin) : '…'} testId="strip-used-margin" />
          <Figure label={t('position.free_margin')} value={figures ? amount(figures.freeMargin) : '…'} testId="strip-free-margin" />
          <Figure
            label={t('strip.margin_level')}
            value={figures === null ? '…' : figures.marginLevelPercent === null ? '—' : `${amount(figures.marginLevelPercent)} %`}
            tone={called ? 'down' : undefined}
            testId="strip-margin-level"
          />
          <Figure
            label={t('strip.open_profit_loss')}
            value={figures ? amount(figures.openProfitLoss) : '…'}
            tone={figures ? changeTone(formatMoney(figures.openProfitLoss)) : undefined}
            testId="strip-open-profit-loss"
          />
          {called ? (
            <div className="account-strip-figure account-strip-warning">
              <dt className="visually-hidden">{t('strip.margin_level')}</dt>
              <dd>{t('strip.margin_call', { level })}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      <dl className="account-strip-figures numeric account-strip-end">
        <ServerClock />
      </dl>
    </section>
  );
}
