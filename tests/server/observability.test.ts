import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { freePort, startTestApp } from '../support/app.js';
import { signUpMember } from '../support/members.js';

const logged: Record<string, unknown>[] = [];
let api: TestApp;
let metricsUrl: string;

beforeAll(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  api = await startTestApp(
    { LOG_LEVEL: 'info', METRICS_PORT: String(port) },
    { logStream: { write: (line) => logged.push(JSON.parse(line) as Record<string, unknown>) } },
  );
});
afterAll(async () => {
  await api.close();
});

async function metrics(): Promise<string> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  return response.text();
}

describe('request ids', () => {
  it('name every answer, its log lines and the body of an error', async () => {
    const first = await fetch(`${api.url}/healthz`);
    const second = await fetch(`${api.url}/healthz`);
    const id = first.headers.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers.get('x-request-id')).not.toBe(id);

    const answered = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": "{ __typename }"}',
    });
    expect(answered.status).toBe(200);
    const answeredId = answered.headers.get('x-request-id');

    const broken = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    const brokenId = broken.headers.get('x-request-id');
    expect(await broken.json()).toMatchObject({ statusCode: 400, requestId: brokenId });
    const line = logged.find((entry) => entry.requestId === brokenId && entry.msg === 'request completed');
    expect(line).toMatchObject({ level: 30, method: 'POST', path: '/graphql', status: 400 });
    // A successful answer is counted by the metrics and logged at debug level only (its line would
    // have been written before the failed request's, which was found above).
    expect(logged.filter((entry) => entry.requestId === answeredId)).toEqual([]);
  });
});

describe('metrics', () => {
  it('are served on their own port only', async () => {
    expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    expect(await metrics()).toContain('process_resident_memory_bytes');
  });

  it('name the release that runs: version, commit and Node, as an info metric of 1', async () => {
    const text = await metrics();
    const line = /^lampstand_build_info\{(.*)\} 1$/m.exec(text);
    expect(line?.[1]).toMatch(/version="\d+\.\d+\.\d+"/);
    expect(line?.[1]).toMatch(/commit="[0-9a-f]{40}"/);
    expect(line?.[1]).toContain(`node="${process.versions.node}"`);
  });

  it('count requests by route and status, GraphQL errors by code, and identity calls', async () => {
    await signUpMember(api);
    await api.graphql('{ nothingHere }');
    const text = await metrics();
    expect(text).toMatch(
      /lampstand_http_request_duration_seconds_count\{method="POST",route="\/graphql",status="200"\} [1-9]/,
    );
    expect(text).toMatch(/lampstand_graphql_errors_total\{code="GRAPHQL_VALIDATION_FAILED"\} [1-9]/);
    expect(text).toMatch(/lampstand_identity_call_duration_seconds_count\{method="POST",outcome="200"\} [1-9]/);
  });
});
