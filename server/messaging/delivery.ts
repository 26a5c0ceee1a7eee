import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { SmsProvider } from './sms-webhook';

/** A message to a person: an e-mail or an SMS. `code` and `purpose` are kept for the dev outbox and the development log only. */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  code?: string;
  purpose?: string;
}

export interface StoredMessage extends OutgoingMessage {
  sentAtMs: number;
}

/**
 * Where messages finally go: SMTP for e-mail when configured, the SMS provider when
 * configured, the development outbox for the rest. Requests do not call it: they write to
 * the transactional outbox (`outbox.ts`), whose sender calls it with retries.
 */
export interface MessageDelivery {
  /** `reference` names the message across retries (a receiver may drop repeats). Throws when the message did not go. */
  send(message: OutgoingMessage, reference?: string): Promise<void>;
  /** The development outbox's messages to one address or phone, oldest first (the dev outbox route). */
  outboxFor(to: string): Promise<StoredMessage[]>;
  /** The development outbox's file, or null when it is kept in memory. */
  readonly outboxFile: string | null;
}

/**
 * The development outbox: messages appended as JSON lines under DATA_DIR/outbox (or kept in
 * memory without a data directory). It receives every SMS unless an SMS provider is set and
 * every e-mail unless SMTP_URL is set.
 */
function createDevOutbox(dataDir: string | null, nowMs: () => number) {
  const memory: StoredMessage[] = [];
  const file = dataDir ? path.join(dataDir, 'outbox', 'messages.jsonl') : null;
  return {
    file,
    async append(message: OutgoingMessage) {
      const stored: StoredMessage = { ...message, sentAtMs: nowMs() };
      if (!file) {
        memory.push(stored);
        return;
      }
      await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await fs.appendFile(file, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
    },
    async readFor(to: string): Promise<StoredMessage[]> {
      let all: StoredMessage[] = memory;
      if (file) {
        const text = await fs.readFile(file, 'utf8').catch(() => '');
        all = text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as StoredMessage);
      }
      return all.filter((message) => message.to.toLowerCase() === to.toLowerCase());
    },
  };
}

export function createMessageDelivery(options: {
  smtpUrl: string | null;
  mailFrom: string;
  dataDir: string | null;
  sms?: SmsProvider | null;
  /** How long one SMTP step (connect, greeting, a command) may take before the try fails. */
  timeoutMs?: number;
  nowMs?: () => number;
}): MessageDelivery {
  const outbox = createDevOutbox(options.dataDir, options.nowMs ?? Date.now);
  const timeoutMs = options.timeoutMs ?? 20_000;
  // Bounded waits: a try that hangs past the sender's claim could be claimed again elsewhere.
  const transport = options.smtpUrl
    ? nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs })
    : null;
  const sms = options.sms ?? null;
  return {
    async send(message, reference = '') {
      if (message.channel === 'email' && transport) {
        // The same Message-ID on every try of one message: a receiver that got a try whose success never reached us drops the repeat.
        await transport.sendMail({ from: options.mailFrom, to: message.to, subject: message.subject, text: message.text, ...(reference ? { messageId: messageIdOf(reference, options.mailFrom) } : {}) });
        return;
      }
      if (message.channel === 'sms' && sms) {
        await sms.send({ to: message.to, text: message.text, reference });
        return;
      }
      await outbox.append(message);
    },
    outboxFor: (to) => outbox.readFor(to),
    outboxFile: outbox.file,
  };
}

/** An outbox message's SMTP Message-ID: its stable reference at the sender's mail domain. */
export function messageIdOf(reference: string, mailFrom: string): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(mailFrom)?.[1] ?? 'localhost';
  return `<${reference}@${domain}>`;
}

/** The one start line that says where messages go, so a newcomer finds the sign-up code. */
export function deliveryDescription(delivery: Pick<MessageDelivery, 'outboxFile'>, configured: { smtp: boolean; sms: boolean }): string {
  const outbox = delivery.outboxFile ? `the outbox file ${delivery.outboxFile}` : 'the outbox in memory';
  const email = configured.smtp ? 'e-mail by SMTP' : `e-mail to ${outbox} (no SMTP_URL)`;
  const sms = configured.sms ? 'SMS by the webhook' : `SMS to ${outbox}`;
  if (!configured.smtp && !configured.sms) return `messages: e-mail and SMS to ${outbox} (no SMTP_URL)`;
  return `messages: ${email}, ${sms}`;
}

/**
 * The delivery with each code it sends also written to the log: only for development
 * without SMTP, where every message lands in the outbox anyway and the log is where a
 * newcomer looks. The caller decides when; this only says what is logged.
 */
export function withCodesLogged(delivery: MessageDelivery, log: (fields: { to: string; purpose: string; code: string }, message: string) => void): MessageDelivery {
  return {
    ...delivery,
    async send(message, reference) {
      await delivery.send(message, reference);
      if (!message.code) return;
      const purpose = message.purpose ?? 'code';
      log({ to: message.to, purpose, code: message.code }, `development outbox: ${purpose} code for ${message.to}: ${message.code}`);
    },
  };
}
