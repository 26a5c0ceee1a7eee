import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

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

/** Where messages go: SMTP for e-mail when configured, an SMS provider, and the outbox. */
export interface MessageDelivery {
  send(message: OutgoingMessage): Promise<void>;
  /** The outbox's messages to one address or phone, oldest first (the dev outbox route). */
  outboxFor(to: string): Promise<StoredMessage[]>;
  /** The outbox's file, or null when it is kept in memory. */
  readonly outboxFile: string | null;
}

/**
 * The outbox: messages appended as JSON lines under DATA_DIR/outbox (or kept in memory
 * without a data directory). It receives every SMS (no SMS provider ships here) and every
 * e-mail unless SMTP_URL is set.
 */
function createOutbox(dataDir: string | null, nowMs: () => number) {
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

export function createMessageDelivery(options: { smtpUrl: string | null; mailFrom: string; dataDir: string | null; nowMs?: () => number }): MessageDelivery {
  const outbox = createOutbox(options.dataDir, options.nowMs ?? Date.now);
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    async send(message) {
      if (message.channel === 'email' && transport) {
        await transport.sendMail({ from: options.mailFrom, to: message.to, subject: message.subject, text: message.text });
        return;
      }
      await outbox.append(message);
    },
    outboxFor: (to) => outbox.readFor(to),
    outboxFile: outbox.file,
  };
}

/** The one start line that says where messages go, so a newcomer finds the sign-up code. */
export function deliveryDescription(delivery: Pick<MessageDelivery, 'outboxFile'>, smtpConfigured: boolean): string {
  const outbox = delivery.outboxFile ? `the outbox file ${delivery.outboxFile}` : 'the outbox in memory';
  return smtpConfigured ? `messages: e-mail by SMTP, SMS to ${outbox}` : `messages: e-mail and SMS to ${outbox} (no SMTP_URL)`;
}

/**
 * The delivery with each code it sends also written to the log: only for development
 * without SMTP, where every message lands in the outbox anyway and the log is where a
 * newcomer looks. The caller decides when; this only says what is logged.
 */
export function withCodesLogged(delivery: MessageDelivery, log: (fields: { to: string; purpose: string; code: string }, message: string) => void): MessageDelivery {
  return {
    ...delivery,
    async send(message) {
      await delivery.send(message);
      if (!message.code) return;
      const purpose = message.purpose ?? 'code';
      log({ to: message.to, purpose, code: message.code }, `development outbox: ${purpose} code for ${message.to}: ${message.code}`);
    },
  };
}
