import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/**
 * Passkeys, straight against the identity service at /auth/v1 (the same origin): WebAuthn factors
 * through Supabase Auth's factor API, and sign-in with a passkey alone through its extension
 * `/passkeys/authentication/*`. This module (and @simplewebauthn/browser) loads only when a screen
 * uses a passkey.
 */

const AUTH = '/auth/v1';

/** A refusal of the identity service, with its code (`webauthn_verification_failed`, …). */
export class PasskeyError extends Error {
  override name = 'PasskeyError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A passkey of the member, as the account page lists it. */
export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
}

/** What a passkey step answers: a session of the identity service (its refresh token signs in). */
export interface PasskeySession {
  refresh_token: string;
  access_token: string;
}

interface Factor {
  id: string;
  factor_type: string;
  status: string;
  friendly_name?: string;
  created_at: string;
}

async function call<T>(path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-supabase-api-version': '2024-01-01',
  };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const response = await fetch(`${AUTH}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const code = typeof body.code === 'string' ? body.code : `http_${String(response.status)}`;
    throw new PasskeyError(code, typeof body.message === 'string' ? body.message : 'The request failed');
  }
  return body as T;
}

/** This page's relying party, as supabase-js's `mfa.webauthn` sends it. */
const relyingParty = () => ({ rpId: window.location.hostname, rpOrigins: [window.location.origin] });

interface Challenge<Options> {
  id: string;
  webauthn: { type: 'create' | 'request'; credential_options: { publicKey: Options } };
}

async function webauthnFactors(token: string): Promise<Factor[]> {
  const user = await call<{ factors?: Factor[] }>('/user', { token });
  return (user.factors ?? []).filter((factor) => factor.factor_type === 'webauthn');
}

/** The member's passkeys (verified WebAuthn factors). */
export async function listPasskeys(token: string): Promise<Passkey[]> {
  return (await webauthnFactors(token))
    .filter((factor) => factor.status === 'verified')
    .map((factor) => ({ id: factor.id, name: factor.friendly_name ?? 'Passkey', createdAt: factor.created_at }));
}

/** Registers a new passkey on this device; answers the session the factor raised to aal2. */
export async function addPasskey(token: string, name: string): Promise<PasskeySession> {
  const factor = await call<{ id: string }>('/factors', {
    token,
    body: { factor_type: 'webauthn', friendly_name: name },
  });
  try {
    const challenge = await call<Challenge<PublicKeyCredentialCreationOptionsJSON>>(`/factors/${factor.id}/challenge`, {
      token,
      body: { webauthn: relyingParty() },
    });
    const credential = await startRegistration({ optionsJSON: challenge.webauthn.credential_options.publicKey });
    return await call<PasskeySession>(`/factors/${factor.id}/verify`, {
      token,
      body: {
        challenge_id: challenge.id,
        webauthn: { type: 'create', ...relyingParty(), credential_response: credential },
      },
    });
  } catch (error) {
    // An abandoned registration leaves no half-made factor behind.
    await call(`/factors/${factor.id}`, { method: 'DELETE', token }).catch(() => undefined);
    throw error;
  }
}

/** Removes a passkey (a verified factor: the session must be at aal2). */
export async function removePasskey(token: string, id: string): Promise<void> {
  await call(`/factors/${id}`, { method: 'DELETE', token });
}

/** Passes the second step of a password sign-in with a passkey of the account. */
export async function verifyWithPasskey(mfaToken: string): Promise<PasskeySession> {
  const factor = (await webauthnFactors(mfaToken)).find((candidate) => candidate.status === 'verified');
  if (!factor) throw new PasskeyError('no_passkey', 'This account has no passkey. Enter the code from your app.');
  const challenge = await call<Challenge<PublicKeyCredentialRequestOptionsJSON>>(`/factors/${factor.id}/challenge`, {
    token: mfaToken,
    body: { webauthn: relyingParty() },
  });
  const credential = await startAuthentication({ optionsJSON: challenge.webauthn.credential_options.publicKey });
  return call<PasskeySession>(`/factors/${factor.id}/verify`, {
    token: mfaToken,
    body: {
      challenge_id: challenge.id,
      webauthn: { type: 'request', ...relyingParty(), credential_response: credential },
    },
  });
}

/** Signs in with a passkey alone (a discoverable credential picked on this device). */
export async function signInWithPasskey(): Promise<PasskeySession> {
  const options = await call<{ challenge_id: string; options: PublicKeyCredentialRequestOptionsJSON }>(
    '/passkeys/authentication/options',
    { body: {} },
  );
  const credential: AuthenticationResponseJSON = await startAuthentication({ optionsJSON: options.options });
  return call<PasskeySession>('/passkeys/authentication/verify', {
    body: { challenge_id: options.challenge_id, credential },
  });
}
