// A TCP fault proxy between one server process and the broker. Toxiproxy would be the tool,
// but neither Debian nor npm ships its server (npm has only clients, Debian no package), and
// iptables would cut the machine's other users too; so this small proxy does the one fault
// the suite needs: a blackhole, where every byte either way is dropped without a reset (the
// process sees a silent network, as in a partition, and must notice it by its heartbeats),
// and then the healing, where the dead connections are closed and new ones pass again.
import net from 'node:net';

export interface FaultProxy {
  /** Drops every byte of every connection, open or new, until `heal`. */
  blackhole(): void;
  /** Closes the blackholed connections and lets new ones through again. */
  heal(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(listenPort: number, targetPort: number): Promise<FaultProxy> {
  let cut = false;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    const upstream = net.connect(targetPort, '127.0.0.1');
    open.add(upstream);
    const forward = (from: net.Socket, to: net.Socket) =>
      from.on('data', (chunk) => {
        if (!cut) to.write(chunk);
      });
    forward(client, upstream);
    forward(upstream, client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      socket.on('error', end);
      socket.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  return {
    blackhole() {
      cut = true;
    },
    heal() {
      for (const socket of open) socket.destroy();
      open.clear();
      cut = false;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
