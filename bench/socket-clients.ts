/**
 * Market clients for the server-cost part of `socket-bytes.ts`, in their own process so
 * that decompressing and counting their messages does not compete with the bench's own
 * timing: `tsx bench/socket-clients.ts <port> <count> <compression 0|1> <destination prefix>`.
 * Each client subscribes to `<prefix><symbol>` for the home screen's symbols. Prints
 * `ready` once every client is subscribed, then the messages received so far each second.
 */
import WebSocket from 'ws';

const [port, countText, compressionText, prefix] = process.argv.slice(2);
const count = Number(countText);
const compression = compressionText === '1';
const symbols = (process.env.BENCH_SYMBOLS ?? 'BTCUSDT,EURUSD,XAUUSD,ETHUSDT,GBPUSD,US500').split(',');
let messages = 0;
const clients: WebSocket[] = [];
for (let batch = 0; batch < count; batch += 50) {
  await Promise.all(
    Array.from({ length: Math.min(50, count - batch) }, async () => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/market/stomp`, ['v12.stomp'], { perMessageDeflate: compression });
      socket.on('error', () => undefined);
      socket.on('message', () => (messages += 1));
      await new Promise<void>((resolve) => socket.on('open', resolve));
      socket.send('CONNECT\naccept-version:1.2\nhost:/\nheart-beat:0,0\n\n\0');
      symbols.forEach((symbol, index) => socket.send(`SUBSCRIBE\nid:${index + 1}\ndestination:${prefix}${symbol}\n\n\0`));
      clients.push(socket);
    }),
  );
}
process.stdout.write('ready\n');
setInterval(() => process.stdout.write(`${messages}\n`), 1_000);
process.on('SIGTERM', () => {
  for (const client of clients) client.terminate();
  process.exit(0);
});
