import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inviteInfo, type InviteInfo } from '../../../shared/api/profile';
import { useApp } from '../../app-context';
import { copyText } from '../../components/copy-text';
import { PageFrame } from '../../components/page-frame';
import '../../styles/profile.css';

/**
 * `/user/invite`: the customer's invite code and sign-up link to copy, how many friends
 * signed up with it, and Share (the Web Share API where the device has it, else the link
 * is copied).
 */
export function InvitePage() {
  const { t } = useTranslation();
  const { http } = useApp();
  const [invite, setInvite] = useState<InviteInfo | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    http
      .call(inviteInfo, {}, { signal: controller.signal })
      .then((next) => {
        setInvite(next);
        setFailed(false);
      })
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [http, attempt]);

  const copied = { copied: t('user.copied'), failed: t('user.copy_failed') };

  async function share(current: InviteInfo) {
    const data = { title: t('profile.invite_share_title'), text: t('profile.invite_share_text', { code: current.inviteCode }), url: current.inviteLink };
    if (typeof navigator.share === 'function' && (typeof navigator.canShare !== 'function' || navigator.canShare(data))) {
      try {
        await navigator.share(data);
        return;
      } catch (error) {
        // Dismissed by the customer: nothing to do. Any other failure: copy instead.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    await copyText(current.inviteLink, copied);
  }

  let content;
  if (failed) {
    content = (
      <div className="list-state">
        <button type="button" className="button secondary" onClick={() => setAttempt((count) => count + 1)}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else if (!invite) {
    content = (
      <div className="list-state" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  } else {
    content = (
      <div className="invite-card">
        <p>{t('profile.invite_intro')}</p>
        <dl className="invite-lines">
          <div>
            <dt>{t('user.invite_code')}</dt>
            <dd>
              <span className="numeric invite-code" data-testid="invite-code">
                {invite.inviteCode}
              </span>
              <button type="button" className="link-button" onClick={() => void copyText(invite.inviteCode, copied)}>
                {t('profile.copy_code')}
              </button>
            </dd>
          </div>
          <div>
            <dt>{t('profile.invite_link')}</dt>
            <dd>
              <span className="invite-link" data-testid="invite-link">
                {invite.inviteLink}
              </span>
              <button type="button" className="link-button" onClick={() => void copyText(invite.inviteLink, copied)}>
                {t('profile.copy_link')}
              </button>
            </dd>
          </div>
          <div>
            <dt>{t('profile.invited_count')}</dt>
            <dd className="numeric" data-testid="invited-count">
              {invite.invitedCount}
            </dd>
          </div>
        </dl>
        <button type="button" className="button primary block" onClick={() => void share(invite)}>
          {t('profile.share')}
        </button>
      </div>
    );
  }
  return <PageFrame title={t('profile.invite_title')}>{content}</PageFrame>;
}
