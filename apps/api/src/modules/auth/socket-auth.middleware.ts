import type { Socket } from 'socket.io';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { socketProblem } from '../../common/problem-details';
import type { AuthContext } from './auth-context';
import type { AuthService } from './auth.service';
import { bearerToken } from './bearer-token';
import { isForwarded } from './request-origin.middleware';

export interface SocketWithAuth {
  data: { auth?: AuthContext };
}

/**
 * socket.io middleware that authenticates the handshake (`auth.token`, or an
 * `Authorization: Bearer` header) before the connection is accepted; messages are not
 * re-checked, but KeyRevocations disconnects the socket (after an `auth:revoked` event) once its key
 * is revoked. A refused client gets `connect_error` with `err.data` = problem fields (`code`, `status`, `detail`, …, and `message`).
 *
 * @example
 * afterInit(server: Server) { server.use(socketAuthMiddleware(this.authService)); }
 * // in handlers: (socket.data.auth as AuthContext).workspaceId
 */
export function socketAuthMiddleware(auth: AuthService) {
  return (socket: Socket, next: (err?: Error) => void): void => {
    const handshakeToken = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const resolve = async (): Promise<AuthContext> => {
      if (handshakeToken !== undefined && typeof handshakeToken !== 'string') {
        throw new DomainError(DomainErrorCode.Unauthenticated, 'auth.token must be a string');
      }
      const token = handshakeToken ?? bearerToken(socket.handshake.headers.authorization);
      return auth.authenticate(token, { ip: socket.handshake.address, forwarded: isForwarded(socket.handshake.headers) });
    };
    resolve().then(
      (ctx) => {
        (socket as unknown as SocketWithAuth).data.auth = ctx;
        next();
      },
      (err: unknown) => {
        const { unexpected: _unexpected, ...problem } = socketProblem(err, 'Authentication failed');
        const refusal = new Error(problem.detail) as Error & { data?: unknown };
        // The problem fields of REST errors (code, status, title, detail, type), plus the older `message`.
        refusal.data = problem;
        next(refusal);
      },
    );
  };
}
