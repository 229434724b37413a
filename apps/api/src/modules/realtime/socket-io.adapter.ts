import { INestApplicationContext, Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type Redis from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import type { AppConfig } from '../../config/config.schema';
import { socketOriginMiddleware } from '../auth/request-origin.middleware';

/** Largest socket message accepted (search requests are tiny; this only bounds abuse). */
export const SOCKET_MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * socket.io server options in one place: message size limit, CORS from config,
 * connection-state recovery, and the Redis adapter when REDIS_URL is set so several API
 * processes share rooms (an event emitted on one reaches clients of all).
 */
export class SextantIoAdapter extends IoAdapter {
  private readonly logger = new Logger('SocketIo');
  private redis: Redis[] = [];

  constructor(
    app: INestApplicationContext,
    private readonly config: AppConfig,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server: Server = super.createIOServer(port, {
      ...options,
      maxHttpBufferSize: SOCKET_MAX_MESSAGE_BYTES,
      cors: { origin: this.config.http.corsOrigins.length ? this.config.http.corsOrigins : false, credentials: false },
      connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false },
    });
    server.use(socketOriginMiddleware(this.config));
    if (this.config.storage.redisUrl) {
      // Loaded only when configured (the Redis client and adapter cost RSS in every process otherwise).
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { default: Redis } = require('ioredis') as typeof import('ioredis');
      const { createAdapter } = require('@socket.io/redis-adapter') as typeof import('@socket.io/redis-adapter');
      /* eslint-enable @typescript-eslint/no-require-imports */
      // maxRetriesPerRequest null: while Redis is down, publishes wait for the reconnect instead of
      // rejecting inside the adapter (which would surface as unhandled rejections); local rooms keep working.
      const pub = new Redis(this.config.storage.redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
      const sub = pub.duplicate();
      for (const c of [pub, sub]) {
        c.on('error', (err) => this.logger.warn(`Redis adapter: ${err.message}`));
        handleFloatingRejections(c);
      }
      this.redis = [pub, sub];
      server.adapter(createAdapter(pub, sub));
      this.logger.log('socket.io uses the Redis adapter');
    }
    return server;
  }

  override async close(server: Server): Promise<void> {
    await super.close(server);
    // A client still connecting holds the adapter's queued subscribe commands; quitting now would
    // reject them inside the adapter ("Connection is closed", unhandled). Let them go out first:
    // Redis answers in order, so they complete before the QUIT.
    await Promise.allSettled(
      this.redis.map(async (c) => {
        if (c.status === 'connecting' || c.status === 'connect' || c.status === 'reconnecting') {
          await Promise.race([new Promise((resolve) => c.once('ready', resolve)), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
        }
        if (c.status === 'ready') await c.quit();
        else c.disconnect(false);
      }),
    );
  }
}

/**
 * The Redis adapter sends some commands without awaiting them (`unsubscribe` when the server
 * closes, publishes); when the connection closes before they are answered, ioredis rejects them
 * ("Connection is closed") and the rejection would go unhandled (in CI it failed whichever test
 * file was running). Every command's promise gets a no-op handler; callers that await it still see
 * the error, and connection errors are logged by the `error` listener.
 */
function handleFloatingRejections(client: Redis): void {
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    const result = send(...args);
    void Promise.resolve(result).catch(() => undefined);
    return result;
  }) as Redis['sendCommand'];
}
