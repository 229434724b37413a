import { Module } from '@nestjs/common';
import { IndexingModule } from '../indexing/indexing.module';
import { FileSearchService } from './file-search.service';

@Module({ imports: [IndexingModule], providers: [FileSearchService], exports: [FileSearchService] })
export class FileSearchModule {}
