import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { CallerRateLimit } from './caller-rate-limit';
import { KeyRevocations } from './key-revocations';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitStorage } from './rate-limit.storage';

/**
 * API keys, authentication, roles and rate limits. Global so the socket gateway and
 * the MCP endpoint can inject AuthService without importing this module.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([ApiKeyEntity]),
    WorkspacesModule,
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        throttlers: [{ name: 'default', limit: Math.max(config.rateLimit.limit, 1), ttl: config.rateLimit.windowS * 1000 }],
        storage: new RateLimitStorage(config.storage.redisUrl),
      }),
    }),
  ],
  controllers: [ApiKeysController, AuthController],
  providers: [ApiKeysRepository, ApiKeysService, AuthService, RateLimitGuard, CallerRateLimit, KeyRevocations, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService, ApiKeysService, CallerRateLimit, KeyRevocations],
})
export class AuthModule {}
