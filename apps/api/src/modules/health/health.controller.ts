import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import { HealthResponseSchema } from '@sextant/contracts';
import { ApiOp, zodOpenApiSchema } from '../../common/openapi';
import type { Response } from 'express';
import { HealthRegistry } from './health.registry';

const startedAt = Date.now();
const version: string = (() => {
  try {
    return (require('../../../package.json') as { version: string }).version;
  } catch {
    return '0.0.0';
  }
})();

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  /** `healthy` when every dependency is up, `degraded` otherwise; 503 only when the database is down. */
  @Get('health')
  @ApiOp('Service and dependency status (public)', HealthResponseSchema)
  @ApiResponse({ status: 503, description: 'The database is down (the same body, status `degraded`)', content: { 'application/json': { schema: zodOpenApiSchema(HealthResponseSchema, 'output') } } })
  async health(@Res() res: Response): Promise<void> {
    const dependencies = await this.registry.checkAll();
    const allUp = Object.values(dependencies).every((d) => d.status === 'up');
    const status = allUp ? 'healthy' : 'degraded';
    const code = dependencies.database?.status === 'up' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE;
    res.status(code).json({ status, version, uptime_s: Math.round((Date.now() - startedAt) / 1000), dependencies });
  }
}
