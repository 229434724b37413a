import type { INestApplication } from '@nestjs/common';
import { ModulesContainer, Reflector } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from '@sextant/contracts';
import type { Role } from '../modules/auth/auth-context';
import { PUBLIC_ROUTE, REQUIRED_ROLE } from '../modules/auth/role.decorator';
import { requiredAccess, type RouteAccess } from '../modules/auth/route-roles';
import { PROBLEM_STATUSES_EXTENSION, ZOD_RESPONSE_EXTENSION, zodOpenApiSchema } from './openapi';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
type Operation = {
  operationId?: string;
  parameters?: Array<{ in?: string }>;
  requestBody?: unknown;
  responses: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>;
  security?: Array<Record<string, string[]>>;
  [key: string]: unknown;
};

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };
const problemResponse = (description: string) => ({ description, content: { [PROBLEM_CONTENT_TYPE]: { schema: PROBLEM_REF } } });

/** What each shared problem status means, in the words of its `code`. */
const SHARED_PROBLEMS: Record<number, string> = {
  400: 'validation_failed (issues lists each field) or invalid_json',
  401: 'unauthenticated: no key, an unknown or revoked key (WWW-Authenticate: Bearer)',
  403: 'forbidden: the key\'s role is too low, or the Host/Origin is not allowed',
  404: 'not_found: no such resource in the caller\'s workspace',
  413: 'payload_too_large: the body exceeds SEXTANT_BODY_LIMIT',
  415: 'unsupported_media_type: the body is not JSON',
  429: 'rate_limited: over SEXTANT_RATE_LIMIT (see Retry-After)',
  500: 'internal_error: a bug; the body says nothing more (quote request_id when reporting it)',
  503: 'database_unavailable: the database cannot be reached; retry after Retry-After seconds',
};

/**
 * Completes the generated OpenAPI document for every controller, so new modules get it for
 * free: each operation's zod response schema (ApiOp) goes into its 2xx response, problem
 * responses (`application/problem+json`, one shared Problem schema) are added for the
 * statuses the route can produce, protected routes get the bearer scheme and their least
 * role (`x-sextant-role`), public ones none.
 */
export function completeOpenApiDocument(document: OpenAPIObject, app: INestApplication): OpenAPIObject {
  const access = routeAccessByOperationId(app);
  document.components ??= {};
  document.components.schemas = { ...(document.components.schemas ?? {}), Problem: zodOpenApiSchema(ProblemSchema, 'output') as never };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = (item as Record<string, Operation | undefined>)[method];
      if (!op) continue;
      const routeAccess = (op.operationId && access.get(op.operationId)?.(method, path)) || 'reader';
      moveResponseSchema(op);
      addProblems(op, path, routeAccess);
      if (routeAccess === 'public') delete op.security;
      else {
        op.security = [{ bearer: [] }];
        op['x-sextant-role'] = routeAccess;
      }
    }
  }
  return document;
}

function moveResponseSchema(op: Operation): void {
  const schema = op[ZOD_RESPONSE_EXTENSION] as (Record<string, unknown> & { 'x-content-type'?: string }) | undefined;
  delete op[ZOD_RESPONSE_EXTENSION];
  if (!schema) return;
  const success = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s)) ?? '200';
  const { 'x-content-type': contentType = 'application/json', ...rest } = schema;
  op.responses[success] = { description: op.responses[success]?.description || 'Success', content: { [contentType]: { schema: rest } } };
}

function addProblems(op: Operation, path: string, access: RouteAccess): void {
  const own = (op[PROBLEM_STATUSES_EXTENSION] as Record<string, string> | undefined) ?? {};
  delete op[PROBLEM_STATUSES_EXTENSION];
  const statuses = new Set<number>();
  const hasInput = Boolean(op.requestBody) || (op.parameters ?? []).some((p) => p.in === 'query' || p.in === 'path');
  if (hasInput) statuses.add(400);
  if (access !== 'public') [401, 403, 429].forEach((s) => statuses.add(s));
  if (/\{[^}]+\}/.test(path)) statuses.add(404);
  if (op.requestBody) [413, 415].forEach((s) => statuses.add(s));
  if (path.startsWith('/v1/')) [500, 503].forEach((s) => statuses.add(s));
  for (const status of statuses) op.responses[String(status)] ??= problemResponse(SHARED_PROBLEMS[status]);
  for (const [status, description] of Object.entries(own)) op.responses[status] = problemResponse(description);
}

/**
 * For each operationId (`Controller_method`), how to compute the access its route needs
 * (decorators first, then ROUTE_ROLES), exactly as AuthGuard decides it.
 */
function routeAccessByOperationId(app: INestApplication): Map<string, (method: string, openApiPath: string) => RouteAccess> {
  const reflector = new Reflector();
  const result = new Map<string, (method: string, openApiPath: string) => RouteAccess>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller?.prototype) continue;
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[key];
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const targets = [handler as () => unknown, controller];
        const decorated = { isPublic: reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets), role: reflector.getAllAndOverride<Role>(REQUIRED_ROLE, targets) };
        result.set(`${controller.name}_${key}`, (method, openApiPath) => requiredAccess(method, openApiPath.replace(/\{([^}]+)\}/g, ':$1'), decorated));
      }
    }
  }
  return result;
}
