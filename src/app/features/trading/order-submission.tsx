import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { ErrorCode } from '../../../shared/errors/catalogue';
import { RequestError, type RequestFailure, type RequestOptions } from '../../api/http-client';
import { switchesSignal, useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import { sessionSignal } from '../../engine/signals';
import { useBookSwitch } from '../account/book-switch';
import { orderRefusalDecision, type RefusalAction } from './order-refusal';

/** The specification's submit lock. */
const submitLockMs = 1_000;

/**
 * Sending an order from a form: at most one submission a second (a double tap places one
 * order), and one `clientOrderId` per order the user means, kept across a retry after a
 * lost answer so the server places it once, new after a success. Answers null when the
 * submission was refused by the lock or failed (the user has been told why: see
 * `useOrderRefusalReport`). `place` makes its call with the options it is given.
 */
export function useOrderSubmission() {
  const [submitting, setSubmitting] = useState(false);
  const lockedUntil = useRef(0);
  const clientOrderId = useRef<string | null>(null);
  const reportRefusal = useOrderRefusalReport();

  async function submit<T>(place: (clientOrderId: string, requestOptions: RequestOptions) => Promise<T>): Promise<T | null> {
    const now = Date.now();
    if (submitting || now < lockedUntil.current) return null;
    lockedUntil.current = now + submitLockMs;
    clientOrderId.current ??= crypto.randomUUID();
    setSubmitting(true);
    try {
      const placed = await place(clientOrderId.current, { silent: true });
      clientOrderId.current = null;
      return placed;
    } catch (error) {
      if (error instanceof RequestError) reportRefusal(error.failure);
      return null;
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, submit };
}

/** Tells the user why an order failed, as `orderRefusalDecision` decides. */
export function useOrderRefusalReport() {
  const { t } = useTranslation();
  const { http } = useApp();
  const [, navigate] = useLocation();
  const bookSwitch = useBookSwitch();
  return (failure: RequestFailure) => {
    const decision = orderRefusalDecision(failure, sessionSignal.peek(), switchesSignal.peek().VIRTUAL_CURRENCY_TRADE === true);
    if (decision.kind === 'plain') {
      http.report(failure);
      return;
    }
    const runs: Record<RefusalAction, { label: string; run: () => void }> = {
      deposit: { label: t('trade.deposit_action'), run: () => navigate('/user/deposit') },
      'switch-to-demo': { label: t('trade.switch_to_demo_action'), run: () => void bookSwitch.choose('demo') },
    };
    showToast('error', `${t('trade.insufficient_balance_real')} (${ErrorCode.INSUFFICIENT_BALANCE})`, { actions: decision.actions.map((action) => runs[action]) });
  };
}

/** What an order form shows a visitor: sign in, then come back to this form. */
export function SignInToTrade(props: { returnPath: string }) {
  const { t } = useTranslation();
  return (
    <div className="list-state">
      <p>{t('trade.sign_in_to_trade')}</p>
      <Link href={`/login?to=${encodeURIComponent(props.returnPath)}`} className="button primary">
        {t('page.login')}
      </Link>
    </div>
  );
}
