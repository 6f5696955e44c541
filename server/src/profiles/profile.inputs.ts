import { IsBoolean, IsEnum, IsOptional, IsString, Length, Matches, MaxLength } from 'class-validator';
import { Field, InputType } from 'type-graphql';
import { MAX_NAME_LENGTH, MIN_NAME_LENGTH } from '../rules/names.js';
import { Translation } from '../verses/translation.js';
import { ButtonStyle, Layout, Theme } from './appearance.js';

@InputType({ description: 'Changes to your profile; leave out what stays the same.' })
export class UpdateProfileInput {
  @Field(() => String, {
    nullable: true,
    description: `The name shown on your page, ${MIN_NAME_LENGTH}–${MAX_NAME_LENGTH} characters.`,
  })
  @IsOptional()
  @IsString()
  @Length(MIN_NAME_LENGTH, MAX_NAME_LENGTH, {
    message: `name must be ${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} characters`,
  })
  @Matches(/\S/, { message: 'name must not be blank' })
  name?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'A few words under your name, up to 160 characters; empty removes it.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  bio?: string | null;

  @Field(() => Theme, { nullable: true, description: 'Plus-only themes need Plus.' })
  @IsOptional()
  @IsEnum(Theme)
  theme?: Theme | null;

  @Field(() => Layout, { nullable: true, description: 'Side by side (row) or stacked (column).' })
  @IsOptional()
  @IsEnum(Layout)
  layout?: Layout | null;

  @Field(() => ButtonStyle, { nullable: true, description: 'Plus-only styles need Plus.' })
  @IsOptional()
  @IsEnum(ButtonStyle)
  button?: ButtonStyle | null;

  @Field(() => Translation, { nullable: true, description: 'The translation your page shows its verse in.' })
  @IsOptional()
  @IsEnum(Translation)
  translation?: Translation | null;

  @Field(() => Boolean, { nullable: true, description: 'Show the page to visitors (together with isActive).' })
  @IsOptional()
  @IsBoolean()
  isPublic?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Keep the page switched on (together with isPublic).' })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: 'The IANA time zone your scheduled links are read in, e.g. `Europe/Oslo`.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  timeZone?: string | null;
}
