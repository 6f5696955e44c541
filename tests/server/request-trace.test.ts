import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD } from '../support/identity.js';
import { signUpMember } from '../support/members.js';

const logged: Record<string, unknown>[] = [];
/** The headers of every request the app made to the identity service, over HTTP as to a hosted one. */
const identityCalls: Headers[] = [];
let api: TestApp;

beforeAll(async () => {
  api = await startTestApp(
    { LOG_LEVEL: 'info' },
    {
      logStream: { write: (line) => logged.push(JSON.parse(line) as Record<string, unknown>) },
      identityFetch: (input, init) => {
        identityCalls.push(new Headers(init?.headers));
        return fetch(input, init);
      },
    },
  );
});
afterAll(async () => {
  await api.close();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** A GraphQL POST whose body does not parse: answered 400 and logged at info level. */
function broken(headers: Record<string, string>): Promise<Response> {
  return fetch(`${api.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: '{"query": ',
  });
}

describe('a caller’s request id and trace', () => {
  it('name the request in its answer and its log lines when valid', async () => {
    const answer = await broken({ 'x-request-id': 'client-42.retry:1' });
    expect(answer.headers.get('x-request-id')).toBe('client-42.retry:1');
    expect(await answer.json()).toMatchObject({ requestId: 'client-42.retry:1' });
    expect(logged.find((entry) => entry.requestId === 'client-42.retry:1')).toMatchObject({ status: 400 });
  });

  it('without an x-request-id, the trace id of a valid traceparent names it, and the traceparent is echoed', async () => {
    const answer = await broken({ traceparent: TRACEPARENT });
    expect(answer.headers.get('x-request-id')).toBe(TRACE_ID);
    expect(answer.headers.get('traceparent')).toBe(TRACEPARENT);
    expect(logged.find((entry) => entry.requestId === TRACE_ID)).toMatchObject({ status: 400 });
  });

  it('are replaced when they are not valid, and an invalid traceparent is not echoed', async () => {
    const invalid: Record<string, string>[] = [
      { 'x-request-id': 'has spaces and "quotes"' },
      { 'x-request-id': 'a'.repeat(129) },
      { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` },
      { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7` },
    ];
    for (const headers of invalid) {
      const answer = await broken(headers);
      expect(answer.headers.get('x-request-id'), JSON.stringify(headers)).toMatch(/^[0-9a-f-]{36}$/);
      expect(answer.headers.get('traceparent')).toBeNull();
    }
  });

  it('travel with the identity calls the request makes, the trace continued with a new parent id', async () => {
    const member = await signUpMember(api);
    identityCalls.length = 0;
    const answer = await api.graphql(
      'mutation ($input: LoginInput!) { login(input: $input) { __typename } }',
      { input: { email: member.email, password: GOOD_PASSWORD } },
      { headers: { 'x-request-id': 'sign-in-7', traceparent: TRACEPARENT } },
    );
    expect(answer.errors).toBeUndefined();
    expect(identityCalls.length).toBeGreaterThan(0);
    for (const headers of identityCalls) {
      expect(headers.get('x-request-id')).toBe('sign-in-7');
      const [version, traceId, parentId, flags] = (headers.get('traceparent') ?? '').split('-');
      expect({ version, traceId, flags }).toEqual({ version: '00', traceId: TRACE_ID, flags: '01' });
      expect(parentId).toMatch(/^[0-9a-f]{16}$/);
      expect(parentId).not.toBe('00f067aa0ba902b7');
    }
  });
});
