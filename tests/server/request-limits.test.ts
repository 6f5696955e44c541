import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../server/src/config.js';
import type { TestApp } from '../support/app.js';
import { productionEnv, startTestApp } from '../support/app.js';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp();
});
afterAll(async () => {
  await api.close();
});

async function post(body: string, contentType = 'application/json'): Promise<Response> {
  return fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': contentType }, body });
}

/** `count` aliased fields, each a few tokens, so 65 of them parse well within the token limit. */
function aliases(count: number): string {
  return Array.from({ length: count }, (_, index) => `a${index}: verse(ref: "John 3:16") { id }`).join(' ');
}

describe('request limits (B1)', () => {
  it('rejects a document nested 20 deep before running it', async () => {
    const levels = 18;
    const deep = `{ profile(username: "x") { appearance { ${'theme { '.repeat(levels)}id${' }'.repeat(levels)} } } }`;
    const response = await api.graphql(deep);
    expect(response.status).toBe(400);
    expect(response.data).toBeUndefined();
    expect(response.errors?.map((error) => error.message).join('\n')).toMatch(/depth limit of 10 exceeded/i);
  });

  it('accepts the standard introspection query (the schema is public by design)', async () => {
    const response = await api.graphql(getIntrospectionQuery());
    expect(response.status).toBe(200);
    expect(response.errors).toBeUndefined();
  });

  it('accepts 64 aliases, the alias limit', async () => {
    const response = await api.graphql(`{ ${aliases(64)} }`);
    expect(response.errors).toBeUndefined();
    expect(Object.keys(response.data ?? {})).toHaveLength(64);
  });

  it('rejects 65 aliases by the alias limit (the document is well within the token limit)', async () => {
    const response = await api.graphql(`{ ${aliases(65)} }`);
    expect(response.status).toBe(400);
    expect(response.data).toBeUndefined();
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/aliases limit of 64 exceeded, found 65/i),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it('rejects introspection nested deeper than graphql-js allows (it is exempt from the depth and cost rules)', async () => {
    const levels = 6;
    const nested = `__schema { types { ${'fields { type { '.repeat(levels)}name${' } }'.repeat(levels)} } }`;
    const response = await api.graphql(`{ ${nested} }`);
    expect(response.status).toBe(400);
    expect(response.data).toBeUndefined();
    expect(response.errors?.[0]?.message).toMatch(/maximum introspection depth exceeded/i);
  });

  it('rejects 1,000 aliases before parsing them all (by the token limit)', async () => {
    const response = await api.graphql(`{ ${aliases(1000)} }`);
    expect(response.status).toBe(400);
    expect(response.data).toBeUndefined();
    expect(response.errors?.[0]).toMatchObject({
      message: expect.stringMatching(/more th[ae]t 3000 tokens/i),
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
  });

  it('rejects a huge token count', async () => {
    const response = await api.graphql(`{ ${'__typename '.repeat(5000)} }`);
    expect(response.status).toBe(400);
    expect(response.errors?.[0]?.message).toMatch(/token/i);
  });

  it('refuses a 1 MB body with 413', async () => {
    const response = await post(JSON.stringify({ query: `{ __typename }`, padding: 'x'.repeat(1024 * 1024) }));
    expect(response.status).toBe(413);
  });
});

describe('field suggestions (B3)', () => {
  const misspelled = '{ verse(ref: "John 3:16") { txt } }';

  it('would name a schema field for this misspelling if nothing hid them (so the check below can fail)', () => {
    const schema = buildSchema(readFileSync(path.join(projectRoot, 'schema.graphql'), 'utf8'));
    const messages = validate(schema, parse(misspelled)).map((error) => error.message);
    expect(messages).toEqual([expect.stringMatching(/Did you mean "text"/)]);
  });

  it('are never shown in production', async () => {
    const production = await startTestApp(productionEnv());
    try {
      expect(production.config.env).toBe('production');
      const response = await production.graphql(misspelled);
      expect(response.status).toBe(400);
      expect(response.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/Cannot query field "txt"/),
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      });
      expect(JSON.stringify(response.errors)).not.toMatch(/did you mean|"text"/i);
    } finally {
      await production.close();
    }
  });
});

describe('request shapes (B2)', () => {
  it('rejects batched arrays', async () => {
    const response = await post(JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }]));
    expect(response.status).toBe(400);
  });

  it('rejects mutations sent with GET', async () => {
    const query = encodeURIComponent('mutation { completeWelcome { username } }');
    const response = await fetch(`${api.url}/graphql?query=${query}`, { headers: { 'apollo-require-preflight': '1' } });
    expect(response.status).toBe(405);
  });

  it('rejects a text/plain POST, the shape of a cross-site request', async () => {
    const response = await post(JSON.stringify({ query: '{ __typename }' }), 'text/plain');
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/Cross-Site Request Forgery/i);
  });
});

describe('errors', () => {
  it('names the field of a validation failure (BAD_USER_INPUT)', async () => {
    const response = await api.graphql('{ verse(ref: "") { id } }');
    expect(response.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'ref' });
  });

  it('answers an anonymous mutation with UNAUTHENTICATED and changes nothing', async () => {
    const response = await api.graphql('mutation { completeWelcome { username } }');
    expect(response.data).toBeNull();
    expect(response.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('fragments', () => {
  it('do not count towards the depth limit, so colocated fragments nest freely', async () => {
    const fragments = Array.from(
      { length: 12 },
      (_, index) => `fragment F${index} on Verse { ${index < 11 ? `...F${index + 1}` : 'id ref'} }`,
    ).join('\n');
    const response = await api.graphql(`{ verse(ref: "John 3:16") { ...F0 } }\n${fragments}`);
    expect(response.errors).toBeUndefined();
    expect(response.data).toEqual({ verse: { id: 'John.3.16', ref: 'John 3:16' } });
  });
});
