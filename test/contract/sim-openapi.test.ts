import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSim, type TestSim } from '../support/sim.ts';
import { loadPublishedSpec } from './published-spec.ts';

/** The simulator's own GET /openapi.json, generated from its route declarations. */

let t: TestSim;
let doc: any;

beforeAll(async () => {
  t = await startTestSim();
  const res = await t.http('GET', '/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});

afterAll(async () => {
  await t?.close();
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.0 document served without a token', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
  });

  it('describes every published route the simulator serves, and no admin route', () => {
    for (const op of loadPublishedSpec().operations) {
      expect(doc.paths[op.path]?.[op.method.toLowerCase()], `${op.method} ${op.path}`).toBeDefined();
    }
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
  });

  it('takes parameters, bodies and authentication from the route declarations', () => {
    const login = doc.paths['/user/login'].post;
    expect(login.security).toEqual([]);
    expect(login.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['username', 'password'],
    });
    const liability = doc.paths['/user/getGameLiability'].get;
    expect(liability.parameters).toEqual([
      {
        name: 'gameID',
        in: 'query',
        required: true,
        schema: expect.objectContaining({ type: 'string', pattern: expect.any(String) }),
      },
    ]);
    expect(
      liability.responses['200'].content['application/json'].schema.properties.data.properties.liability,
    ).toMatchObject({ type: 'number', maximum: 0 });
    expect(liability.security).toEqual([{ bearerAuth: [] }]);
    const graded = doc.paths['/user/v2/getGradedSince'];
    expect(graded.get.security).toEqual([{ authToken: [] }]);
    expect(graded.get.requestBody).toBeUndefined();
    expect(Object.keys(graded.post.requestBody.content['application/json'].schema.properties)).toEqual([
      'since',
      'cursor',
    ]);
    expect(graded.get.parameters.map((p: { name: string }) => p.name)).toEqual(['since', 'cursor']);
    const heartbeat = doc.paths['/user/ordersHeartbeat'].post.requestBody.content['application/json'].schema;
    expect(heartbeat.properties.timeout).toMatchObject({ type: 'integer', maximum: 86_400 });
    expect(doc.paths['/exchange/getOrderbook'].post.deprecated).toBe(true);
  });

  it('documents the edit, cancel-by-scope, lookup and market-read routes from their declarations', () => {
    const names = (path: string) =>
      doc.paths[path].get.parameters.map(
        (p: { name: string; required: boolean }) => `${p.name}${p.required ? '' : '?'}`,
      );
    expect(names('/user/getOrdersForGame')).toEqual(['gameID']);
    expect(names('/user/getBetByID')).toEqual(['id?', 'txID?']);
    expect(names('/user/getBetByWagerRequestID')).toEqual(['wagerRequestID']);
    expect(names('/user/getBetByUserReference')).toEqual(['userReference', 'gameID']);
    expect(names('/exchange/getSingleOrderbook')).toEqual(['gameID']);
    expect(names('/exchange/getOddsForAveragePrice')).toEqual(['leagueRequested']);
    expect(names('/exchange/getMatchedVolume')).toEqual(['startDate', 'endDate']);
    expect(doc.paths['/exchange/getMatchedVolume'].get.parameters[0].schema).toMatchObject({
      type: 'string',
      format: 'date',
    });
    for (const path of ['/session/editOrder', '/session/v4/editOrder']) {
      const edit = doc.paths[path].post.requestBody.content['application/json'].schema;
      expect(edit.required, path).toEqual(['sessionID']);
      expect(edit.properties.orderOdds).toMatchObject({ type: 'integer', nullable: true });
      expect(edit.properties.orderVolume).toMatchObject({ type: 'number', nullable: true });
    }
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    expect(body('/session/cancelByReference')).toMatchObject({
      required: ['gameID', 'userReferences'],
      properties: { userReferences: { type: 'array' } },
    });
    expect(body('/session/cancelAllOrdersForGame').properties.type.enum).toEqual(['moneyline', 'spread', 'total']);
    expect(body('/session/cancelAllForLeague').required).toEqual(['league']);
    expect(doc.paths['/session/cancelAllOrders'].post.security).toEqual([{ bearerAuth: [] }]);
  });

  it('answers what the document says: a request the declared schema rejects is a 400 naming the field', async () => {
    const u = await t.user('doc-reader');
    const res = await t.http('GET', '/user/getGameLiability', { token: u.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'gameID is required' });
    const bad = await t.http('POST', '/user/v2/getGraded', { token: u.token, raw: true, body: { startDate: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/startDate must be a string/);
  });
});
