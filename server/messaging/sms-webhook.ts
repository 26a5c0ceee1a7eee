import crypto from 'node:crypto';

/** Sends one SMS; resolves once the provider has accepted it, throws when it has not. */
export interface SmsProvider {
  readonly name: string;
  send(sms: { to: string; text: string; reference: string }): Promise<void>;
}

/** The signature header of a webhook call: the hex HMAC-SHA256 of the exact body under the shared secret. */
export const webhookSignatureHeader = 'x-tradeweb-signature';

export function webhookSignature(secret: string, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * An SMS provider reached through an HTTP webhook: POST `{reference, to, text}` as JSON,
 * signed so that the receiver knows it comes from this server; any 2xx is accepted.
 * `reference` is the same on every retry of one message, for the receiver to drop repeats.
 */
export function createWebhookSmsProvider(options: { url: string; secret: string; timeoutMs: number }): SmsProvider {
  return {
    name: 'webhook',
    async send(sms) {
      const body = JSON.stringify({ reference: sms.reference, to: sms.to, text: sms.text });
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [webhookSignatureHeader]: webhookSignature(options.secret, body) },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      // The answer's body is not read into the error: a receiver might echo the message back.
      await response.body?.cancel();
      if (!response.ok) throw new Error(`SMS webhook answered HTTP ${response.status}`);
    },
  };
}
