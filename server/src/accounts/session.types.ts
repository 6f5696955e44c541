import { Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Member } from './account.types.js';

@ObjectType({ description: 'A signed-in session. Send `accessToken` as `Authorization: Bearer …`.' })
export class Session {
  @Field(() => String, { description: 'A short-lived JWT for the Authorization header.' })
  accessToken!: string;

  @Field(() => String, { description: 'Exchanges for a new session once, through refreshSession.' })
  refreshToken!: string;

  @Field(() => Date, { description: 'When the access token stops working; refresh before then.' })
  expiresAt!: Date;

  @Field(() => Int, { description: 'Seconds the access token was valid for when issued.' })
  expiresIn!: number;

  @Field(() => Boolean, {
    description:
      'True when the member has two-factor sign-in on and this session has not passed it yet: ask for the ' +
      'code from their authenticator app and send it to `verifyMfa`. Until then account changes answer `MFA_REQUIRED`.',
  })
  mfaRequired!: boolean;
}

@ObjectType({ description: 'A session together with the member it belongs to.' })
export class AuthPayload {
  @Field(() => Session, { description: 'The new session.' })
  session!: Session;

  @Field(() => Member, {
    nullable: true,
    description:
      'The signed-in member; null while `session.mfaRequired` is true (a password alone reads nothing private): ' +
      'read `me` after `verifyMfa`.',
  })
  member!: Member | null;
}

@ObjectType({ description: 'The outcome of signing up.' })
export class SignUpPayload {
  @Field(() => Session, { nullable: true, description: 'Null while the email address awaits confirmation.' })
  session!: Session | null;

  @Field(() => Member, { nullable: true, description: 'Null while the email address awaits confirmation.' })
  member!: Member | null;

  @Field(() => Boolean, { description: 'True when a confirmation link was emailed; sign in after following it.' })
  confirmationSent!: boolean;
}

@ObjectType({ description: 'A request that was accepted, with a message to show.' })
export class Notice {
  @Field(() => String, { description: 'What to tell the person, e.g. "Please check your inbox."' })
  message!: string;
}

export enum LogoutScope {
  local = 'local',
  others = 'others',
  global = 'global',
}

registerEnumType(LogoutScope, {
  name: 'LogoutScope',
  description: 'Which sessions to end.',
  valuesConfig: {
    local: { description: 'This session only.' },
    others: { description: 'Every other session; this one stays.' },
    global: { description: 'Every session of the account.' },
  },
});

@ObjectType({ description: 'An email change waiting for confirmation.' })
export class EmailChangePayload {
  @Field(() => String, { description: 'The address that becomes yours once confirmed.' })
  pendingEmail!: string;

  @Field(() => String, { description: 'What to tell the person.' })
  message!: string;
}
