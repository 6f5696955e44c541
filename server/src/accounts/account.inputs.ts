import { IsEmail, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { Field, InputType } from 'type-graphql';
import { MAX_NAME_LENGTH, MIN_NAME_LENGTH } from '../rules/names.js';
import { MAX_EMAIL_LENGTH, MAX_PLATFORM_ID_LENGTH, MINIMUM_AGE_YEARS, PLATFORM_PATTERN } from '../rules/signup.js';

const EMAIL_MESSAGE = 'email must be a valid email address';

@InputType({ description: 'A new account: its identity and the user record the original kept.' })
export class SignUpInput {
  @Field(() => String, { description: 'The email address to sign in with.' })
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(MAX_EMAIL_LENGTH)
  email!: string;

  @Field(() => String, { description: 'At least 8 characters, at most 72 bytes, not a common password.' })
  @IsString()
  password!: string;

  @Field(() => String, {
    description: `First name, ${MIN_NAME_LENGTH}–${MAX_NAME_LENGTH} characters. The profile name starts as this.`,
  })
  @IsString()
  @Length(MIN_NAME_LENGTH, MAX_NAME_LENGTH, {
    message: `first must be ${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} characters`,
  })
  @Matches(/\S/, { message: 'first must not be blank' })
  first!: string;

  @Field(() => String, {
    nullable: true,
    description: `Birthday as an ISO date, \`YYYY-MM-DD\`; you must be at least ${MINIMUM_AGE_YEARS}.`,
  })
  @IsOptional()
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'birthday must be written as YYYY-MM-DD' })
  birthday?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The username for the page at `/@username` (3–30 of `[a-z0-9_.]`, as `changeUsername` takes); one is generated when it is empty or left out.',
  })
  @IsOptional()
  @IsString()
  username?: string | null;

  @Field(() => String, { description: 'The kind of client: `web`, `ios`, `android`, `api`, …' })
  @Matches(PLATFORM_PATTERN, {
    message: 'platform must be 1–32 lowercase letters, digits, dashes or underscores',
  })
  platform!: string;

  @Field(() => String, { nullable: true, description: "The client's own identifier for the install or app." })
  @IsOptional()
  @IsString()
  @Length(1, MAX_PLATFORM_ID_LENGTH, { message: `platformID must be 1 to ${MAX_PLATFORM_ID_LENGTH} characters` })
  platformID?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "Your IANA time zone, so that your page's first verse is dated on your day.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timeZone?: string | null;
}

@InputType({ description: 'Email and password of an account.' })
export class LoginInput {
  @Field(() => String, { description: 'The email address of the account (any letter case).' })
  @IsString()
  @MaxLength(MAX_EMAIL_LENGTH)
  email!: string;

  @Field(() => String, { description: 'Its password.' })
  @IsString()
  @MaxLength(1024)
  password!: string;
}

@InputType({ description: 'A new password, with the code or link token from the reset email.' })
export class ResetPasswordInput {
  @Field(() => String, {
    description: "The emailed link's `token_hash`, or the 6-digit code from the email (then give `email` too).",
  })
  @IsString()
  @Length(6, 256)
  token!: string;

  @Field(() => String, { nullable: true, description: 'The address the code was sent to (only with a code).' })
  @IsOptional()
  @IsEmail({}, { message: EMAIL_MESSAGE })
  email?: string | null;

  @Field(() => String, { description: 'At least 8 characters, at most 72 bytes, not a common password.' })
  @IsString()
  newPassword!: string;
}

@InputType({ description: 'A password change: the current password proves it is you.' })
export class ChangePasswordInput {
  @Field(() => String, { description: 'The password you sign in with now.' })
  @IsString()
  @MaxLength(1024)
  currentPassword!: string;

  @Field(() => String, { description: 'At least 8 characters, at most 72 bytes, not a common password.' })
  @IsString()
  newPassword!: string;

  @Field(() => String, {
    nullable: true,
    description:
      "This session's refresh token. With it, the answer is this session renewed at the level it has (one that " +
      'passed two-factor sign-in stays so); without it, a new session, which asks for the code again.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  refreshToken?: string | null;
}

@InputType({ description: 'The 6-digit code from a sign-in email, and the address it was sent to.' })
export class EmailCodeInput {
  @Field(() => String, { description: 'The address the code was sent to (any letter case).' })
  @IsEmail({}, { message: EMAIL_MESSAGE })
  @MaxLength(MAX_EMAIL_LENGTH)
  email!: string;

  @Field(() => String, { description: 'The 6-digit code from the email.' })
  @Matches(/^\s*\d{6}\s*$/, { message: 'code must be the 6 digits from the email' })
  code!: string;
}
