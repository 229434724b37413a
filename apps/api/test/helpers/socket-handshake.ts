import { io, type Socket } from 'socket.io-client';

/** Opens a socket.io connection and resolves with 'connected' or the connect_error's data code, then closes it. */
export function handshake(url: string, auth?: Record<string, unknown>, headers?: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = io(url, { auth, extraHeaders: headers, transports: ['websocket'], reconnection: false, timeout: 5000 });
    socket.on('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      socket.close();
      resolve(err.data?.code ?? `error:${err.message}`);
    });
  });
}
