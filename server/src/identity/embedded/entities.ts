import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { epochMs } from '../../db/columns.js';
import {
  AuthChallengeRecord,
  AuthFactorRecord,
  AuthPasskeyChallengeRecord,
  AuthRecoveryCodeRecord,
} from './factor-entities.js';
import { AuthFlowStateRecord } from './flow-state.entity.js';

/** An authentication method recorded on a session (`amr` claim). */
export interface AmrEntry {
  method: string;
  timestamp: number;
}

/** A user account of the embedded identity service (Supabase Auth's `auth.users`). */
@Entity({ name: 'auth_users' })
export class AuthUserRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 255 })
  aud!: string;

  @Column({ type: 'varchar', length: 255 })
  role!: string;

  @Index('auth_users_email_key', { unique: true })
  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @Column({ name: 'encrypted_password', type: 'varchar', length: 255, nullable: true })
  encryptedPassword!: string | null;

  @Column({ name: 'email_confirmed_at', type: 'bigint', nullable: true, transformer: epochMs })
  emailConfirmedAt!: Date | null;

  @Column({ name: 'invited_at', type: 'bigint', nullable: true, transformer: epochMs })
  invitedAt!: Date | null;

  @Column({ name: 'confirmation_sent_at', type: 'bigint', nullable: true, transformer: epochMs })
  confirmationSentAt!: Date | null;

  @Column({ name: 'recovery_sent_at', type: 'bigint', nullable: true, transformer: epochMs })
  recoverySentAt!: Date | null;

  /** The pending new address of an email change (`new_email` in the API). */
  @Column({ name: 'email_change', type: 'varchar', length: 255, nullable: true })
  emailChange!: string | null;

  @Column({ name: 'email_change_sent_at', type: 'bigint', nullable: true, transformer: epochMs })
  emailChangeSentAt!: Date | null;

  /** How many of the two links of a secure email change were followed (0 or 1). */
  @Column({ name: 'email_change_confirm_status', type: 'integer', default: 0 })
  emailChangeConfirmStatus!: number;

  @Column({ name: 'last_sign_in_at', type: 'bigint', nullable: true, transformer: epochMs })
  lastSignInAt!: Date | null;

  @Column({ name: 'app_metadata', type: 'simple-json' })
  appMetadata!: Record<string, unknown>;

  @Column({ name: 'user_metadata', type: 'simple-json' })
  userMetadata!: Record<string, unknown>;

  @Column({ name: 'banned_until', type: 'bigint', nullable: true, transformer: epochMs })
  bannedUntil!: Date | null;

  @Column({ name: 'deleted_at', type: 'bigint', nullable: true, transformer: epochMs })
  deletedAt!: Date | null;

  @Column({ name: 'is_anonymous', type: 'boolean', default: false })
  isAnonymous!: boolean;

  @Index('auth_users_created_at_idx')
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs })
  updatedAt!: Date;
}

/** A sign-in identity of a user; email/password users have one `email` identity. */
@Entity({ name: 'auth_identities' })
@Index('auth_identities_provider_key', ['providerId', 'provider'], { unique: true })
export class AuthIdentityRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** The provider's id of the account; for `email` it is the user id. */
  @Column({ name: 'provider_id', type: 'varchar', length: 255 })
  providerId!: string;

  @Index('auth_identities_user_id_idx')
  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId!: string;

  @ManyToOne(() => AuthUserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: AuthUserRecord;

  @Column({ type: 'varchar', length: 32 })
  provider!: string;

  @Column({ name: 'identity_data', type: 'simple-json' })
  identityData!: Record<string, unknown>;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email!: string | null;

  @Column({ name: 'last_sign_in_at', type: 'bigint', nullable: true, transformer: epochMs })
  lastSignInAt!: Date | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs })
  updatedAt!: Date;
}

/** A signed-in session; access tokens name it in `session_id` and die with it. */
@Entity({ name: 'auth_sessions' })
export class AuthSessionRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Index('auth_sessions_user_id_idx')
  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId!: string;

  @ManyToOne(() => AuthUserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: AuthUserRecord;

  @Column({ type: 'varchar', length: 8 })
  aal!: string;

  @Column({ type: 'simple-json' })
  amr!: AmrEntry[];

  /** The factor that raised the session to aal2; removing it lowers the session again. */
  @Column({ name: 'factor_id', type: 'varchar', length: 36, nullable: true })
  factorId!: string | null;

  @Column({ name: 'user_agent', type: 'varchar', length: 512, nullable: true })
  userAgent!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ip!: string | null;

  @Column({ name: 'refreshed_at', type: 'bigint', nullable: true, transformer: epochMs })
  refreshedAt!: Date | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs })
  updatedAt!: Date;
}

/** A refresh token of a session, stored as its SHA-256; rotation links each to its parent. */
@Entity({ name: 'auth_refresh_tokens' })
export class AuthRefreshTokenRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Index('auth_refresh_tokens_token_hash_key', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ name: 'parent_hash', type: 'varchar', length: 64, nullable: true })
  parentHash!: string | null;

  @Index('auth_refresh_tokens_session_id_idx')
  @Column({ name: 'session_id', type: 'varchar', length: 36 })
  sessionId!: string;

  @ManyToOne(() => AuthSessionRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: AuthSessionRecord;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId!: string;

  @Column({ type: 'boolean', default: false })
  revoked!: boolean;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs })
  updatedAt!: Date;
}

/** What a one-time token confirms. */
export type OneTimeTokenType =
  | 'confirmation_token'
  | 'recovery_token'
  | 'email_change_token_current'
  | 'email_change_token_new'
  | 'reauthentication_token';

/** An emailed link or code (confirmation, recovery, email change), stored as the SHA-256 of its token hash. */
@Entity({ name: 'auth_one_time_tokens' })
@Index('auth_one_time_tokens_user_type_key', ['userId', 'tokenType'], { unique: true })
export class AuthOneTimeTokenRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId!: string;

  @ManyToOne(() => AuthUserRecord, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: AuthUserRecord;

  @Column({ name: 'token_type', type: 'varchar', length: 32 })
  tokenType!: OneTimeTokenType;

  @Index('auth_one_time_tokens_token_hash_idx')
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  /** The address the token was sent to. */
  @Column({ name: 'relates_to', type: 'varchar', length: 255 })
  relatesTo!: string;

  /**
   * The SHA-256 of the SHA-224 of address + code, checked only against tries already counted in
   * `attempts`. Null on tokens stored before the link token stopped being derived from the code,
   * whose `tokenHash` holds this value.
   */
  @Column({ name: 'code_hash', type: 'varchar', length: 64, nullable: true })
  codeHash!: string | null;

  /** Tries at the code so far, right or wrong: at the limit the code and its link stop working. */
  @Column({ name: 'attempts', type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;
}

/** Every entity of the embedded identity service. */
export const identityEntities = [
  AuthUserRecord,
  AuthIdentityRecord,
  AuthSessionRecord,
  AuthRefreshTokenRecord,
  AuthOneTimeTokenRecord,
  AuthFactorRecord,
  AuthChallengeRecord,
  AuthPasskeyChallengeRecord,
  AuthRecoveryCodeRecord,
  AuthFlowStateRecord,
];
