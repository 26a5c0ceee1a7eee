import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactType } from '../../../shared/api/auth';
import { resendCodeAfterSeconds } from '../../../shared/auth/validation';
import { useApp } from '../../app-context';
import { showToast } from '../../components/toasts';
import type { ContactDraft } from './contact';
import { sendCode, type CodePurpose } from './send-code';
import { useCountdown } from './use-countdown';

/** The contact a two-step form (sign-up, reset) sent its code to. */
export interface CodeTarget {
  type: ContactType;
  username: string;
  label: string;
  draft: ContactDraft;
}

/**
 * One submission at a time: `run` ignores a second press while the first is under way
 * (`busy` tells a form that checks nothing while one is).
 */
export function useSubmitLock() {
  const busy = useRef(false);
  const [submitting, setSubmitting] = useState(false);
  async function run(task: () => Promise<void>) {
    if (busy.current) return;
    busy.current = true;
    setSubmitting(true);
    try {
      await task();
    } catch {
      // The request client has shown the server's message.
    } finally {
      busy.current = false;
      setSubmitting(false);
    }
  }
  return { submitting, run, busy: () => busy.current };
}

export type SubmitLock = ReturnType<typeof useSubmitLock>;

/**
 * Sending and resending a code for one purpose, with the 60 s resend countdown; knows
 * whether a code is still on its way to a contact (back and forth within the wait).
 */
export function useCodeSender(purpose: CodePurpose) {
  const { t, i18n } = useTranslation();
  const { http } = useApp();
  const resend = useCountdown();
  /** The contact the running countdown belongs to. */
  const sentTo = useRef<string | null>(null);
  const keyOf = (target: Pick<CodeTarget, 'type' | 'username'>) => `${target.type}:${target.username}`;
  return {
    resend,
    /** A code sent to this contact is still good (its countdown runs). */
    pending(target: Pick<CodeTarget, 'type' | 'username'>): boolean {
      return resend.running && sentTo.current === keyOf(target);
    },
    async send(target: CodeTarget) {
      await sendCode(http, target, purpose, i18n.language);
      sentTo.current = keyOf(target);
      resend.start(resendCodeAfterSeconds);
      showToast('success', t('auth.code_sent', { contact: target.label }));
    },
  };
}

/** Where a finished sign-up or reset goes: sign-in with the account filled in. */
export function loginPathFor(target: CodeTarget): string {
  const account = target.type === 'E' ? target.username : target.draft.phone.trim();
  const phone = target.type === 'P' ? `&type=P&country=${encodeURIComponent(target.draft.country)}` : '';
  return `/login?account=${encodeURIComponent(account)}${phone}`;
}
