import Fastify from 'fastify';
import type { FastifyPluginCallback } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/src/config.js';
import { inProcessFetch, internalIdentityFetch } from '../../../server/src/identity/embedded/in-process.js';

const server = Fastify();
server.all('/echo', async (request, reply) => {
  await reply.header('x-seen', 'yes').send({
    method: request.method,
    url: request.url,
    headers: request.headers,
    body: request.body ?? null,
  });
});
server.get('/empty', async (_request, reply) => {
  await reply.code(204).send();
});
server.get('/slow', async () => {
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return { late: true };
});

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const call = inProcessFetch(server);
beforeAll(() => server.ready());
afterAll(() => server.close());

describe('inProcessFetch', () => {
  it('passes on what supabase-js sends (a URL, a method, a header record, a JSON string) and answers a Response', async () => {
    const response = await call('http://identity.invalid/echo?grant_type=password', {
      method: 'post',
      headers: { Authorization: 'Bearer key', 'Content-Type': 'application/json;charset=UTF-8', apikey: 'k' },
      body: JSON.stringify({ email: 'ruth@example.org' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-seen')).toBe('yes');
    const echo = (await response.json()) as Echo;
    expect(echo.method).toBe('POST');
    expect(echo.url).toBe('/echo?grant_type=password');
    expect(echo.headers).toMatchObject({ authorization: 'Bearer key', apikey: 'k' });
    expect(echo.body).toEqual({ email: 'ruth@example.org' });
  });

  it('reads Headers, header lists and Request objects the way fetch does', async () => {
    const withHeaders = (await (
      await call(new URL('http://identity.invalid/echo'), { headers: new Headers({ 'X-One': '1' }) })
    ).json()) as Echo;
    expect(withHeaders.headers['x-one']).toBe('1');
    const withList = (await (await call('http://identity.invalid/echo', { headers: [['X-Two', '2']] })).json()) as Echo;
    expect(withList.headers['x-two']).toBe('2');
    const request = new Request('http://identity.invalid/echo?a=1', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ put: true }),
    });
    const fromRequest = (await (await call(request)).json()) as Echo;
    expect(fromRequest).toMatchObject({ method: 'PUT', url: '/echo?a=1', body: { put: true } });
  });

  it('answers a bodiless status with no body, and fails as fetch does once the signal aborts', async () => {
    const empty = await call('http://identity.invalid/empty');
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    await expect(call('http://identity.invalid/slow', { signal: AbortSignal.timeout(50) })).rejects.toThrow(/time/i);
  });
});

describe('internalIdentityFetch', () => {
  it('builds its Fastify instance at the first call, once for calls made together, and closes it with the services', async () => {
    let registered = 0;
    const plugin: FastifyPluginCallback = (instance, _options, done) => {
      registered += 1;
      instance.get('/health', () => ({ ok: true }));
      done();
    };
    const closers: (() => Promise<void>)[] = [];
    const call = internalIdentityFetch(pino({ level: 'silent' }), loadConfig({}), plugin, (close) => {
      closers.push(close);
    });
    expect(registered).toBe(0);
    const answers = await Promise.all([
      call('http://own.invalid/auth/v1/health'),
      call('http://own.invalid/auth/v1/health'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(registered).toBe(1);
    await call('http://own.invalid/auth/v1/health');
    expect(registered).toBe(1);
    expect(closers).toHaveLength(1);
    await closers[0]?.();
  });

  it('closes nothing when no call was made', async () => {
    const closers: (() => Promise<void>)[] = [];
    internalIdentityFetch(
      pino({ level: 'silent' }),
      loadConfig({}),
      (_instance, _options, done) => {
        done();
      },
      (close) => {
        closers.push(close);
      },
    );
    await expect(closers[0]?.()).resolves.toBeUndefined();
  });
});
