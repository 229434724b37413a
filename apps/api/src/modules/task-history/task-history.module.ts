import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IndexingModule } from '../indexing/indexing.module';
import { TaskHistoryController } from './task-history.controller';
import { TaskHistoryService } from './task-history.service';
import { TaskEntity } from './task.entity';
import { TasksRepository } from './tasks.repository';

@Module({
  imports: [TypeOrmModule.forFeature([TaskEntity]), IndexingModule],
  controllers: [TaskHistoryController],
  providers: [TasksRepository, TaskHistoryService],
  exports: [TaskHistoryService, TasksRepository],
})
export class TaskHistoryModule {}
