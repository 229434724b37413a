import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { z, type ZodType } from 'zod';

/** Documents a zod-validated body in OpenAPI from the same schema the pipe enforces. */
export function ApiZodBody(schema: ZodType, description?: string) {
  return applyDecorators(ApiBody({ schema: z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as object, description }));
}

/** Documents each property of a zod object used as query parameters. */
export function ApiZodQuery(schema: z.ZodObject) {
  const json = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, object>; required?: string[] };
  return applyDecorators(
    ...Object.entries(json.properties ?? {}).map(([name, s]) => ApiQuery({ name, required: json.required?.includes(name) ?? false, schema: s })),
  );
}
