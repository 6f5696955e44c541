import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const KEY_BYTES = 32;
/** Stored secrets start with a version, so that another scheme or key can be told apart later. */
const VERSION = 'v1';

/** Encrypts and decrypts TOTP secrets at rest; the factor id is bound in as associated data. */
export interface FactorSecrets {
  encrypt(factorId: string, secret: string): string;
  decrypt(factorId: string, stored: string): string;
}

/** Reads the development key from DATA_DIR, or makes it (mode 0600) on the first start. */
function developmentKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'dev-mfa-key');
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    if (key.length === KEY_BYTES) return key;
    throw new Error(`${file} is not a valid development MFA key; delete it (enrolled factors then stop working)`);
  }
  const key = randomBytes(KEY_BYTES);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key.toString('base64url')}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/**
 * AES-256-GCM with AUTH_MFA_ENCRYPTION_KEY, or with a development key kept in DATA_DIR when it is
 * not set (production refuses that). A stored secret reads `v1:<iv>:<ciphertext>:<tag>` (base64url).
 */
export function factorSecrets(config: Config): FactorSecrets {
  const key = config.auth.mfa.encryptionKey ?? developmentKey(config.dataDir);
  return {
    encrypt(factorId, secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      cipher.setAAD(Buffer.from(factorId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'));
      return [VERSION, ...parts].join(':');
    },
    decrypt(factorId, stored) {
      const [version, iv, ciphertext, tag] = stored.split(':');
      if (version !== VERSION || iv === undefined || ciphertext === undefined || tag === undefined) {
        throw new Error('unrecognised encrypted factor secret');
      }
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(factorId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
