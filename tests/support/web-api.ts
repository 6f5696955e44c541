// The GraphQL API as the web components meet it in happy-dom: answered at the HTTP boundary (a
// `fetch` stub), with tokens, sessions and members shaped as the real API sends them.
import { vi } from 'vitest';

export const SESSION_STORAGE_KEY = 'lampstand.session';

let tokens = 0;

/** An access token as the API issues them (each one different); the browser only reads its claims. */
export function jwt(claims: { sub: string; stripeRole?: string }): string {
  tokens += 1;
  const part = (value: object) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const appMetadata = claims.stripeRole ? { provider: 'email', stripeRole: claims.stripeRole } : { provider: 'email' };
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: claims.sub, role: 'authenticated', app_metadata: appMetadata, session_id: `s${tokens}` })}.c2ln`;
}

/** The signed-in member (`AuthMember_member`) as the API answers it. */
export function member(uid: string, first = 'Lydia', options: { plan?: 'free' | 'plus' } = {}) {
  return {
    __typename: 'Member',
    plan: options.plan ?? 'free',
    user: {
      __typename: 'User',
      uid,
      email: `${first.toLowerCase()}@example.com`,
      first,
      birthday: null,
      joined: '2026-01-05T10:00:00.000Z',
      platform: 'web',
      platformID: null,
    },
    profile: {
      __typename: 'Profile',
      username: `user123${uid[0] ?? 'x'}${first[0]?.toLowerCase() ?? 'x'}`,
      name: first,
      theme: 'lightTheme',
      layout: 'row',
      button: 'normalButton',
      isActive: true,
      isPublic: true,
      bio: '',
      welcome: true,
      versePinned: false,
      translation: 'KJV',
      joined: '2026-01-05T10:00:00.000Z',
      appearance: { __typename: 'Appearance', theme: 'lightTheme', layout: 'row', button: 'normalButton' },
    },
  };
}

let issued = 0;

/** A session as the API answers it, expiring `inMs` from now; refresh tokens count up (`refresh-<n>`). */
export function session(claims: { sub: string; stripeRole?: string }, inMs = 3_600_000) {
  issued += 1;
  return {
    __typename: 'Session',
    accessToken: jwt(claims),
    refreshToken: `refresh-${issued}`,
    expiresAt: new Date(Date.now() + inMs).toISOString(),
    expiresIn: Math.round(inMs / 1000),
  };
}

/** What `refreshSession` answers: a new session for the member, expiring `inMs` from now. */
export function refreshed(uid: string, options: { plus?: boolean; inMs?: number } = {}) {
  return {
    body: {
      data: {
        refreshSession: {
          __typename: 'AuthPayload',
          session: session(options.plus ? { sub: uid, stripeRole: 'plus' } : { sub: uid }, options.inMs),
          member: member(uid, 'Lydia', { plan: options.plus ? 'plus' : 'free' }),
        },
      },
    },
  };
}

/**
 * One member's session with the identity service's refresh-token rotation: each refresh swaps a
 * token for a new session; a spent token may be presented again within the reuse interval, and a
 * replay after it ends the whole session. `presented` lists every token sent, in order.
 */
export function rotatingSession(uid: string, options: { inMs?: number; reuseIntervalMs?: number } = {}) {
  const inMs = options.inMs ?? 3_600_000;
  const reuseIntervalMs = options.reuseIntervalMs ?? 10_000;
  const initial = session({ sub: uid }, inMs);
  const issued = new Set([initial.refreshToken]);
  const spentAt = new Map<string, number>();
  const presented: string[] = [];
  let ended = false;
  return {
    initial,
    presented,
    /** The `RefreshSession` handler. */
    refresh: (request: ApiRequest): ApiAnswer => {
      const token = String(request.variables.refreshToken);
      presented.push(token);
      const spent = spentAt.get(token);
      if (spent !== undefined && Date.now() > spent + reuseIntervalMs) ended = true;
      if (ended || !issued.has(token)) {
        return failure('UNAUTHENTICATED', 'Your session has ended. Please sign in again.', {
          identityCode: 'refresh_token_already_used',
        });
      }
      if (spent === undefined) spentAt.set(token, Date.now());
      const next = session({ sub: uid }, inMs);
      issued.add(next.refreshToken);
      return {
        body: { data: { refreshSession: { __typename: 'AuthPayload', session: next, member: member(uid) } } },
      };
    },
  };
}

/** A GraphQL error answer with a stable code, as the API sends it. */
export function failure(code: string, message: string, extensions: Record<string, unknown> = {}) {
  return { body: { data: null, errors: [{ message, extensions: { code, ...extensions } }] } };
}

/** Puts a session where AuthClient keeps it, as if the member had signed in before. */
export function storeSession(value: ReturnType<typeof session>): void {
  localStorage.setItem(
    SESSION_STORAGE_KEY,
    JSON.stringify({
      accessToken: value.accessToken,
      refreshToken: value.refreshToken,
      expiresAt: Date.parse(value.expiresAt),
    }),
  );
}

export interface ApiRequest {
  operationName: string;
  variables: Record<string, unknown>;
  authorization: string | null;
}

export type ApiAnswer = { status?: number; body: object } | Promise<{ status?: number; body: object }>;

/**
 * Answers the app's GraphQL requests: each operation name gets a handler; a handler that throws
 * is a network failure. Returns what was asked, in order.
 */
export function stubApi(handlers: Record<string, (request: ApiRequest) => ApiAnswer>) {
  const requests: ApiRequest[] = [];
  const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as {
      operationName: string;
      variables?: Record<string, unknown>;
    };
    const headers = new Headers(init?.headers);
    const request = {
      operationName: body.operationName,
      variables: body.variables ?? {},
      authorization: headers.get('authorization'),
    };
    requests.push(request);
    const handler = handlers[body.operationName];
    if (!handler) throw new Error(`no handler for ${body.operationName}`);
    const answer = await handler(request);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/graphql-response+json' },
    });
  });
  vi.stubGlobal('fetch', fetch);
  return {
    requests,
    names: () => requests.map((request) => request.operationName),
    count: (name: string) => requests.filter((request) => request.operationName === name).length,
  };
}
