import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

/** A message to a person: an e-mail or an SMS. `code` is kept for the dev outbox only. */
export interface OutgoingMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  code?: string;
}

export interface StoredMessage extends OutgoingMessage {
  sentAtMs: number;
}

/** Where messages go: SMTP for e-mail when configured, an SMS provider, and the outbox. */
export interface MessageDelivery {
  send(message: OutgoingMessage): Promise<void>;
  /** The outbox's messages to one address or phone, oldest first (the dev outbox route). */
  outboxFor(to: string): Promise<StoredMessage[]>;
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
  };
}
