import http from 'node:http';
import net from 'node:net';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataCipher } from '../../server/auth/data-key';
import { createMessageDelivery, type MessageDelivery } from '../../server/messaging/delivery';
import { createOutbox } from '../../server/messaging/outbox';
import { createWebhookSmsProvider, webhookSignature, webhookSignatureHeader } from '../../server/messaging/sms-webhook';
import { startTestServer, testBackends, useTestDatabase, type TestServer } from './harness';
import { call, password } from './identity-support';

/** A port free at this moment, for a server the test starts only later (the SMTP server is "down" first). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Listens on `port` (0: any free one) and answers the port, or fails at once if it is taken. */
function listenOn(server: net.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}
const webhookSecret = 'outbox-test-webhook-secret';

/** A real SMTP server on `smtpPort` that keeps every message it accepts (plain text: no TLS, no AUTH). */
async function startSmtp(smtpPort: number, received: { to: string[]; raw: string }[]) {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await listenOn(server.server, smtpPort);
  return { close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A webhook receiver on a free port: answers 500 while `failing`, else 200; keeps every call. */
function startWebhook() {
  const calls: { body: string; signature: string | undefined; status: number }[] = [];
  const state = { failing: true };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = state.failing ? 500 : 200;
      calls.push({ body: Buffer.concat(chunks).toString('utf8'), signature: request.headers[webhookSignatureHeader] as string | undefined, status });
      response.writeHead(status).end();
    });
  });
  return {
    calls,
    state,
    listen: () => listenOn(server, 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The code in a mail as it arrived (quoted-printable soft breaks undone). */
function codeInMail(raw: string): string | undefined {
  return /code is (\d{6})/.exec(raw.replace(/=\r?\n/g, ''))?.[1];
}

async function until<T>(read: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(testBackends())('mail and SMS through the outbox on $name', (backend) => {
  let server: TestServer;
  const webhook = startWebhook();
  let smtpPort = 0;
  let mailbox = 0;
  const newEmail = () => `outbox${Date.now().toString(36)}${(mailbox += 1)}@example.com`;

  beforeAll(async () => {
    const webhookPort = await webhook.listen();
    smtpPort = await freePort();
    const delivery = createMessageDelivery({
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      mailFrom: 'test@tradeweb.example',
      dataDir: null,
      sms: createWebhookSmsProvider({ url: `http://127.0.0.1:${webhookPort}/sms`, secret: webhookSecret, timeoutMs: 5_000 }),
      timeoutMs: 5_000,
    });
    server = await startTestServer(
      backend,
      { OUTBOX_RETRY_BASE_MS: '200', SWITCHES: 'PHONE_REGISTER=1,PHONE_REGISTER_SMS_VERIFICATION=1', CODES_SENT_PER_10_MIN: '1000' },
      { delivery },
    );
  });
  afterAll(async () => {
    await server?.close();
    await webhook.close();
  });

  const rowsOf = () => server.database.db.selectFrom('outbox_message').selectAll().orderBy('id').execute();

  it('signs up with the SMTP server down: the answer comes at once, the failure is kept and retried, and the code arrives once the server is back', async () => {
    const email = newEmail();
    const before = (await rowsOf()).length;
    // No SMTP server is listening yet.
    expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);

    const failed = await until(async () => (await rowsOf()).slice(before).find((row) => row.status === 'failed'), 'a failed delivery');
    expect(failed).toMatchObject({ channel: 'email', status: 'failed' });
    expect(failed.attempts).toBeGreaterThanOrEqual(1);
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    // At rest the message is sealed: neither the address nor the text is readable in the row.
    expect(failed.sealed).not.toContain(email);
    expect(failed.sealed).not.toMatch(/code is/);

    const received: { to: string[]; raw: string }[] = [];
    const smtp = await startSmtp(smtpPort, received);
    try {
      const mail = await until(() => received.find((message) => message.to.includes(email)), 'the mail once SMTP is back');
      const code = codeInMail(mail.raw);
      expect(code).toMatch(/^\d{6}$/);
      expect((await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' })).code).toBe(0);

      const sent = await until(async () => (await rowsOf()).find((row) => row.id === failed.id && row.status === 'sent' ? row : undefined), 'the row marked sent');
      expect(sent.attempts).toBeGreaterThanOrEqual(2);
      // Once sent, the text (and its code) is no longer kept.
      expect(sent.sealed).toBeNull();
      expect(received.filter((message) => message.to.includes(email))).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });

  it('sends an SMS code through the signed webhook, tried again after the webhook failed, once it succeeds', async () => {
    const phone = `1415558${String(Date.now() % 10_000).padStart(4, '0')}`;
    webhook.state.failing = true;
    const before = webhook.calls.length;
    expect((await call(server, '/v1/wa-na/sendPhone', { phone, type: '1', locale: 'en' })).code).toBe(0);

    const failedRow = await until(async () => (await rowsOf()).find((row) => row.channel === 'sms' && row.status === 'failed' && row.attempts >= 2), 'two failed webhook calls');
    expect(failedRow.last_error).toBe('SMS webhook answered HTTP 500');
    webhook.state.failing = false;

    const accepted = await until(() => webhook.calls.slice(before).find((entry) => entry.status === 200), 'the accepted webhook call');
    // Signed: the receiver checks the HMAC-SHA256 of the exact body under the shared secret.
    expect(accepted.signature).toBe(webhookSignature(webhookSecret, accepted.body));
    const sms = JSON.parse(accepted.body) as { reference: string; to: string; text: string };
    expect(sms.to).toBe(phone);
    // Every try of one message carries the same reference, for the receiver to drop repeats.
    const tries = webhook.calls.slice(before).map((entry) => (JSON.parse(entry.body) as { reference: string }).reference);
    expect(new Set(tries)).toEqual(new Set([sms.reference]));
    const code = /code is (\d{6})/.exec(sms.text)?.[1];
    expect((await call(server, '/v1/wa-na/register', { username: phone, password, type: 'P', code, locale: 'en' })).code).toBe(0);
  });
});

describe.each(testBackends())('a code request and its outbox task on $name', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { OUTBOX_RETRY_BASE_MS: '200', CODES_SENT_PER_10_MIN: '1000', SWITCHES: 'PHONE_REGISTER=1,PHONE_REGISTER_SMS_VERIFICATION=1' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('loses no code when the work after the answer dies: the request and its task were committed together, and the task runs again', async () => {
    const { db } = server.database;
    // The first code row written after this point fails, as if the process died there (a sequence: its count survives the rollback).
    await sql`create sequence code_fault_once`.execute(db);
    await sql`create function code_fault_once() returns trigger language plpgsql as $$ begin if nextval('code_fault_once') = 1 then raise exception 'the process died here'; end if; return new; end $$`.execute(db);
    await sql`create trigger code_fault_once before insert on verification_code for each row execute function code_fault_once()`.execute(db);
    try {
      const email = `crash${Date.now().toString(36)}@example.com`;
      expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
      const code = await until(async () => (await server.delivery.outboxFor(email)).find((message) => message.code)?.code, 'the code, once its task ran again');
      expect((await call(server, '/v1/wa-na/register', { username: email, password, type: 'E', code, locale: 'en' })).code).toBe(0);
      // The fault did strike once: the task failed, then went.
      expect((await sql<{ value: string }>`select last_value::text as value from code_fault_once`.execute(db)).rows[0]?.value).toBe('2');
    } finally {
      await sql`drop trigger code_fault_once on verification_code`.execute(db);
    }
  });

  it('loses no e-mail binding code when the work after the answer dies: the request and its task were committed together', async () => {
    const { db } = server.database;
    // A phone customer (binding is for an account without an address).
    const phone = `861380014${String(Date.now() % 10_000).padStart(4, '0')}`;
    expect((await call(server, '/v1/wa-na/sendPhone', { phone, type: '1', locale: 'en' })).code).toBe(0);
    const signUpCode = await until(async () => (await server.delivery.outboxFor(phone)).find((message) => message.code)?.code, 'the sign-up code');
    expect((await call(server, '/v1/wa-na/register', { username: phone, password, type: 'P', code: signUpCode, locale: 'en' })).code).toBe(0);
    const login = await call(server, '/v1/wa-na/login', { username: phone, password, type: 'P' });
    expect(login.code, login.msg).toBe(0);
    const { token } = login.data as { token: string };
    await sql`create sequence bind_fault_once`.execute(db);
    await sql`create function bind_fault_once() returns trigger language plpgsql as $$ begin if nextval('bind_fault_once') = 1 then raise exception 'the process died here'; end if; return new; end $$`.execute(db);
    await sql`create trigger bind_fault_once before insert on verification_code for each row execute function bind_fault_once()`.execute(db);
    try {
      const email = `bindcrash${Date.now().toString(36)}@example.com`;
      expect((await call(server, '/v1/waa/user/bindEmail/sendCode', { email, locale: 'en' }, token)).code).toBe(0);
      const code = await until(async () => (await server.delivery.outboxFor(email)).find((message) => message.code)?.code, 'the binding code, once its task ran again');
      expect((await call(server, '/v1/waa/user/bindEmail', { email, code }, token)).code).toBe(0);
      expect((await sql<{ value: string }>`select last_value::text as value from bind_fault_once`.execute(db)).rows[0]?.value).toBe('2');
    } finally {
      await sql`drop trigger bind_fault_once on verification_code`.execute(db);
    }
  });
});

describe.each(testBackends())('a mail tried again on $name', (backend) => {
  let server: TestServer;
  let smtpPort = 0;
  /** Each DATA the SMTP server saw: its Message-ID header and whether it was refused. */
  const tries: { to: string[]; messageId: string | undefined; refused: boolean }[] = [];
  let smtp: SMTPServer;

  beforeAll(async () => {
    smtpPort = await freePort();
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const to = session.envelope.rcptTo.map((rcpt) => rcpt.address);
          // The first try of each recipient is received whole and then refused: the sender cannot know it arrived.
          const refused = !tries.some((each) => each.to.join() === to.join());
          tries.push({ to, messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1], refused });
          if (refused) callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          else callback();
        });
      },
    });
    await listenOn(smtp.server, smtpPort);
    const delivery = createMessageDelivery({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, mailFrom: 'TradeWeb <test@tradeweb.example>', dataDir: null, timeoutMs: 5_000 });
    server = await startTestServer(backend, { OUTBOX_RETRY_BASE_MS: '200', CODES_SENT_PER_10_MIN: '1000' }, { delivery });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('carries one Message-ID on every try, named after its outbox row, for the receiver to drop repeats', async () => {
    const email = `retried${Date.now().toString(36)}@example.com`;
    expect((await call(server, '/v1/wa-na/sendMail', { email, type: '1', locale: 'en' })).code).toBe(0);
    const mine = await until(() => {
      const seen = tries.filter((each) => each.to.includes(email));
      return seen.length >= 2 ? seen : undefined;
    }, 'a refused try and the accepted one');
    const [row] = await server.database.db.selectFrom('outbox_message').select(['id', 'status', 'attempts']).orderBy('id', 'desc').limit(1).execute();
    expect(mine.map((each) => each.refused)).toEqual([true, false]);
    expect(new Set(mine.map((each) => each.messageId))).toEqual(new Set([`<outbox-${row!.id}@tradeweb.example>`]));
    await until(async () => ((await server.database.db.selectFrom('outbox_message').select('status').where('id', '=', row!.id).executeTakeFirst())?.status === 'sent' ? true : undefined), 'the row marked sent');
  });
});

describe.each(testBackends())('the outbox sender on $name', (backend) => {
  const database = useTestDatabase(backend);

  it('two senders on one database deliver each message exactly once', async () => {
    const cipher = createDataCipher(Buffer.alloc(32, 7));
    const references: string[] = [];
    const delivery: MessageDelivery = {
      async send(_message, reference = '') {
        references.push(reference);
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
      outboxFor: async () => [],
      outboxFile: null,
    };
    const policy = { retryBaseMs: 60_000, retryMaxMs: 60_000, claimMs: 60_000, sweepMs: 60_000, batch: 3, keepSentMs: 86_400_000 };
    const problems: unknown[] = [];
    const log = { deliveryFailed: (failure: unknown) => void problems.push(failure), passFailed: (error: unknown) => void problems.push(error) };
    const senders = [0, 1].map(() => createOutbox({ db: database().db, cipher, delivery, policy, log }));
    for (let index = 0; index < 30; index += 1) {
      await senders[index % 2]!.enqueue(database().db, { channel: 'email', to: `many${index}@example.com`, subject: 's', text: 't' });
    }
    await Promise.all(senders.map((sender) => sender.settled()));
    // Both senders were woken by their own inserts and raced over the same rows.
    expect(problems).toEqual([]);
    expect(references).toHaveLength(30);
    expect(new Set(references).size).toBe(30);
    const rows = await database().db.selectFrom('outbox_message').select(['status', 'attempts', 'sealed']).execute();
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1 && row.sealed === null)).toBe(true);
    for (const sender of senders) await sender.stop();
  });

  it('keeps a sent row for its keeping time, then prunes it; a message not yet sent is never pruned', async () => {
    let clock = Date.now();
    const failing: MessageDelivery = {
      send: async (message) => {
        if (message.to.startsWith('down')) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      },
      outboxFor: async () => [],
      outboxFile: null,
    };
    const log = { deliveryFailed: () => undefined, passFailed: (error: unknown) => { throw error; } };
    const policy = { retryBaseMs: 3_600_000, retryMaxMs: 3_600_000, claimMs: 60_000, sweepMs: 60_000, batch: 10, keepSentMs: 86_400_000 };
    const sender = createOutbox({ db: database().db, cipher: createDataCipher(Buffer.alloc(32, 9)), delivery: failing, policy, log, nowMs: () => clock });
    await database().db.deleteFrom('outbox_message').execute();
    await sender.enqueue(database().db, { channel: 'email', to: 'up@example.com', subject: 's', text: 't' });
    await sender.enqueue(database().db, { channel: 'email', to: 'down@example.com', subject: 's', text: 't' });
    await sender.settled();
    const statuses = async () => (await database().db.selectFrom('outbox_message').select('status').orderBy('id').execute()).map((row) => row.status);
    expect(await statuses()).toEqual(['sent', 'failed']);
    clock += 86_400_000 - 1_000;
    await sender.prune();
    expect(await statuses()).toEqual(['sent', 'failed']);
    clock += 2_000;
    await sender.prune();
    expect(await statuses()).toEqual(['failed']);
    await sender.stop();
  });
});
