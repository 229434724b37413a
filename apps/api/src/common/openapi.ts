import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiOperation, ApiQuery } from '@nestjs/swagger';
import { z, type ZodType } from 'zod';

/** The OpenAPI 3.0 JSON Schema of a zod schema (`input`: what a client may send; `output`: what it gets). */
export function zodOpenApiSchema(schema: ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Record<string, unknown>;
}

/** Documents a zod-validated body in OpenAPI from the same schema the pipe enforces. */
export function ApiZodBody(schema: ZodType, description?: string) {
  return applyDecorators(ApiBody({ schema: zodOpenApiSchema(schema, 'input') as object, description }));
}

/** Documents each property of a zod object used as query parameters. */
export function ApiZodQuery(schema: z.ZodObject) {
  const json = zodOpenApiSchema(schema, 'input') as { properties?: Record<string, object>; required?: string[] };
  return applyDecorators(
    ...Object.entries(json.properties ?? {}).map(([name, s]) => ApiQuery({ name, required: json.required?.includes(name) ?? false, schema: s })),
  );
}

/** Where ApiZodResponse leaves its schema until completeOpenApiDocument moves it into the operation's 2xx response. */
export const ZOD_RESPONSE_EXTENSION = 'x-sextant-response';
/** Statuses an operation can answer with problem details besides the ones every route shares (see completeOpenApiDocument). */
export const PROBLEM_STATUSES_EXTENSION = 'x-sextant-problems';

/**
 * Documents an operation: its summary and the zod schema of its success body (whatever its
 * 2xx status: 200, 201, 202). Problem responses, security and the role are added for every
 * route by completeOpenApiDocument, so a controller only states what is its own.
 *
 * @example
 * @Get('repos/:id')
 * @ApiOp('One repository with its index state', RepositoryDetailSchema)
 * get(...) {}
 *
 * @Delete('repos/:id') @HttpCode(204)
 * @ApiOp('Remove a repository and its index', null, { problems: { 409: 'an index job is running' } })
 */
export function ApiOp(summary: string, response: ZodType | null, options: { description?: string; problems?: Record<number, string> } = {}) {
  return applyDecorators(
    ApiOperation({ summary, ...(options.description ? { description: options.description } : {}) }),
    ...(response ? [ApiExtension(ZOD_RESPONSE_EXTENSION, zodOpenApiSchema(response, 'output'))] : []),
    ...(options.problems ? [ApiExtension(PROBLEM_STATUSES_EXTENSION, options.problems)] : []),
  );
}

/** Like ApiOp for a `text/event-stream` operation: the events are described, not schema'd per event. */
export function ApiEventStreamOp(summary: string, eventsDescription: string) {
  return applyDecorators(
    ApiOperation({ summary, description: eventsDescription }),
    ApiExtension(ZOD_RESPONSE_EXTENSION, { type: 'string', description: eventsDescription, 'x-content-type': 'text/event-stream' }),
  );
}
