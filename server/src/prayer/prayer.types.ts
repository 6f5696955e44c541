import { IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength } from 'class-validator';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import {
  MAX_PRAYER_FIRST_NAME_LENGTH,
  MAX_PRAYER_PROMPT_LENGTH,
  MAX_PRAYER_REPLY_LENGTH,
  MAX_PRAYER_REQUEST_LENGTH,
  PRAYER_RETENTION_DAYS,
} from '../rules/prayer.js';

// Inputs allow a few times the limit in UTF-16 units: the service counts characters and refuses
// longer text with a message that says the limit, rather than a bare shape error.

@ObjectType({ description: 'Your prayer-request button and how you hear of new requests.' })
export class PrayerSettings {
  @Field(() => Boolean, { description: 'Visitors see "Send a prayer request" on your page.' })
  enabled!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Your own words over the form (Plus); null for the standard ones.',
  })
  prompt!: string | null;

  @Field(() => Boolean, { description: 'One mail a day about new requests (Plus) instead of at most one an hour.' })
  dailyDigest!: boolean;

  @Field(() => Int, { description: 'Requests are deleted this many days after they arrive: 30, 90 or 365.' })
  retentionDays!: number;
}

@InputType({ description: 'Your choices for prayer requests.' })
export class PrayerSettingsInput {
  @Field(() => Boolean, { description: 'Show "Send a prayer request" on your page.' })
  @IsBoolean()
  enabled!: boolean;

  @Field(() => String, {
    nullable: true,
    description: `Your own words over the form, up to ${String(MAX_PRAYER_PROMPT_LENGTH)} characters (Plus); empty or null for the standard ones.`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(4 * MAX_PRAYER_PROMPT_LENGTH)
  prompt?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'One mail a day instead of at most one an hour (Plus).' })
  @IsOptional()
  @IsBoolean()
  dailyDigest?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Days to keep requests: 30, 90 or 365; 90 when left out.' })
  @IsOptional()
  @IsInt()
  @IsIn([...PRAYER_RETENTION_DAYS])
  retentionDays?: number | null;
}

@ObjectType({ description: 'A prayer request in your inbox. Only you see it; the sender’s address is never shown.' })
export class PrayerRequest {
  @Field(() => ID, { description: 'The request’s id.' })
  id!: string;

  @Field(() => String, { description: 'What the visitor asked, as they wrote it.' })
  body!: string;

  @Field(() => String, { nullable: true, description: 'The first name the visitor gave, if any.' })
  firstName!: string | null;

  @Field(() => Boolean, { description: 'The visitor asked that it stay between you and them.' })
  keepPrivate!: boolean;

  @Field(() => Date, { description: 'When it arrived.' })
  createdAt!: Date;

  @Field(() => Boolean, { description: 'You have opened your inbox since it arrived.' })
  read!: boolean;

  @Field(() => Date, { nullable: true, description: 'When you marked it as prayed for; null until then.' })
  prayedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When you last replied; null if you have not.' })
  repliedAt!: Date | null;

  @Field(() => Boolean, {
    description: 'The visitor left an address, so you can reply through Lampstand (the address itself is never shown).',
  })
  canReply!: boolean;
}

@ObjectType({ description: 'A page’s prayer-request button, as visitors see it.' })
export class PrayerButton {
  @Field(() => String, { description: 'The words over the form.' })
  prompt!: string;
}

@ObjectType({
  description:
    'A small puzzle the browser solves before sending a prayer request (altcha, SHA-256): it costs a person a moment and a sender of thousands a lot. Signed by the server; each solution is accepted once.',
})
export class PrayerChallenge {
  @Field(() => String, { description: 'The hash algorithm, `SHA-256`.' })
  algorithm!: string;

  @Field(() => String, { description: 'The hash to find.' })
  challenge!: string;

  @Field(() => Int, { description: 'The highest number the solver needs to try.' })
  maxnumber!: number;

  @Field(() => String, { description: 'The salt, with its expiry.' })
  salt!: string;

  @Field(() => String, { description: "The server's signature of the challenge." })
  signature!: string;
}

@InputType({ description: "A visitor's prayer request to a member; no account needed." })
export class SendPrayerRequestInput {
  @Field(() => String, { description: 'The username of the page.' })
  @IsString()
  @MaxLength(100)
  username!: string;

  @Field(() => String, {
    description: `What to pray for, up to ${String(MAX_PRAYER_REQUEST_LENGTH)} characters (longer is refused, never cut).`,
  })
  @IsString()
  @MaxLength(4 * MAX_PRAYER_REQUEST_LENGTH)
  body!: string;

  @Field(() => String, { nullable: true, description: 'A first name, if the visitor wants to give one.' })
  @IsOptional()
  @IsString()
  @MaxLength(4 * MAX_PRAYER_FIRST_NAME_LENGTH)
  firstName?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'An address for the member’s reply; the member never sees it.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  replyTo?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Ask that it stay with the member alone.' })
  @IsOptional()
  @IsBoolean()
  keepPrivate?: boolean | null;

  @Field(() => String, {
    description: 'The solved `prayerChallenge`: altcha’s payload (base64 JSON).',
  })
  @IsString()
  @MaxLength(2000)
  proof!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Leave empty. (A field people never see: a form that fills it is not sent by a person.)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  website?: string | null;
}

@InputType({ description: 'Your reply to a prayer request, sent by mail to the address the visitor left.' })
export class PrayerReplyInput {
  @Field(() => ID, { description: 'The id of the request you are answering.' })
  @IsString()
  @MaxLength(36)
  id!: string;

  @Field(() => String, { description: `Your words, up to ${String(MAX_PRAYER_REPLY_LENGTH)} characters.` })
  @IsString()
  @MaxLength(4 * MAX_PRAYER_REPLY_LENGTH)
  message!: string;
}
