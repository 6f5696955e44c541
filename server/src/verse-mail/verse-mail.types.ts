import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Field, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Your choice about the verse of the day by mail.' })
export class VerseMailSettings {
  @Field(() => Boolean, { description: 'True when the verse is mailed to you each day.' })
  enabled!: boolean;

  @Field(() => Int, { nullable: true, description: 'The hour (0–23) it arrives, in `timeZone`; null when off.' })
  hour!: number | null;

  @Field(() => String, { nullable: true, description: 'The IANA time zone of `hour`; null when off.' })
  timeZone!: string | null;
}

@InputType({ description: 'When the verse of the day should reach you.' })
export class VerseMailInput {
  @Field(() => Int, { description: 'The hour, 0–23, in `timeZone` (7 for seven in the morning).' })
  @IsInt()
  @Min(0, { message: 'hour must be 0 to 23' })
  @Max(23, { message: 'hour must be 0 to 23' })
  hour!: number;

  @Field(() => String, { description: 'Your IANA time zone, e.g. `Europe/Oslo`.' })
  @IsString()
  @MaxLength(64)
  timeZone!: string;
}
