import { IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';

/** Why a visitor reports a page: a short list, so the queue can be sorted and counted. */
export enum ReportReason {
  spam = 'spam',
  scam = 'scam',
  hate = 'hate',
  harassment = 'harassment',
  sexual = 'sexual',
  violence = 'violence',
  impersonation = 'impersonation',
  other = 'other',
}

export const REPORT_REASONS: readonly ReportReason[] = Object.values(ReportReason);

/** The longest note a visitor may add to a report, in characters. */
export const MAX_REPORT_NOTE_LENGTH = 500;

registerEnumType(ReportReason, {
  name: 'ReportReason',
  description: 'Why a visitor reports a page.',
  valuesConfig: {
    spam: { description: 'Spam or misleading links.' },
    scam: { description: 'Fraud, phishing or a scam.' },
    hate: { description: 'Hate against a group of people.' },
    harassment: { description: 'Harassment or bullying of someone.' },
    sexual: { description: 'Sexual content.' },
    violence: { description: 'Violence or threats.' },
    impersonation: { description: 'Pretends to be someone else.' },
    other: { description: 'Something else (say what in the note).' },
  },
});

@InputType({ description: "A visitor's report of a page; no account needed." })
export class ReportPageInput {
  @Field(() => String, { description: 'The username of the page, in any letter case.' })
  @IsString()
  @MaxLength(100)
  username!: string;

  @Field(() => ReportReason, { description: 'Why the page is reported.' })
  @IsEnum(ReportReason)
  reason!: ReportReason;

  @Field(() => String, {
    nullable: true,
    description: `What else the operators should know, up to ${MAX_REPORT_NOTE_LENGTH} characters.`,
  })
  @IsOptional()
  @IsString()
  @MaxLength(4 * MAX_REPORT_NOTE_LENGTH)
  note?: string | null;
}

@ObjectType({ description: "Why visitors cannot see your page: an operator's decision you cannot undo yourself." })
export class PageHoldInfo {
  @Field(() => String, { description: "The operator's reason." })
  reason!: string;

  @Field(() => Date, { nullable: true, description: 'When the page was hidden; null when only a ban holds it.' })
  since!: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the account’s suspension ends; null when not suspended.' })
  bannedUntil!: Date | null;
}
