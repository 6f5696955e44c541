import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { epochMs } from '../../db/columns.js';

/**
 * What a PKCE flow signs in with once its code is exchanged, as Supabase Auth names it (the token's
 * `amr` method): `email/signup`, `recovery`, `magiclink`, `email_change`, `invite`.
 */
export type FlowMethod = 'email/signup' | 'recovery' | 'magiclink' | 'email_change' | 'invite';

/** How the code verifier is compared with the stored challenge (RFC 7636). */
export type ChallengeMethod = 's256' | 'plain';

/**
 * A PKCE flow started by a request that sends a link (Supabase Auth's `flow_state`): the client's
 * code challenge, and the code the followed link hands back for `grant_type=pkce`.
 */
@Entity({ name: 'auth_flow_states' })
@Index('auth_flow_states_user_method_idx', ['userId', 'authenticationMethod'])
export class AuthFlowStateRecord {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId!: string;

  // Named, not imported: entities.ts lists this entity, and an import back would be a cycle.
  @ManyToOne('AuthUserRecord', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: unknown;

  /** The SHA-256 of the code the link hands out; the code itself is never stored. */
  @Index('auth_flow_states_auth_code_key', { unique: true })
  @Column({ name: 'auth_code_hash', type: 'varchar', length: 64 })
  authCodeHash!: string;

  @Column({ name: 'code_challenge', type: 'varchar', length: 128 })
  codeChallenge!: string;

  @Column({ name: 'code_challenge_method', type: 'varchar', length: 8 })
  codeChallengeMethod!: ChallengeMethod;

  @Column({ name: 'authentication_method', type: 'varchar', length: 32 })
  authenticationMethod!: FlowMethod;

  /** When a followed link handed the code out; until then the code cannot be exchanged. */
  @Column({ name: 'auth_code_issued_at', type: 'bigint', nullable: true, transformer: epochMs })
  authCodeIssuedAt!: Date | null;

  @Index('auth_flow_states_created_at_idx')
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs })
  createdAt!: Date;
}
