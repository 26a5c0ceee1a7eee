import { useMemo, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactType } from '../../../shared/api/auth';
import { contactMaxLength } from '../../../shared/auth/validation';
import type { ContactDraft } from './contact';
import { countryOptions, isCountryCode } from './countries';
import { TextField } from '../../components/text-field';

/** Longest phone number as typed (national or international form, with spaces). */
const phoneMaxLength = 32;

/** E-mail or phone tabs (phone only when the brand allows it). */
function ContactTypeSwitch(props: { value: ContactType; onChange: (type: ContactType) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="segmented contact-type" role="group" aria-label={t('auth.contact_type')}>
      {(['E', 'P'] as const).map((type) => (
        <button
          key={type}
          type="button"
          aria-pressed={props.value === type}
          disabled={props.disabled}
          onClick={() => props.onChange(type)}
        >
          {t(type === 'E' ? 'auth.email' : 'auth.phone')}
        </button>
      ))}
    </div>
  );
}

/** The calling-code select in front of the phone number; names in the UI language. */
function CountrySelect(props: { value: string; onChange: (country: string) => void; disabled?: boolean }) {
  const { t, i18n } = useTranslation();
  const options = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const current = options.find((option) => option.code === props.value);
  return (
    <span className="country-select">
      {/* The select shows the full names when open; closed it shows only "+code". */}
      <span className="country-select-value" aria-hidden="true">
        {current ? `+${current.callingCode}` : '+'}
      </span>
      <select
        aria-label={t('auth.country')}
        value={isCountryCode(props.value) ? props.value : ''}
        disabled={props.disabled}
        onChange={(event) => props.onChange(event.target.value)}
      >
        {isCountryCode(props.value) ? null : (
          <option value="" disabled>
            {t('auth.country')}
          </option>
        )}
        {options.map((option) => (
          <option key={option.code} value={option.code}>
            {t('auth.country_option', { name: option.name, code: option.callingCode })}
          </option>
        ))}
      </select>
    </span>
  );
}

/**
 * The contact of sign-in, sign-up and reset: an e-mail address, or (when allowed) a phone
 * number with its country. The message is already translated.
 */
export function ContactField(props: {
  value: ContactDraft;
  onChange: (draft: ContactDraft) => void;
  allowPhone: boolean;
  error?: string | null;
  /** Sign-in fills a saved account ("username"); sign-up and reset take a fresh address. */
  purpose: 'login' | 'other';
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const { value, onChange } = props;
  const type = props.allowPhone ? value.type : 'E';
  const phone = type === 'P';
  return (
    <>
      {props.allowPhone ? (
        <ContactTypeSwitch value={type} disabled={props.disabled} onChange={(next) => onChange({ ...value, type: next })} />
      ) : null}
      {/* One field whose kind follows the tab: the input stays, its label and rules change. */}
      <TextField
        label={t(phone ? 'auth.phone' : 'auth.email')}
        type={phone ? 'tel' : 'email'}
        inputMode={phone ? 'tel' : 'email'}
        autoComplete={props.purpose === 'login' ? 'username' : phone ? 'tel-national' : 'email'}
        placeholder={t(phone ? 'auth.phone_placeholder' : 'auth.email_placeholder')}
        maxLength={phone ? phoneMaxLength : contactMaxLength}
        value={phone ? value.phone : value.email}
        error={props.error}
        disabled={props.disabled}
        inputRef={props.inputRef}
        before={phone ? <CountrySelect value={value.country} disabled={props.disabled} onChange={(country) => onChange({ ...value, country })} /> : undefined}
        onChange={(typed) => onChange(phone ? { ...value, phone: typed } : { ...value, email: typed })}
      />
    </>
  );
}
