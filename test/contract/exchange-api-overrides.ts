import type { PublishedOperation, SpecFile } from './published-spec.ts';

type Json = Record<string, unknown>;

/**
 * Where a published description and exchange-api.md disagree, exchange-api.md wins
 * (precedence: exchange-api.md, then feeds-and-semantics §8, then the OpenAPI files). Each
 * entry changes one published schema or status at one place and says why; nothing else of
 * the descriptions is loosened.
 */

/** `{ error: string }`, the HTTP error body of exchange-api §1 (7) and §7.1 (1). */
const ERROR_BODY: Json = {
  type: 'object',
  properties: { error: { type: 'string' } },
  required: ['error'],
  additionalProperties: false,
};

/** `{ error: { message, code } }`, the 401 of exchange-api §5 (9) and the login challenge of §7.2. */
function codedErrorBody(message: string, code: number): Json {
  return {
    type: 'object',
    properties: {
      error: {
        type: 'object',
        properties: { message: { const: message }, code: { const: code } },
        required: ['message', 'code'],
        additionalProperties: false,
      },
    },
    required: ['error'],
    additionalProperties: false,
  };
}

const CHALLENGE_BODY = codedErrorBody('CHALLENGE_REQUIRED', 428);
const INVALID_CREDENTIALS_BODY = codedErrorBody('InvalidCredentials', 401);

export interface DefinitionOverride {
  readonly file: SpecFile;
  readonly definition: string;
  readonly reason: string;
  /** Changes the converted definition in place; throws when the published shape it corrects is not there. */
  readonly patch: (definition: Json) => void;
}

function property(definition: Json, name: string): Json {
  const props = definition.properties as Record<string, Json> | undefined;
  const p = props?.[name];
  if (!p) throw new Error(`published definition has no property ${name}: the override is stale`);
  return p;
}

export const DEFINITION_OVERRIDES: readonly DefinitionOverride[] = [
  {
    file: 'exchange-openapi.json',
    definition: 'PlaceOrderResult',
    reason:
      'exchange-api §2.4: an entry is a success { matched, unmatched } or a failure { error, errorType }. ' +
      'As published neither branch of the oneOf requires a field, so every object matches both ' +
      'and the oneOf can never hold; the branches require the fields §2.4 names.',
    patch: (d) => {
      const [success, failure] = d.oneOf as Json[];
      if (!success || !failure)
        throw new Error('PlaceOrderResult is no longer a two-branch oneOf: the override is stale');
      const requiring = (fields: readonly string[]) => ({
        type: 'object',
        properties: Object.fromEntries(fields.map((f) => [f, {}])),
        required: fields,
      });
      Object.assign(success, { allOf: [{ $ref: String(success.$ref) }, requiring(['matched', 'unmatched'])] });
      delete success.$ref;
      Object.assign(failure, { allOf: [{ $ref: String(failure.$ref) }, requiring(['error', 'errorType'])] });
      delete failure.$ref;
    },
  },
  {
    file: 'exchange-openapi.json',
    definition: 'GradedWager',
    reason:
      'exchange-api §2.7: outcome is winner, loser, half-win, half-loss or refunded (the hand-written description lists push and refund).',
    patch: (d) => {
      property(d, 'outcome').enum = ['winner', 'loser', 'half-win', 'half-loss', 'refunded'];
    },
  },
  {
    file: 'exchange-openapi.json',
    definition: 'GradedWager',
    reason: 'exchange-api §2.7: participantID is a string or null on a graded row (null for totals and the 1x2 draw).',
    patch: (d) => {
      property(d, 'participantID').type = ['string', 'null'];
    },
  },
  {
    file: 'exchange-openapi.json',
    definition: 'GradedSummary',
    reason:
      'exchange-api §2.7: summary pnl and volume are numbers (the hand-written description says integer; P&L has cents).',
    patch: (d) => {
      property(d, 'pnl').type = 'number';
      property(d, 'volume').type = 'number';
    },
  },
];

export function requireDefinitionOverridesApply(definitions: ReadonlyMap<SpecFile, Json>): Map<SpecFile, Json> {
  const copy = new Map<SpecFile, Json>();
  for (const [file, defs] of definitions) copy.set(file, structuredClone(defs));
  for (const o of DEFINITION_OVERRIDES) {
    const def = copy.get(o.file)?.[o.definition] as Json | undefined;
    if (!def) throw new Error(`override of ${o.file} ${o.definition}: no such definition`);
    o.patch(def);
  }
  return copy;
}

export interface StatusOverride {
  readonly reason: string;
  /** The body schema this status must match on that route. */
  readonly schema: Json;
}

/**
 * Statuses exchange-api.md gives a route that the published description does not list, or
 * lists with a body exchange-api.md contradicts.
 */
export function statusOverride(op: PublishedOperation, status: number): StatusOverride | undefined {
  const route = `${op.method} ${op.path}`;
  if (route === 'POST /user/login' && status === 428) {
    return {
      reason: 'exchange-api §7.2: 428 with code CHALLENGE_REQUIRED while a human-verification challenge is demanded.',
      schema: CHALLENGE_BODY,
    };
  }
  if (route === 'POST /session/cancel' && status === 403) {
    return {
      reason: "exchange-api §4.6 and §7.4: cancel answers 403 when the order is not the caller's.",
      schema: ERROR_BODY,
    };
  }
  if (status === 401 && op.file === 'exchange-openapi-graded.json' && op.requiresLogin) {
    return {
      reason:
        'exchange-api §5 (9): a missing, unknown or expired token is 401 ' +
        'with { error: { message: InvalidCredentials, code: 401 } } on every route, the graded ones included.',
      schema: INVALID_CREDENTIALS_BODY,
    };
  }
  if (status === 400 && op.takesInput && !op.responses.has('400')) {
    return {
      reason:
        'exchange-api §1 (7): HTTP errors carry { error }. A route that takes parameters or a body ' +
        'answers a request its published schema rejects with 400 (the service-generated ' +
        'description lists 400 "Invalid request" on every route for this reason; the hand-written ' +
        'one lists it on some).',
      schema: ERROR_BODY,
    };
  }
  if (status === 413 && op.takesBody && !op.responses.has('413')) {
    return {
      reason:
        'exchange-api §1 (7): HTTP errors carry { error }. Neither description bounds a request ' +
        'body; one far larger than any batch (over 1 MiB) is refused with 413 before the route ' +
        'reads it.',
      schema: ERROR_BODY,
    };
  }
  if (status === 403 && op.requiresLogin && !op.responses.has('403')) {
    return {
      reason:
        'exchange-api §7.2: a banned, closed or frozen account is refused with 403. Its token ' +
        'answers 403 on every logged-in route (the service-generated description lists 403 on each ' +
        'of them; the hand-written one omits it).',
      schema: ERROR_BODY,
    };
  }
  return undefined;
}
