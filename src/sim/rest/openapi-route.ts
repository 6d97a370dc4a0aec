import { z } from 'zod';
import { respond } from '../http/types.ts';
import { openApiDocument } from '../http/openapi.ts';
import type { RegisterDeps } from '../register.ts';

/** The first line of the served document's description. */
export const OPENAPI_TITLE = 'linesmith simulator exchange API';

/**
 * `GET /openapi.json`: the OpenAPI 3.0 description of the simulator's exchange routes,
 * generated from their declarations the first time it is asked for (every route is mounted
 * by then). No token, as the exchange's own; the global per-IP limit applies.
 */
export function registerOpenApiRoute({ router }: RegisterDeps): void {
  let document: Record<string, unknown> | undefined;
  router.declare({
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    summary: 'This OpenAPI document',
    response: z.looseObject({ openapi: z.string() }),
    handler: () => {
      document ??= openApiDocument(router.routes(), {
        title: OPENAPI_TITLE,
        version: '1.0.0',
        description:
          'Generated from the schemas that validate each route. Responses are wrapped as { data } except where a route says otherwise.',
      });
      return respond.top(document);
    },
  });
}
