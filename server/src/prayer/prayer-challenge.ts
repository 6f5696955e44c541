import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import type { DataSource } from 'typeorm';
import type { Config } from '../config.js';
import { isUniqueViolation } from '../db/errors.js';
import { PrayerChallengeRecord } from './prayer.entities.js';

/** How long a visitor has to send the form after opening it. */
const CHALLENGE_LIFETIME_MS = 30 * 60_000;
/**
 * The highest number the browser may have to try: about a second of hashing on a phone, nothing
 * to a person, a real cost to a script sending thousands.
 */
export const DEFAULT_CHALLENGE_MAX = 50_000;

/** A signed challenge as the browser's solver takes it (altcha's v1 shape). */
export interface IssuedChallenge {
  algorithm: string;
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/**
 * The HMAC key of the challenges: derived from a secret the server already keeps (the MFA
 * encryption key, which production requires, or the JWT secret), so every instance agrees without
 * another setting; on a development machine with neither, a key kept in DATA_DIR (made on first use).
 */
export function challengeKey(config: Config): string {
  const root = config.auth.mfa.encryptionKey ?? config.auth.jwtSecret ?? developmentKey(config.dataDir);
  return createHmac('sha256', root).update('lampstand prayer-request challenge').digest('base64url');
}

function developmentKey(dataDir: string): string {
  const file = path.join(dataDir, 'dev-prayer-challenge-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const key = randomBytes(32).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/** What a payload says, once it parses (base64 JSON, as altcha's widget sends it). */
function parsePayload(payload: string): { challenge: string } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || !('challenge' in parsed)) return null;
    return typeof parsed.challenge === 'string' ? { challenge: parsed.challenge } : null;
  } catch {
    return null;
  }
}

/**
 * Issues and checks the proof-of-work challenges of the prayer form; each solution counts once.
 * Real time, not a feature clock: altcha checks a challenge's expiry against the real one.
 */
export class PrayerChallenges {
  constructor(
    private readonly dataSource: DataSource,
    private readonly hmacKey: string,
    private readonly maxNumber = DEFAULT_CHALLENGE_MAX,
  ) {}

  async issue(): Promise<IssuedChallenge> {
    const challenge = await createChallenge({
      hmacKey: this.hmacKey,
      maxnumber: this.maxNumber,
      expires: new Date(Date.now() + CHALLENGE_LIFETIME_MS),
    });
    return { ...challenge, maxnumber: this.maxNumber };
  }

  /**
   * True when `payload` solves a challenge this server signed, not yet expired and never spent
   * before; spends it. False for anything else (a forged, expired, malformed or reused solution).
   */
  async spend(payload: string): Promise<boolean> {
    const parsed = parsePayload(payload);
    if (!parsed || !/^[0-9a-f]{64}$/.test(parsed.challenge)) return false;
    if (!(await verifySolution(payload, this.hmacKey, true))) return false;
    const record = Object.assign(new PrayerChallengeRecord(), {
      challenge: createHash('sha256').update(parsed.challenge).digest('hex'),
      expiresAt: new Date(Date.now() + CHALLENGE_LIFETIME_MS),
    });
    try {
      // A plain INSERT: the primary key lets exactly one sender spend a challenge, on any instance.
      await this.dataSource.getRepository(PrayerChallengeRecord).insert(record);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Forgets spent challenges whose time is over (their signatures are refused as expired anyway). */
  async prune(): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(PrayerChallengeRecord)
      .where('expires_at < :now', { now: Date.now() - CHALLENGE_LIFETIME_MS })
      .execute();
  }
}
