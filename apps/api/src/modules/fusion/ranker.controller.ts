import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RankerStatusSchema, type RankerStatus } from '@sextant/contracts';
import { ApiOp } from '../../common/openapi';
import type { AuthContext } from '../auth/auth-context';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';
import { LearnedRankerService } from './learned-ranker.service';
import { MIN_HISTORY_TASKS, RankerTrainingService } from './ranker-training.service';

@ApiTags('search')
@Controller('v1/ranker')
export class RankerController {
  constructor(
    private readonly ranker: LearnedRankerService,
    private readonly training: RankerTrainingService,
  ) {}

  /** The workspace's learned ranker: active, rejected or none, with its validation against fusion. */
  @Get()
  @ApiOp('The workspace\'s learned ranker: active, rejected or none, with its validation', RankerStatusSchema)
  status(@CurrentAuth() auth: AuthContext): Promise<RankerStatus> {
    return this.ranker.status(auth.workspaceId, `Not trained yet: it is fitted after task imports once the history has ${MIN_HISTORY_TASKS} tasks, or with POST /v1/ranker/train.`);
  }

  /** Fits the ranker from the task history now (member role); answers when done. */
  @Post('train')
  @HttpCode(200)
  @ApiOp('Fit the learned ranker from the task history now (member)', RankerStatusSchema)
  train(@CurrentAuth() auth: AuthContext): Promise<RankerStatus> {
    return this.training.train(auth.workspaceId);
  }
}
