import { useState, type FormEvent } from 'react';
import { useApp } from '../../app-context';
import { preferences, savePreferences } from '../../preferences/preferences';
import { useCodeSender, type CodeTarget, type SubmitLock } from './code-step';
import { contactLabel, emptyContact, readContact, type ContactDraft } from './contact';
import type { CodePurpose } from './send-code';
import type { FieldErrors } from './use-field-errors';

export interface CodeDeliveryOptions {
  purpose: CodePurpose;
  /** The form's one submission at a time: sending a code is one. */
  lock: SubmitLock;
  fields: Pick<FieldErrors<'contact'>, 'report' | 'bind'>;
  /** Step 2 opens with a code on its way: `fresh` when it was sent just now, not still pending from before. */
  toCodeStep: (fresh: boolean) => void;
  /**
   * Another way on to step 2 for this contact instead of a code (sign-up by phone without
   * SMS: the image captcha), or null to send a code.
   */
  instead?: (target: CodeTarget) => Promise<void> | null;
}

/**
 * Step 1 of sign-up and reset: the contact being typed, the code sent to it with the resend
 * wait, and `target`, the contact step 2 works with (null while on step 1).
 */
export function useCodeDelivery(options: CodeDeliveryOptions) {
  const { config } = useApp();
  const { lock, fields } = options;
  const blankContact = () => emptyContact(config.phoneRegisterCountry, preferences().lastCountry);
  const [contact, setContact] = useState<ContactDraft>(blankContact);
  const [target, setTarget] = useState<CodeTarget | null>(null);
  const codes = useCodeSender(options.purpose);

  /** Goes on to step 2; back and forth within the resend wait, the code already sent still holds. */
  function deliver(next: CodeTarget) {
    if (codes.pending(next)) {
      options.toCodeStep(false);
      setTarget(next);
      return;
    }
    void lock.run(async () => {
      if (next.type === 'P') void savePreferences({ lastCountry: next.draft.country });
      const instead = options.instead?.(next) ?? null;
      if (instead) {
        setTarget(next);
        await instead;
        return;
      }
      await codes.send(next);
      options.toCodeStep(true);
      setTarget(next);
    });
  }

  return {
    contact,
    target,
    contactField: fields.bind('contact', setContact),
    submitting: lock.submitting,
    resendSecondsLeft: codes.resend.secondsLeft,
    /** Step 1's submit: a contact that cannot be read is told in its field. */
    submitContact(event: FormEvent) {
      event.preventDefault();
      const reading = readContact(contact, 'other');
      if (!fields.report(reading.ok ? {} : { contact: reading.errorKey }) || !reading.ok) return;
      deliver({ type: reading.type, username: reading.username, label: contactLabel(contact), draft: contact });
    },
    resend() {
      if (!target) return;
      void lock.run(() => codes.send(target));
    },
    /** Back to step 1; `clearContact` also starts again with an empty contact. */
    back(back: { clearContact: boolean }) {
      setTarget(null);
      if (back.clearContact) setContact(blankContact());
    },
  };
}

export type CodeDelivery = ReturnType<typeof useCodeDelivery>;
