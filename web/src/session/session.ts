import { isRecord } from '../lib/json-tag';
import { isPlusRole } from '@rules/plan';
import type { AuthSession_SessionFragment } from './session.generated';

/** A signed-in session as the browser keeps it. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops working, in milliseconds since the epoch. */
  expiresAt: number;
}

/** What the app reads from an access token (the server verifies it; the browser only reads it). */
export interface Claims {
  /** The identity user id. */
  sub: string;
  /** `plus` for Plus members (the `app_metadata.stripeRole` claim). */
  stripeRole: string | null;
}

export function sessionFromPayload(session: AuthSession_SessionFragment): Session {
  return {
    accessToken: session.accessToken,
    refreshToken: session.refreshToken,
    expiresAt: Date.parse(session.expiresAt),
  };
}

function decodeBase64Url(text: string): string {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')), (char) =>
    char.charCodeAt(0),
  );
  return new TextDecoder().decode(bytes);
}

/** The claims of a JWT's payload (base64url JSON, no library needed); null when it is not one. */
export function readClaims(accessToken: string): Claims | null {
  const payload = accessToken.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    if (!isRecord(claims) || typeof claims.sub !== 'string') return null;
    const appMetadata = isRecord(claims.app_metadata) ? claims.app_metadata : {};
    const role = appMetadata.stripeRole;
    return { sub: claims.sub, stripeRole: typeof role === 'string' ? role : null };
  } catch {
    return null;
  }
}

/** The original's paid flag: true exactly when the token's `stripeRole` claim is `plus`. */
export function isPlus(session: Session | null): boolean {
  return session !== null && isPlusRole(readClaims(session.accessToken)?.stripeRole ?? null);
}

const STORAGE_KEY = 'lampstand.session';

function parseStored(text: string | null): Session | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (
      isRecord(value) &&
      typeof value.accessToken === 'string' &&
      typeof value.refreshToken === 'string' &&
      typeof value.expiresAt === 'number'
    ) {
      return { accessToken: value.accessToken, refreshToken: value.refreshToken, expiresAt: value.expiresAt };
    }
  } catch {
    // A damaged entry is no session.
  }
  return null;
}

/**
 * The session in localStorage, so that it survives a reload and every tab shares one: a refresh
 * token works once, so a tab that refreshes hands the new one to the others.
 */
export class SessionStore {
  constructor(private readonly storage: Storage | null) {}

  read(): Session | null {
    try {
      return parseStored(this.storage?.getItem(STORAGE_KEY) ?? null);
    } catch {
      return null;
    }
  }

  write(session: Session | null): void {
    try {
      if (session) this.storage?.setItem(STORAGE_KEY, JSON.stringify(session));
      else this.storage?.removeItem(STORAGE_KEY);
    } catch {
      // Private modes may refuse storage: the session then lasts as long as the tab.
    }
  }

  /** Calls `listener` when another tab changes the session (the `storage` event fires only there). */
  onOtherTabChange(listener: (session: Session | null) => void): () => void {
    const onStorage = (event: StorageEvent) => {
      if (event.storageArea !== this.storage || (event.key !== STORAGE_KEY && event.key !== null)) return;
      listener(parseStored(event.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener('storage', onStorage);
    };
  }
}

/**
 * Whether a member is signed in on this browser (a session in storage), for a page that decides
 * between its own islands and the app before any of the app's code is here.
 */
export function sessionStored(): boolean {
  try {
    return new SessionStore(window.localStorage).read() !== null;
  } catch {
    return false;
  }
}
