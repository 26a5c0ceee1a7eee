import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getCustomerLink } from '../../../shared/api/anonymous';
import { serviceChannels, type ServiceChannels } from '../../../shared/config/customer-link';
import { useApp } from '../../app-context';
import { FloatingDialog } from '../../components/floating-dialog';
import { PageFrame } from '../../components/page-frame';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; channels: ServiceChannels };

function ChatFrame(props: { url: string; title: string }) {
  return (
    <iframe
      className="service-frame"
      src={props.url}
      title={props.title}
      referrerPolicy="no-referrer"
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
    />
  );
}

/** E-mail, telegram and whatsapp buttons (those configured). */
function ChannelButtons(props: { channels: ServiceChannels }) {
  const { t } = useTranslation();
  const { email, telegram, whatsapp } = props.channels;
  return (
    <div className="service-buttons">
      {email ? (
        <a className="button secondary" href={`mailto:${email}`}>
          {t('service.email')}
        </a>
      ) : null}
      {telegram ? (
        <a className="button secondary" href={telegram} target="_blank" rel="noopener noreferrer">
          {t('service.telegram')}
        </a>
      ) : null}
      {whatsapp ? (
        <a className="button secondary" href={whatsapp} target="_blank" rel="noopener noreferrer">
          {t('service.whatsapp')}
        </a>
      ) : null}
    </div>
  );
}

/**
 * `/user/service`, open to everyone: the chat embedded when it is the only channel;
 * otherwise cards for the online chat, telegram and whatsapp, the chat opening in a
 * draggable floating dialog (or a new window when the brand says so) that also offers
 * the e-mail, telegram and whatsapp buttons.
 */
export function ServicePage() {
  const { t } = useTranslation();
  const { http } = useApp();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [chatOpen, setChatOpen] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    http
      .call(getCustomerLink, {}, { signal: controller.signal })
      .then((link) => setState({ status: 'ready', channels: serviceChannels(link) }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [http, attempt]);

  let content;
  if (state.status === 'loading') {
    content = (
      <div className="list-state" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
      </div>
    );
  } else if (state.status === 'failed') {
    content = (
      <div className="list-state" role="alert">
        <p>{t('service.failed')}</p>
        <button
          type="button"
          className="button secondary"
          onClick={() => {
            setState({ status: 'loading' });
            setAttempt((value) => value + 1);
          }}
        >
          {t('common.retry')}
        </button>
      </div>
    );
  } else if (state.channels.view === 'frame' && state.channels.chatUrl) {
    content = <ChatFrame url={state.channels.chatUrl} title={t('service.online')} />;
  } else {
    const { channels } = state;
    const cards = [
      channels.chatUrl ? { key: 'online', href: channels.chatUrl, inPage: channels.chatInPage } : null,
      channels.telegram ? { key: 'telegram', href: channels.telegram, inPage: false } : null,
      channels.whatsapp ? { key: 'whatsapp', href: channels.whatsapp, inPage: false } : null,
    ].filter((card) => card !== null);
    content = (
      <>
        {cards.length === 0 && !channels.email ? <p className="list-state">{t('service.none')}</p> : null}
        <ul className="service-cards">
          {cards.map((card) => (
            <li key={card.key} className={`service-card service-${card.key}`}>
              <strong>{t(`service.${card.key}`)}</strong>
              <span>{t(`service.${card.key}_hint`)}</span>
              {card.inPage ? (
                <button type="button" className="button primary" onClick={() => setChatOpen(true)}>
                  {t('service.open_chat')}
                </button>
              ) : (
                <a className="button primary" href={card.href} target="_blank" rel="noopener noreferrer">
                  {t('service.open')}
                </a>
              )}
            </li>
          ))}
        </ul>
        {channels.email ? (
          <p className="service-email">
            <span>{t('service.email')}</span>
            <a href={`mailto:${channels.email}`}>{channels.email}</a>
          </p>
        ) : null}
        {chatOpen && channels.chatUrl ? (
          <FloatingDialog title={t('service.online')} onClose={() => setChatOpen(false)}>
            <ChannelButtons channels={channels} />
            <ChatFrame url={channels.chatUrl} title={t('service.online')} />
          </FloatingDialog>
        ) : null}
      </>
    );
  }

  return (
    <PageFrame title={t('page.service')} fill={state.status === 'ready' && state.channels.view === 'frame'}>
      {content}
    </PageFrame>
  );
}
