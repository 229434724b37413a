import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { AuthGuard } from './auth.guard';

@Module({ imports: [WorkspacesModule], providers: [{ provide: APP_GUARD, useClass: AuthGuard }] })
export class AuthModule {}
