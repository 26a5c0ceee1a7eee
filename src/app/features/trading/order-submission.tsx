import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** The specification's submit lock. */
const submitLockMs = 1_000;

/**
 * Sending an order from a form: at most one submission a second (a double tap places one
 * order), and one `clientOrderId` per order the user means, kept across a retry after a
 * lost answer so the server places it once, new after a success. Answers null when the
 * submission was refused by the lock or failed (the request client has told the user why).
 */
export function useOrderSubmission() {
  const [submitting, setSubmitting] = useState(false);
  const lockedUntil = useRef(0);
  const clientOrderId = useRef<string | null>(null);

  async function submit<T>(place: (clientOrderId: string) => Promise<T>): Promise<T | null> {
    const now = Date.now();
    if (submitting || now < lockedUntil.current) return null;
    lockedUntil.current = now + submitLockMs;
    clientOrderId.current ??= crypto.randomUUID();
    setSubmitting(true);
    try {
      const placed = await place(clientOrderId.current);
      clientOrderId.current = null;
      return placed;
    } catch {
      return null;
    } finally {
      setSubmitting(false);
    }
  }

  return { submitting, submit };
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
