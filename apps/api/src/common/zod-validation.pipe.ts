import { ArgumentMetadata, BadRequestException, Injectable, PipeTransform } from '@nestjs/common';
import type { ZodType } from 'zod';

/** A DTO class that carries its zod schema, so the global pipe can validate it. */
export interface ZodDtoClass<T = unknown> {
  new (): T;
  readonly zodSchema: ZodType<T>;
}

/**
 * Makes a DTO class from a zod schema (one schema per wire shape, from libs/contracts).
 *
 * @example
 * class SearchRequestDto extends zodDto(SearchRequestSchema) {}
 * search(@Body() body: SearchRequestDto) { ... }
 */
export function zodDto<S extends ZodType>(schema: S): ZodDtoClass<S['_output']> {
  class Dto {
    static readonly zodSchema = schema;
  }
  return Dto as unknown as ZodDtoClass<S['_output']>;
}

/** Validates bodies, queries and params whose declared type is a zodDto; unknown fields are rejected by `.strict()` schemas. */
@Injectable()
export class ZodValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const schema = (metadata.metatype as Partial<ZodDtoClass> | undefined)?.zodSchema;
    if (!schema) return value;
    const result = schema.safeParse(value ?? (metadata.type === 'body' ? undefined : {}));
    if (result.success) return result.data;
    if (metadata.type === 'body' && value === undefined) {
      throw new BadRequestException({ message: 'This route needs a JSON body (Content-Type: application/json)', issues: [{ path: '(root)', message: 'a JSON body is required', code: 'invalid_type' }] });
    }
    const issues = result.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message, code: i.code }));
    throw new BadRequestException({
      message: `Invalid request ${metadata.type}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
      issues,
    });
  }
}
