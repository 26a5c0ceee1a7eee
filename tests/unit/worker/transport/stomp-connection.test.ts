import { describe, expect, it } from 'vitest';
import { serializeFrame } from '../../../../src/shared/stomp/frame';
import { MAX_HEART_BEAT_MS } from '../../../../src/shared/stomp/heart-beat';
import { openStompConnection, type StompCloseInfo, type WebSocketLike } from '../../../../src/worker/transport/stomp-connection';

const OPEN = 1;
const CLOSED = 3;

/** The smallest WebSocket the test can play the server of. */
function fakeSocket() {
  const socket: WebSocketLike & { closedWith: number | null } = {
    readyState: 0,
    binaryType: 'blob',
    closedWith: null,
    send: () => undefined,
    close(code) {
      socket.closedWith = code ?? 1005;
      (socket as { readyState: number }).readyState = CLOSED;
    },
    onopen: null,
    onmessage: null,
    onclose: null,
    onerror: null,
  };
  return socket;
}

/** Opens a connection and answers its CONNECT with this CONNECTED heart-beat header. */
function connectWith(heartBeat: string) {
  const socket = fakeSocket();
  const closes: StompCloseInfo[] = [];
  let opened = false;
  const connection = openStompConnection({
    url: 'ws://markets.example/market/stomp',
    createSocket: () => socket,
    connectTimeoutMs: 0,
    onOpen: () => (opened = true),
    onClose: (info) => closes.push(info),
  });
  (socket as { readyState: number }).readyState = OPEN;
  socket.onopen?.({});
  socket.onmessage?.({ data: serializeFrame({ command: 'CONNECTED', headers: { version: '1.2', 'heart-beat': heartBeat } }) });
  return { connection, socket, closes, opened: () => opened };
}

describe('the STOMP client and the server heart-beat header', () => {
  it('closes with a protocol error on a malformed header, as the server does on a client that sends one', () => {
    for (const bad of ['soon', '100', `${MAX_HEART_BEAT_MS + 1},0`]) {
      const { connection, socket, closes, opened } = connectWith(bad);
      expect(opened(), bad).toBe(false);
      expect(connection.state).toBe('closed');
      expect(closes).toEqual([expect.objectContaining({ reason: 'protocol-error', wasConnected: false })]);
      expect(socket.closedWith).toBe(4000);
    }
  });

  it('connects with the negotiated intervals on a well-formed one', () => {
    const { connection, closes, opened } = connectWith('0,0');
    expect(opened()).toBe(true);
    expect(connection.heartbeat).toEqual({ sendMs: 0, receiveMs: 0 });
    expect(closes).toEqual([]);
    connection.close();
  });
});
