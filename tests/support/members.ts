import { expect } from 'vitest';
import type { GraphQLResponse, TestApp } from './app.js';
import { GOOD_PASSWORD, uniqueEmail } from './identity.js';

export interface SessionData {
  accessToken: string;
  refreshToken: string;
  expiresAt: string;
  expiresIn: number;
}

export interface MemberData {
  user: {
    uid: string;
    email: string;
    first: string;
    birthday: string | null;
    joined: string;
    platform: string;
    platformID: string | null;
  };
  profile: {
    username: string;
    name: string;
    theme: string;
    layout: string;
    button: string;
    isActive: boolean;
    isPublic: boolean;
    welcome: boolean;
    versePinned: boolean;
    joined: string;
  };
  plan: string;
}

export const MEMBER_FIELDS = `
  user { uid email first birthday joined platform platformID }
  profile { username name theme layout button isActive isPublic welcome versePinned joined }
  plan`;

export const SESSION_FIELDS = 'accessToken refreshToken expiresAt expiresIn';

export const SIGN_UP = `mutation ($input: SignUpInput!) {
  signUp(input: $input) { confirmationSent session { ${SESSION_FIELDS} } member { ${MEMBER_FIELDS} } }
}`;

export const LOGIN = `mutation ($input: LoginInput!) {
  login(input: $input) { session { ${SESSION_FIELDS} } member { ${MEMBER_FIELDS} } }
}`;

export const ME = `{ me { ${MEMBER_FIELDS} } }`;

export interface SignUpData {
  signUp: { confirmationSent: boolean; session: SessionData | null; member: MemberData | null };
}

export interface SignedUpMember {
  email: string;
  password: string;
  session: SessionData;
  member: MemberData;
}

/** Signs a member up through the API (autoconfirm on) and returns the session and records. */
export async function signUpMember(
  api: Pick<TestApp, 'graphql'>,
  input: Partial<{ email: string; password: string; first: string; birthday: string; platform: string }> = {},
): Promise<SignedUpMember> {
  const email = input.email ?? uniqueEmail();
  const password = input.password ?? GOOD_PASSWORD;
  const response = await api.graphql<SignUpData>(SIGN_UP, {
    input: {
      email,
      password,
      first: input.first ?? 'Grace',
      platform: input.platform ?? 'web',
      birthday: input.birthday,
    },
  });
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  const { session, member } = response.data?.signUp ?? {};
  if (!session || !member) throw new Error('sign-up returned no session');
  return { email, password, session, member };
}

/** The first error's code and extensions, for compact assertions. */
export function firstError(response: GraphQLResponse<unknown>): Record<string, unknown> & { message?: string } {
  const error = response.errors?.[0];
  return { message: error?.message, ...error?.extensions };
}
