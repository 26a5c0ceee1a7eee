import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { userInfo, type UserInfo } from '../../../shared/api/account';
import { getCustomerLink } from '../../../shared/api/anonymous';
import { logout } from '../../../shared/api/auth';
import { avatarPartName, characterCount, infoSubmit, nickMaxLength } from '../../../shared/api/profile';
import { imageAccept } from '../../../shared/uploads/image-rules';
import { switchesSignal, useApp } from '../../app-context';
import { confirmDialog } from '../../components/confirm';
import { copyText } from '../../components/copy-text';
import { PageFrame } from '../../components/page-frame';
import { profileChanged } from '../../features/profile/use-user-info';
import { TextField } from '../../components/text-field';
import { showToast } from '../../components/toasts';
import { adoptSession, loggedOutHereSignal, sessionSignal } from '../../engine/signals';
import { ImageRefusedError, prepareImage } from '../../features/money/deposit/prepare-image';
import { accountRows } from '../../features/profile/account-rows';
import { usePickedImage } from '../../components/picked-image';
import { UserAvatar } from '../../features/profile/user-avatar';
import { useIsDesktop } from '../../layouts/use-viewport';
import { resolveGuard } from '../../routing/guards';
import { hasScreen } from '../../routing/routes';
import '../../styles/money.css';
import '../../styles/profile.css';

/** The specification's delay between "log out success" and the sign-in screen. */
const logoutRedirectMs = 1000;

/** The nickname's message key, or null when it may be sent. */
function nicknameProblem(nick: string): string | null {
  const trimmed = nick.trim();
  if (!trimmed) return 'profile.p_t_nickname';
  if (characterCount(trimmed) > nickMaxLength) return 'profile.nickname_too_long';
  return null;
}

/**
 * `/user/account`: the profile. The avatar (picked, HEIC converted and compressed as the
 * deposit proof is) and the nickname, sent together by Done; rows to bind an e-mail (a phone
 * account without one), change the password, invite friends (the code to copy on desktop),
 * the privacy policy (when the brand shows it) and the service e-mail (copy, desktop); log
 * out after a confirmation, then the sign-in screen a second later.
 */
export function AccountPage() {
  useSignals();
  const { t } = useTranslation();
  const { http, engine } = useApp();
  const [, navigate] = useLocation();
  const isDesktop = useIsDesktop();
  const session = sessionSignal.value;
  const switches = switchesSignal.value;
  const [info, setInfo] = useState<UserInfo | null>(null);
  const [nick, setNick] = useState('');
  const [nickError, setNickError] = useState<string | null>(null);
  const [avatar, setAvatar] = useState<File | null>(null);
  const [avatarError, setAvatarError] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const [serviceEmail, setServiceEmail] = useState('');
  const [reload, setReload] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const preview = usePickedImage(avatar);

  useEffect(() => {
    const controller = new AbortController();
    http
      .call(userInfo, {}, { signal: controller.signal })
      .then((next) => {
        setInfo(next);
        setNick(next.nick);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [http, session.version, reload]);

  useEffect(() => {
    if (!isDesktop) return;
    const controller = new AbortController();
    http
      .call(getCustomerLink, {}, { signal: controller.signal, silent: true })
      .then((link) => setServiceEmail(link.email))
      .catch(() => undefined);
    return () => controller.abort();
  }, [http, isDesktop]);

  // A second after "log out success": the server ends the session family (whatever it answers,
  // this device signs out), every tab signs out, and this one goes to the sign-in screen. Ending
  // the session first would send this signed-in page to the sign-in screen at once.
  useEffect(() => {
    if (!loggingOut) return;
    const timer = setTimeout(() => {
      void (async () => {
        // Before the call: the server's end of the session may reach this tab before its answer.
        loggedOutHereSignal.value = true;
        await http.call(logout, {}, { silent: true }).catch(() => undefined);
        adoptSession(await engine.signOut('logout'));
        navigate('/login', { replace: true });
      })();
    }, logoutRedirectMs);
    return () => clearTimeout(timer);
  }, [loggingOut, http, engine, navigate]);

  const context = { signedIn: true, book: session.book, switches, hasScreen };
  const opens = (path: string) => resolveGuard(path, '', context).kind === 'render';
  const rows = new Set(accountRows({ user: info, switches, isDesktop, serviceEmail, opens }));
  const copied = { copied: t('user.copied'), failed: t('user.copy_failed') };

  async function pick(file: File | undefined) {
    if (!file) return;
    setPreparing(true);
    try {
      setAvatar(await prepareImage(file));
      setAvatarError(null);
    } catch (error) {
      setAvatar(null);
      setAvatarError(t(error instanceof ImageRefusedError ? error.messageKey : 'upload.illegal_extension'));
    } finally {
      setPreparing(false);
      if (fileInput.current) fileInput.current.value = '';
    }
  }

  async function done() {
    const problem = nicknameProblem(nick);
    setNickError(problem ? t(problem, { max: nickMaxLength }) : null);
    if (problem) return;
    setSaving(true);
    try {
      await http.call(infoSubmit, { nickName: nick.trim() }, avatar ? { files: { [avatarPartName]: avatar } } : {});
      // The hub and the account dialog beside this page show the nickname and avatar too.
      profileChanged();
      showToast('success', t('notice.update_success'));
      setAvatar(null);
      setReload((count) => count + 1);
    } catch {
      // The request client told the customer; the form keeps what they entered.
    } finally {
      setSaving(false);
    }
  }

  async function signOut() {
    if (!(await confirmDialog({ title: t('user.logout'), message: t('user.logout_confirm') }))) return;
    showToast('success', t('profile.logout_success'));
    setLoggingOut(true);
  }

  return (
    <PageFrame title={t('page.account')} back="/user">
      <div className="account-form">
        <div className="account-avatar">
          <UserAvatar avator={info?.avator} nick={info?.nick} preview={preview} label={t('profile.avatar')} />
          <input
            ref={fileInput}
            type="file"
            accept={imageAccept}
            className="visually-hidden"
            aria-label={t('profile.change_avatar')}
            onChange={(event) => void pick(event.target.files?.[0])}
            data-testid="avatar-input"
          />
          <div className="account-avatar-actions">
            <button type="button" className="link-button" disabled={preparing} onClick={() => fileInput.current?.click()}>
              {preparing ? t('deposit.processing') : t('profile.change_avatar')}
            </button>
            <span className="field-hint">{t('notice.native_camera_first')}</span>
            {avatarError ? (
              <p className="field-error" role="alert">
                {avatarError}
              </p>
            ) : null}
          </div>
        </div>
        <TextField
          label={t('profile.nickname')}
          value={nick}
          maxLength={nickMaxLength * 2}
          placeholder={t('profile.p_t_nickname')}
          autoComplete="nickname"
          error={nickError}
          onChange={(value) => {
            setNick(value);
            if (nickError) setNickError(null);
          }}
        />

        <ul className="account-rows" aria-label={t('profile.settings')}>
          {rows.has('bindEmail') && info ? (
            <li>
              <Link href="/user/bindEmail">{t('page.bind_email')}</Link>
            </li>
          ) : null}
          {rows.has('changePassword') ? (
            <li>
              <Link href="/user/changePassword">{t('page.change_password')}</Link>
            </li>
          ) : null}
          {rows.has('inviteCode') && info ? (
            <li className="account-row-copy">
              <span>
                {t('user.invite_code')}: <span className="numeric" data-testid="account-invite-code">{info.inviteCode}</span>
              </span>
              <button type="button" className="link-button" onClick={() => void copyText(info.inviteCode, copied)}>
                {t('common.copy')}
              </button>
            </li>
          ) : null}
          {rows.has('invite') ? (
            <li>
              <Link href="/user/invite">{t('profile.invite_title')}</Link>
            </li>
          ) : null}
          {rows.has('privacy') ? (
            <li>
              <Link href="/user/privacy">{t('page.privacy')}</Link>
            </li>
          ) : null}
          {rows.has('serviceEmail') ? (
            <li className="account-row-copy">
              <span>
                {t('profile.service_email')}: <span data-testid="account-service-email">{serviceEmail}</span>
              </span>
              <button type="button" className="link-button" onClick={() => void copyText(serviceEmail, copied)}>
                {t('common.copy')}
              </button>
            </li>
          ) : null}
        </ul>

        <div className="account-buttons">
          <button type="button" className="button primary block" disabled={saving || preparing || !info} onClick={() => void done()}>
            {t('common.done')}
          </button>
          <button type="button" className="button secondary block" disabled={loggingOut} onClick={() => void signOut()}>
            {t('user.logout')}
          </button>
        </div>
      </div>
    </PageFrame>
  );
}
