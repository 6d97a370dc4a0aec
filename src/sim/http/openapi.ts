import { z } from 'zod';
import type { AnyRouteDeclaration } from './route-declaration.ts';
import type { AuthMode, Route } from './types.ts';

/**
 * The simulator's own OpenAPI 3.0 document, generated from its routes: paths, methods and
 * authentication from the router, parameters, request bodies and 200 bodies from the zod
 * schemas each route is declared with (the ones that validate its requests). Admin routes
 * are simulator control, not exchange API, and are left out.
 */

type Json = Record<string, unknown>;

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
}

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
});

const SECURITY: Record<Exclude<AuthMode, 'admin'>, Json[]> = {
  none: [],
  bearer: [{ bearerAuth: [] }],
  raw: [{ authToken: [] }],
  // The user-feed replay takes the token in Authorization, an Auth header or `token=` (feeds §8): any one.
  feed: [{ bearerAuth: [] }, { authHeader: [] }, { tokenQuery: [] }],
};

/** A zod schema as an OpenAPI 3.0 schema object, seen from the client's side (the input a request sends). */
export function openApiSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return out;
}

export function openApiDocument(routes: readonly Route[], info: OpenApiInfo): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (route.auth === 'admin') continue;
    const path = route.pattern.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const item = (paths[path] ??= {});
    for (const method of route.methods) item[method.toLowerCase()] = operation(route, method, path);
  }
  return {
    openapi: '3.0.3',
    info,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token from POST /user/login (data.user.auth); the Bearer prefix is optional.',
        },
        authToken: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'The token from POST /user/login, as the raw header value without a Bearer prefix.',
        },
        authHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'Auth',
          description: 'The token from POST /user/login in an Auth header (user-feed replay only).',
        },
        tokenQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'token',
          description: 'The token from POST /user/login as a query parameter (user-feed replay only).',
        },
      },
      schemas: {
        Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
        CodedError: {
          type: 'object',
          properties: {
            error: {
              type: 'object',
              properties: { message: { type: 'string' }, code: { type: 'integer' } },
              required: ['message', 'code'],
            },
          },
          required: ['error'],
        },
      },
    },
  };
}

function operation(route: Route, method: string, path: string): Json {
  const d: AnyRouteDeclaration | undefined = route.declaration;
  const op: Json = {};
  if (d?.summary) op.summary = d.summary;
  if (d?.deprecated) op.deprecated = true;
  const parameters: Json[] = [];
  for (const name of route.pattern.split('/').filter((p) => p.startsWith(':'))) {
    parameters.push({ name: name.slice(1), in: 'path', required: true, schema: { type: 'string' } });
  }
  if (d?.query) {
    const q = openApiSchema(d.query, 'input');
    const required = new Set((q.required as string[] | undefined) ?? []);
    for (const [name, schema] of Object.entries((q.properties ?? {}) as Record<string, Json>)) {
      parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
  }
  if (parameters.length > 0) op.parameters = parameters;
  // An absent body is validated as {}, so the schema's own required fields say what must be sent.
  const takesBody = d?.body !== undefined && method !== 'GET';
  if (takesBody)
    op.requestBody = { required: false, content: { 'application/json': { schema: openApiSchema(d!.body!, 'input') } } };

  const responses: Record<string, Json> = {
    200: d?.response
      ? { description: 'OK', content: { 'application/json': { schema: openApiSchema(d.response, 'output') } } }
      : { description: 'OK' },
  };
  if (d?.query || takesBody || path.includes('{'))
    responses[400] = errorResponse('Invalid request: the message names the field');
  if (route.auth === 'bearer' || route.auth === 'raw') {
    responses[401] = {
      description: 'Missing, unknown or expired token',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CodedError' } } },
    };
    responses[403] = errorResponse('Account not active');
  }
  responses[429] = errorResponse('Rate limited: see Retry-After');
  responses[503] = {
    description: 'Server-side timeout (15 s)',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/CodedError' } } },
  };
  op.responses = responses;
  op.security = SECURITY[route.auth as Exclude<AuthMode, 'admin'>];
  return op;
}
