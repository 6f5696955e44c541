import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import { GOOD_PASSWORD, identityKeys, uniqueEmail } from '../support/identity.js';

const FRIEND = 'https://friend.example';
const STRANGER = 'https://evil.example';

let api: TestApp;
beforeAll(async () => {
  api = await startTestApp({ CORS_ORIGINS: FRIEND });
});
afterAll(async () => {
  await api.close();
});

function preflight(origin: string): Promise<Response> {
  return fetch(`${api.url}/auth/v1/signup`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'apikey, content-type',
    },
  });
}

describe('browser calls to the identity service', () => {
  it('answer CORS for the site and CORS_ORIGINS, with credentials', async () => {
    for (const origin of [new URL(api.url).origin, FRIEND]) {
      const response = await preflight(origin);
      expect(response.status, origin).toBe(204);
      expect(response.headers.get('access-control-allow-origin'), origin).toBe(origin);
      expect(response.headers.get('access-control-allow-credentials'), origin).toBe('true');
    }
  });

  it('answer no CORS to any other origin, so its pages cannot read the answers', async () => {
    const response = await preflight(STRANGER);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const signup = await fetch(`${api.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { origin: STRANGER, apikey: identityKeys(api).anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: uniqueEmail(), password: GOOD_PASSWORD }),
    });
    expect(signup.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'refuse a %s body, which another site could post without asking, and create nothing',
    async (contentType) => {
      const email = uniqueEmail();
      const response = await fetch(`${api.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: identityKeys(api).anonKey, 'content-type': contentType },
        body: JSON.stringify({ email, password: GOOD_PASSWORD }),
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ error_code: 'bad_json' });
      const users = await api.dataSource.query(`SELECT id FROM auth_users WHERE email = '${email}'`);
      expect(users).toEqual([]);
    },
  );
});
