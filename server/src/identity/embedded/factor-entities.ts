import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { epochMs } from '../../db/columns.js';
import type { AuthUserRecord } from './entities.js';

/** Whether a factor has been confirmed with a code (Supabase Auth's factor states). */
export type FactorStatus = 'unverified' | 'verified';

/** A second factor of a user (Supabase Auth's `auth.mfa_factors`): TOTP or WebAuthn (a passkey). */
@Entity({ name: 'auth_mfa_factors' })
export class AuthFactorRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Index('auth_mfa_factors_user_id_idx')
  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId!: string;

  @ManyToOne('AuthUserRecord', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: AuthUserRecord;

  @Column({ name: 'friendly_name', type: 'varchar', length: 255, default: '' })
  friendlyName!: string;

  @Column({ name: 'factor_type', type: 'varchar', length: 16 })
  factorType!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: FactorStatus;

  /** The TOTP secret, AES-256-GCM encrypted with AUTH_MFA_ENCRYPTION_KEY (see factor-secrets.ts); '' for WebAuthn. */
  @Column({ type: 'text' })
  secret!: string;

  /** The 30-second step of the last code accepted: that code and older ones are refused from then on. */
  @Column({ name: 'last_used_step', type: 'integer', nullable: true })
  lastUsedStep!: number | null;

  @Column({ name: 'last_challenged_at', type: 'bigint', nullable: true, transformer: epochMs })
  lastChallengedAt!: Date | null;

  /** A WebAuthn factor's credential id (base64url), once registered: how a passkey sign-in finds it. */
  @Index('auth_mfa_factors_web_authn_credential_id_key', { unique: true })
  @Column({ name: 'web_authn_credential_id', type: 'varchar', length: 512, nullable: true })
  webAuthnCredentialId!: string | null;

  /** A WebAuthn factor's public key and signature counter (JSON, see webauthn.ts); null for TOTP. */
  @Column({ name: 'web_authn_credential', type: 'text', nullable: true })
  webAuthnCredential!: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs })
  updatedAt!: Date;
}

/** A challenge of a factor: the code that answers it must come from the same address, within its lifetime. */
@Entity({ name: 'auth_mfa_challenges' })
export class AuthChallengeRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Index('auth_mfa_challenges_factor_id_idx')
  @Column({ name: 'factor_id', type: 'varchar', length: 36 })
  factorId!: string;

  @ManyToOne(() => AuthFactorRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'factor_id' })
  factor?: AuthFactorRecord;

  @Column({ name: 'ip_address', type: 'varchar', length: 64 })
  ipAddress!: string;

  @Column({ name: 'verified_at', type: 'bigint', nullable: true, transformer: epochMs })
  verifiedAt!: Date | null;

  /** A WebAuthn challenge's ceremony (JSON: type, challenge, relying party id and origins); null for TOTP. */
  @Column({ name: 'web_authn_session_data', type: 'text', nullable: true })
  webAuthnSessionData!: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;
}

/**
 * A challenge of a passkey sign-in (the extension `/passkeys/authentication/*`): not tied to a
 * user until a credential answers it; used once.
 */
@Entity({ name: 'auth_passkey_challenges' })
export class AuthPasskeyChallengeRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** The challenge the authenticator signs (base64url). */
  @Column({ type: 'varchar', length: 128 })
  challenge!: string;

  @Column({ name: 'ip_address', type: 'varchar', length: 64 })
  ipAddress!: string;

  @Column({ name: 'used_at', type: 'bigint', nullable: true, transformer: epochMs })
  usedAt!: Date | null;

  @Index('auth_passkey_challenges_created_at_idx')
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;
}

/**
 * A recovery code of a user (an extension, not in Supabase Auth): the SHA-256 of a code of 80
 * random bits, usable once in place of a second factor. A new set replaces the old one.
 */
@Entity({ name: 'auth_recovery_codes' })
export class AuthRecoveryCodeRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Index('auth_recovery_codes_user_id_idx')
  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId!: string;

  @ManyToOne('AuthUserRecord', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: AuthUserRecord;

  /** Hex SHA-256 of the code without separators, in upper case. */
  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash!: string;

  @Column({ name: 'used_at', type: 'bigint', nullable: true, transformer: epochMs })
  usedAt!: Date | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;
}

/** A factor as Supabase Auth's API shows it (in the user object and the admin listing); never its secret. */
export function factorJson(factor: AuthFactorRecord): Record<string, unknown> {
  return {
    id: factor.id,
    friendly_name: factor.friendlyName === '' ? undefined : factor.friendlyName,
    factor_type: factor.factorType,
    status: factor.status,
    created_at: factor.createdAt.toISOString(),
    updated_at: factor.updatedAt.toISOString(),
    last_challenged_at: factor.lastChallengedAt?.toISOString() ?? null,
  };
}
