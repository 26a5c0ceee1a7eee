/**
 * Issue 31, finding 6: while one account uploads four 5.7 MB avatars at once (again and
 * again), how long another customer's signed-in `user/balance` takes, against the same call
 * on an idle server in the same run. In-process on PGlite, as one server process serves both.
 */
import crypto from 'node:crypto';
import sharp from 'sharp';
import { buildServer } from '../server/app';
import { createTokenService } from '../server/auth/tokens';
import { openDatabase } from '../server/db/database';
import { createMessageDelivery } from '../server/messaging/delivery';
import { readSettings } from '../server/settings';

const balanceCalls = 200;
const parallelUploads = 4;

/** A photo-like JPEG of about 5.7 MB (noise defeats compression as a camera's grain does). */
async function largeJpeg(): Promise<Buffer> {
  const width = 2900;
  const height = 2200;
  const raw = crypto.randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 92 }).toBuffer();
}

function multipart(fields: Record<string, string>, file: { field: string; filename: string; bytes: Buffer }) {
  const boundary = `bench${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: image/jpeg\r\n\r\n`), file.bytes, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

export async function runUploadsLatencyBench() {
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  const settings = readSettings({ LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent', UPLOADS_PER_10_MIN: '100000', CODES_SENT_PER_10_MIN: '100', CODE_CHECKS_PER_10_MIN: '100' });
  const tokens = createTokenService({ key: crypto.randomBytes(32), accessTokenTtlSeconds: 3600 });
  const delivery = createMessageDelivery({ smtpUrl: null, mailFrom: 'bench@example.com', dataDir: null });
  const app = await buildServer({ settings, database, tokens, delivery, logger: false, marketSource: null });
  await app.ready();
  const post = async (url: string, payload: unknown, token?: string) =>
    (await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, payload: JSON.stringify(payload) })).json() as { code: number; data: unknown };
  async function signedUp(name: string): Promise<string> {
    const email = `bench-${name}-${Date.now()}@example.com`;
    await post('/v1/wa-na/sendMail', { email, type: '1', locale: 'en' });
    await app.identity.settled();
    const code = (await delivery.outboxFor(email)).at(-1)?.code;
    await post('/v1/wa-na/register', { username: email, password: 'bench password', type: 'E', code, locale: 'en' });
    return ((await post('/v1/wa-na/login', { username: email, password: 'bench password', type: 'E' })).data as { token: string }).token;
  }
  const uploader = await signedUp('uploader');
  const reader = await signedUp('reader');
  const photo = await largeJpeg();

  async function balanceLatencies(): Promise<number[]> {
    const times: number[] = [];
    for (let index = 0; index < balanceCalls; index += 1) {
      const start = process.hrtime.bigint();
      const answer = await post('/v1/waa/user/balance', {}, reader);
      if (answer.code !== 0) throw new Error(`user/balance answered ${answer.code}`);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return times.sort((a, b) => a - b);
  }

  for (let index = 0; index < 20; index += 1) await post('/v1/waa/user/balance', {}, reader);
  const idle = await balanceLatencies();

  let uploading = true;
  const outcomes = { accepted: 0, refused: 0 };
  const uploadLoop = async () => {
    while (uploading) {
      const body = multipart({ metaData: JSON.stringify({ nickName: 'Bench' }) }, { field: 'avatar', filename: 'photo.jpg', bytes: photo });
      const response = await app.inject({ method: 'POST', url: '/v1/waa/user/infoSubmit', headers: { 'content-type': body.contentType, authorization: `Bearer ${uploader}` }, payload: body.payload });
      const code = (response.json() as { code: number }).code;
      if (code === 0) outcomes.accepted += 1;
      else outcomes.refused += 1;
      // A refused upload (the pool full) is retried after a moment, as the app's user would.
      if (code !== 0) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const loops = Array.from({ length: parallelUploads }, uploadLoop);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const busy = await balanceLatencies();
  uploading = false;
  await Promise.all(loops);
  await app.close();
  await database.close();

  const row = (label: string, times: number[]) => [label, `${percentile(times, 50).toFixed(1)} ms`, `${percentile(times, 99).toFixed(1)} ms`, `${(times.at(-1) ?? 0).toFixed(1)} ms`];
  const ratio = (p: number) => `${(percentile(busy, p) / percentile(idle, p)).toFixed(1)}×`;
  return [
    {
      title: `Another customer's user/balance while ${parallelUploads} uploads of ${(photo.length / 1e6).toFixed(1)} MB run at once, in-process on PGlite (${balanceCalls} calls each)`,
      header: ['server', 'p50', 'p99', 'max'],
      rows: [
        row('idle (baseline)', idle),
        row(`${parallelUploads} uploads running (${outcomes.accepted} kept, ${outcomes.refused} told to try again)`, busy),
        ['ratio to idle', ratio(50), ratio(99), ''],
      ],
    },
  ];
}
