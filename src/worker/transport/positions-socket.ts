import type { PositionsConnector } from '../engine/positions-channel';

/** The positions feed over the platform's WebSocket (text messages only). */
export const openPositionsSocket: PositionsConnector = (url, handlers) => {
  const socket = new WebSocket(url);
  socket.onmessage = (event: MessageEvent) => {
    if (typeof event.data === 'string') handlers.onMessage(event.data);
  };
  socket.onclose = (event: CloseEvent) => handlers.onClose(event.code);
  return {
    send(text) {
      if (socket.readyState === WebSocket.OPEN) socket.send(text);
    },
    close() {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'done');
    },
  };
};
