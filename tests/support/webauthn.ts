import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** The JSON a browser sends after `navigator.credentials.create()` (RegistrationResponseJSON). */
export interface RegistrationJson {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, unknown>;
}

/** The JSON a browser sends after `navigator.credentials.get()` (AuthenticationResponseJSON). */
export interface AssertionJson {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  clientExtensionResults: Record<string, unknown>;
}

/** What a ceremony is answered with; each may be set wrong on purpose. */
export interface Ceremony {
  challenge: string;
  origin: string;
  rpId: string;
  /** Whether the authenticator says it verified its user (PIN, biometric). */
  userVerified?: boolean;
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/**
 * A software authenticator for tests: one discoverable ES256 credential, `none` attestation,
 * answers built as a browser would send them (base64url JSON), with node:crypto signatures.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys: { privateKey: KeyObject; publicKey: KeyObject };
  private counter = 0;
  private userHandle: string | undefined;

  constructor() {
    this.keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private clientData(type: string, ceremony: Ceremony): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge: ceremony.challenge, origin: ceremony.origin, crossOrigin: false }),
    );
  }

  private flags(ceremony: Ceremony, extra = 0): number {
    return UP | (ceremony.userVerified === false ? 0 : UV) | extra;
  }

  /** Answers creation options: registers the credential, remembering the user handle for sign-ins. */
  register(ceremony: Ceremony, userHandle?: string): RegistrationJson {
    this.userHandle = userHandle;
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      sha256(ceremony.rpId),
      Buffer.from([this.flags(ceremony, AT)]),
      counterBytes(this.counter),
      Buffer.alloc(16),
      length,
      this.credentialId,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestation = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', ceremony)),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Signs a request's challenge; `forge` signs other data (a bad signature). */
  assert(ceremony: Ceremony, options: { forge?: boolean } = {}): AssertionJson {
    this.counter += 1;
    const authData = Buffer.concat([
      sha256(ceremony.rpId),
      Buffer.from([this.flags(ceremony)]),
      counterBytes(this.counter),
    ]);
    const clientData = this.clientData('webauthn.get', ceremony);
    const signed = Buffer.concat([authData, sha256(options.forge ? Buffer.from('something else') : clientData)]);
    const signature = sign('sha256', signed, this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle !== undefined && { userHandle: this.userHandle }),
      },
      clientExtensionResults: {},
    };
  }
}
