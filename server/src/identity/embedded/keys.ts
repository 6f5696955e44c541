import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT, importJWK, jwtVerify } from 'jose';
import type { CryptoKey, JWK, JWTHeaderParameters, JWTPayload, KeyObject } from 'jose';
import { z } from 'zod';
import type { Config, SigningAlgorithm, SigningJwk } from '../../config.js';
import { importHs256Secret, signHs256 } from '../hs256.js';

type VerificationKey = CryptoKey | KeyObject | Uint8Array;

/** The JWT keys of the embedded identity service and the API keys derived from them. */
export interface IdentityKeys {
  /** Signs a token with the signing key, `kid` in the header when the key has one. */
  sign(claims: JWTPayload): Promise<string>;
  /**
   * Verifies the signature with the key named by `kid`, or with the HS256 secret when there is no
   * `kid` (as Supabase Auth does). `exp` and `nbf` are checked only when present.
   */
  verify(token: string): Promise<{ payload: JWTPayload; protectedHeader: JWTHeaderParameters }>;
  /** The public keys, as `/.well-known/jwks.json` publishes them (never symmetric ones). */
  jwks: { keys: JWK[] };
  anonKey: string;
  serviceRoleKey: string;
  /** True when the keys are the generated development secret kept in DATA_DIR. */
  development: boolean;
  /** Where the development secret lives, when it is used. */
  developmentFile: string | undefined;
  /** True when this start made the development secret (the first start on this DATA_DIR). */
  developmentCreated: boolean;
}

const devSecretsSchema = z.object({
  jwtSecret: z.string().min(32),
  anonKey: z.string().min(1),
  serviceRoleKey: z.string().min(1),
});
type DevSecrets = z.infer<typeof devSecretsSchema>;

const API_KEY_ISSUER = 'lampstand';
/** Development API keys live ten years, like Supabase's demo keys. */
const DEV_KEY_LIFETIME_S = 10 * 365 * 24 * 3600;
/** A fixed `iat` keeps derived API keys identical across restarts and instances (HS256 is deterministic). */
const DERIVED_KEY_IAT = 1_735_689_600;
const PRIVATE_MEMBERS = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth']);

/** Reads the development secret from DATA_DIR, or creates it (mode 0600) on the first start. */
function loadDevSecrets(file: string): { secrets: DevSecrets; created: boolean } {
  if (existsSync(file)) {
    const parsed = devSecretsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return { secrets: parsed.data, created: false };
    throw new Error(`${file} is not a valid development secrets file; delete it to generate a new one`);
  }
  const jwtSecret = randomBytes(48).toString('base64url');
  const iat = Math.floor(Date.now() / 1000);
  const apiKey = (role: string): string =>
    signHs256(jwtSecret, { iss: API_KEY_ISSUER, role, iat, exp: iat + DEV_KEY_LIFETIME_S });
  const secrets: DevSecrets = { jwtSecret, anonKey: apiKey('anon'), serviceRoleKey: apiKey('service_role') };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { secrets, created: true };
}

function publicJwk(key: SigningJwk): JWK {
  const members = Object.entries(key).filter(([name]) => !PRIVATE_MEMBERS.has(name) && name !== 'key_ops');
  return { ...Object.fromEntries(members), use: 'sig', key_ops: ['verify'] };
}

/**
 * Resolves the signing and verification keys from AUTH_JWT_KEYS / AUTH_JWT_SECRET, or from the
 * development secret in DATA_DIR (created on first use), and the anon and service-role keys.
 */
export async function loadIdentityKeys(config: Config): Promise<IdentityKeys> {
  const configuredKeys = config.auth.jwtKeys ?? [];
  const development = config.auth.jwtSecret === undefined && configuredKeys.length === 0;
  const developmentFile = development ? path.join(config.dataDir, 'dev-secrets.json') : undefined;
  const loaded = developmentFile === undefined ? undefined : loadDevSecrets(developmentFile);
  const devSecrets = loaded?.secrets;
  const secret = devSecrets?.jwtSecret ?? config.auth.jwtSecret;
  const secretKey = secret === undefined ? undefined : await importHs256Secret(secret);

  const byKid = new Map<string, { alg: SigningAlgorithm; key: VerificationKey }>();
  for (const jwk of configuredKeys) {
    const verifying = jwk.kty === 'oct' ? jwk : publicJwk(jwk);
    byKid.set(jwk.kid, { alg: jwk.alg, key: await importJWK(verifying, jwk.alg) });
  }
  const algorithms = [...new Set<string>([...configuredKeys.map((key) => key.alg), ...(secretKey ? ['HS256'] : [])])];

  const signer = configuredKeys[0];
  // WebCrypto refuses `verify` among a private key's usages; the key's own key_ops are not needed to sign.
  const signingKey = signer ? await importJWK({ ...signer, key_ops: undefined }, signer.alg) : undefined;
  const sign = async (claims: JWTPayload): Promise<string> => {
    if (signer && signingKey) {
      return new SignJWT(claims).setProtectedHeader({ alg: signer.alg, typ: 'JWT', kid: signer.kid }).sign(signingKey);
    }
    if (secret === undefined) throw new Error('no JWT signing key is configured');
    return signHs256(secret, claims);
  };

  const resolveKey = (header: JWTHeaderParameters): VerificationKey => {
    const named = header.kid === undefined ? undefined : byKid.get(header.kid);
    if (named) {
      if (named.alg !== header.alg) throw new Error(`key ${String(header.kid)} does not sign with ${header.alg}`);
      return named.key;
    }
    if (header.alg === 'HS256' && secretKey !== undefined) return secretKey;
    throw new Error(`unrecognized JWT kid ${String(header.kid)} for algorithm ${header.alg}`);
  };

  const derivedKey = (role: string): Promise<string> => {
    const claims = { iss: API_KEY_ISSUER, role, iat: DERIVED_KEY_IAT };
    return secret === undefined ? sign(claims) : Promise.resolve(signHs256(secret, claims));
  };

  return {
    sign,
    verify: (token) => jwtVerify(token, resolveKey, { algorithms }),
    jwks: { keys: configuredKeys.filter((key) => key.kty !== 'oct').map(publicJwk) },
    anonKey: devSecrets?.anonKey ?? (await derivedKey('anon')),
    serviceRoleKey: devSecrets?.serviceRoleKey ?? (await derivedKey('service_role')),
    development,
    developmentFile,
    developmentCreated: loaded?.created ?? false,
  };
}
