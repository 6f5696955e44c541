import type { JWK } from 'jose';

/** One private JWK of AUTH_JWT_KEYS, with its algorithm resolved. */
export type SigningJwk = JWK & { kid: string; alg: SigningAlgorithm };

export const SIGNING_ALGORITHMS = ['RS256', 'RS512', 'ES256', 'ES512', 'EdDSA', 'HS256'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

function inferAlgorithm(key: Record<string, unknown>): unknown {
  if (key.alg !== undefined) return key.alg;
  if (key.kty === 'RSA') return 'RS256';
  if (key.kty === 'EC' && key.crv === 'P-256') return 'ES256';
  if (key.kty === 'EC' && key.crv === 'P-521') return 'ES512';
  if (key.kty === 'OKP' && key.crv === 'Ed25519') return 'EdDSA';
  if (key.kty === 'oct') return 'HS256';
  return undefined;
}

/** Parses AUTH_JWT_KEYS; puts the signing key first. Problems are pushed onto `problems`. */
export function parseJwtKeys(value: string, problems: string[]): SigningJwk[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    problems.push('AUTH_JWT_KEYS: must be a JSON array of JWKs');
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    problems.push('AUTH_JWT_KEYS: must be a non-empty JSON array of JWKs');
    return undefined;
  }
  const keys: SigningJwk[] = [];
  for (const [index, item] of (parsed as unknown[]).entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`AUTH_JWT_KEYS[${index}]: must be a JWK object`);
      continue;
    }
    const key = item as Record<string, unknown>;
    const alg = inferAlgorithm(key);
    if (typeof key.kid !== 'string' || key.kid === '') problems.push(`AUTH_JWT_KEYS[${index}]: needs a "kid"`);
    else if (!SIGNING_ALGORITHMS.includes(alg as SigningAlgorithm)) {
      problems.push(`AUTH_JWT_KEYS[${index}]: algorithm must be one of ${SIGNING_ALGORITHMS.join(', ')}`);
    } else if (key.kty !== 'oct' && typeof key.d !== 'string') {
      problems.push(`AUTH_JWT_KEYS[${index}]: must be a private key (with "d")`);
    } else keys.push({ ...key, kid: key.kid, alg: alg as SigningAlgorithm });
  }
  const signing = keys.filter((key) => key.key_ops?.includes('sign'));
  if (keys.length > 1 && signing.length !== 1) {
    problems.push('AUTH_JWT_KEYS: exactly one key must have "sign" in its key_ops');
    return undefined;
  }
  const signer = signing[0] ?? keys[0];
  return signer ? [signer, ...keys.filter((key) => key !== signer)] : undefined;
}
