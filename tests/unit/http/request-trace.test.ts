import { describe, expect, it } from 'vitest';
import { requestIdOf, tracedFetch, withRequestTrace } from '../../../server/src/http/request-trace.js';
import { operationDeadline, operationEndsAt } from '../../../server/src/identity/deadline.js';
import type { IncomingMessage } from 'node:http';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** A fetch that answers nothing but what it was sent. */
function recorder(): { fetch: typeof fetch; sent: Headers[] } {
  const sent: Headers[] = [];
  return {
    sent,
    fetch: (_input, init) => {
      sent.push(new Headers(init?.headers));
      return Promise.resolve(new Response(null, { status: 204 }));
    },
  };
}

describe('request ids', () => {
  it('prefer a valid x-request-id, then the trace id, then a fresh UUID', () => {
    const of = (headers: Record<string, string>) => requestIdOf({ headers } as unknown as IncomingMessage);
    expect(of({ 'x-request-id': 'abc-1', traceparent: TRACEPARENT })).toBe('abc-1');
    expect(of({ traceparent: TRACEPARENT })).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(of({ 'x-request-id': 'line\nbreak' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(of({ traceparent: TRACEPARENT.replace('-01', '-1') })).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('tracedFetch', () => {
  it('adds the running request’s id and trace to headers given as an object or as Headers', async () => {
    const { fetch, sent } = recorder();
    const traced = tracedFetch(fetch);
    const request = { id: 'req-9', headers: { traceparent: TRACEPARENT } };
    await withRequestTrace(request, async () => {
      await traced('http://identity.test/token', { headers: { apikey: 'k' } });
      await traced('http://identity.test/user', { headers: new Headers({ apikey: 'k' }) });
    });
    expect(sent).toHaveLength(2);
    for (const headers of sent) {
      expect(headers.get('apikey')).toBe('k');
      expect(headers.get('x-request-id')).toBe('req-9');
      expect(headers.get('traceparent')).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-01$/);
    }
  });

  it('sends nothing more outside a request, and no traceparent when the caller sent none', async () => {
    const { fetch, sent } = recorder();
    const traced = tracedFetch(fetch);
    await traced('http://identity.test/token', { headers: { apikey: 'k' } });
    await withRequestTrace({ id: 'req-10', headers: {} }, () => traced('http://identity.test/token'));
    expect(sent[0]?.get('x-request-id')).toBeNull();
    expect(sent[1]?.get('x-request-id')).toBe('req-10');
    expect(sent[1]?.get('traceparent')).toBeNull();
  });
});

describe('the operation deadline', () => {
  it('is the one its request was given, through awaits, and none outside a request or without one', async () => {
    const endsAt = operationEndsAt(1000);
    const inside = await withRequestTrace(
      { id: 'req-11', headers: {} },
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return operationDeadline();
      },
      endsAt,
    );
    expect(inside).toBe(endsAt);
    expect(operationDeadline()).toBeUndefined();
    expect(withRequestTrace({ id: 'req-12', headers: {} }, () => operationDeadline())).toBeUndefined();
  });
});
