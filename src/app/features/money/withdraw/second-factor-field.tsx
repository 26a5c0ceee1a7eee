import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { twoFactorStatus } from '../../../../shared/api/auth';
import { useApp } from '../../../app-context';
import { TextField } from '../../../components/text-field';

/** Whether the customer has the authenticator on: a withdrawal and a new destination then ask its code (the server's 1076). */
export function useSecondFactorOn(): boolean {
  const { http } = useApp();
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    let stopped = false;
    http
      .call(twoFactorStatus, {}, { silent: true })
      .then((status) => !stopped && setEnabled(status.enabled))
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [http]);
  return enabled;
}

/** The 6-digit code a money action sends as `totpCode`; nothing is shown while the second factor is off. */
export function SecondFactorField(props: { enabled: boolean; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  if (!props.enabled) return null;
  // The hint under the field, where it wraps: as a placeholder it was cut at a phone's width in every language.
  return (
    <>
      <TextField
        label={t('withdraw.totp_label')}
        value={props.value}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        inputClassName="numeric"
        onChange={(value) => props.onChange(value.replace(/\D/g, '').slice(0, 6))}
      />
      <p className="field-hint">{t('withdraw.totp_hint')}</p>
    </>
  );
}

/** The body's `totpCode` when one is asked and typed. */
export function totpCodeOf(enabled: boolean, code: string): { totpCode?: string } {
  return enabled && code.length === 6 ? { totpCode: code } : {};
}
