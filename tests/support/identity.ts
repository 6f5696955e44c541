import { randomBytes } from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { DataSource } from 'typeorm';
import { createDataSource } from '../../server/src/app/data-source.js';
import type { TestApp } from './app.js';

/** The embedded identity service's API keys of a test app. */
export function identityKeys(api: TestApp): { anonKey: string; serviceRoleKey: string } {
  const keys = api.app.identity.embeddedKeys;
  if (!keys) throw new Error('the test app does not run the embedded identity service');
  return { anonKey: keys.anonKey, serviceRoleKey: keys.serviceRoleKey };
}

/** A supabase-js client as the server uses it: no persistence, no refresh timer, no URL parsing. */
export function supabaseClient(url: string, key: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
}

/** A fresh anon client of the test app (one per simulated device). */
export function anonClient(api: TestApp): SupabaseClient {
  return supabaseClient(api.url, identityKeys(api).anonKey);
}

/** The service-role client of the test app, for `auth.admin`. */
export function serviceClient(api: TestApp): SupabaseClient {
  return supabaseClient(api.url, identityKeys(api).serviceRoleKey);
}

/** An address no other test uses. */
export function uniqueEmail(label = 'member'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.org`;
}

/** A password that meets the policy. */
export const GOOD_PASSWORD = 'correct horse battery staple';

/** The claims of a JWT, decoded without verification. */
export function decodeClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** The protected header of a JWT. */
export function decodeHeader(token: string): Record<string, unknown> {
  const header = token.split('.')[0] ?? '';
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/** Calls the identity API directly, as auth-js does (JSON, API version header unless told otherwise). */
export async function identityFetch(
  api: TestApp,
  path: string,
  init: {
    method?: string;
    body?: unknown;
    token?: string;
    headers?: Record<string, string>;
    apiVersion?: boolean;
  } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  if (init.apiVersion !== false) headers['x-supabase-api-version'] = '2024-01-01';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(`${api.url}/auth/v1${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

/** Runs `read` on a separate connection to the test app's database (to look at what it stored). */
export async function withDatabase<T>(api: TestApp, read: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = await createDataSource(api.config.database).initialize();
  try {
    return await read(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
