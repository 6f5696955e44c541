import { IsEnum, IsOptional, IsString } from 'class-validator';
import { ArgsType, Field, ObjectType } from 'type-graphql';
import { Translation } from '../verses/translation.js';
import { ButtonStyle, Layout, Theme } from './appearance.js';

@ObjectType({ description: 'How a profile page looks: theme, layout and button style.' })
export class Appearance {
  @Field(() => Theme, { description: 'The colours.' })
  theme!: Theme;

  @Field(() => Layout, { description: 'The arrangement.' })
  layout!: Layout;

  @Field(() => ButtonStyle, { description: 'The button shape.' })
  button!: ButtonStyle;
}

@ObjectType({ description: "A member's own profile, with every setting (only the member sees this)." })
export class Profile {
  /** Internal: the owner's id, for the field resolvers. */
  uid!: string;

  @Field(() => String, { description: 'The public address is `/@username`. Always lower case.' })
  username!: string;

  @Field(() => String, { description: 'The name shown on the page.' })
  name!: string;

  @Field(() => String, { description: 'A few words under the name, up to 160 characters; empty for none.' })
  bio!: string;

  @Field(() => Theme, { description: "The member's chosen theme (kept even when Plus ends)." })
  theme!: Theme;

  @Field(() => Layout, { description: "The member's chosen layout." })
  layout!: Layout;

  @Field(() => ButtonStyle, { description: "The member's chosen button style (kept even when Plus ends)." })
  button!: ButtonStyle;

  @Field(() => Boolean, { description: 'An inactive profile is hidden from everyone but its owner.' })
  isActive!: boolean;

  @Field(() => Boolean, { description: 'A private profile is hidden from everyone but its owner.' })
  isPublic!: boolean;

  @Field(() => Boolean, { description: 'True once the member has finished the welcome screen.' })
  welcome!: boolean;

  @Field(() => Boolean, { description: 'True when a Plus member pinned a verse instead of the verse of the day.' })
  versePinned!: boolean;

  @Field(() => Translation, {
    description: 'The translation your page shows its verse in, unless a visitor picks one.',
  })
  translation!: Translation;

  @Field(() => Date, { description: 'When the profile was created.' })
  joined!: Date;

  @Field(() => String, {
    nullable: true,
    description: 'The IANA time zone your scheduled links are read in, e.g. `Europe/Oslo`; null until chosen (UTC).',
  })
  timeZone!: string | null;
}

@ObjectType({ description: 'A profile as visitors and third-party clients see it. Never carries private fields.' })
export class PublicProfile {
  uid!: string;

  /** Internal: the zone the page's scheduled links are read in (null: UTC). */
  timeZone!: string | null;

  @Field(() => String, { description: 'The public address is `/@username`.' })
  username!: string;

  @Field(() => String, { description: 'The name shown on the page.' })
  name!: string;

  @Field(() => String, { description: 'A few words under the name, up to 160 characters; empty for none.' })
  bio!: string;

  @Field(() => Appearance, {
    description: "The page's look as rendered: Plus-only choices show as the defaults when the owner has no Plus.",
  })
  appearance!: Appearance;

  @Field(() => Boolean, { description: 'The owner has Plus (the page shows a Plus badge).' })
  plus!: boolean;

  @Field(() => Boolean, {
    description: 'The page shows a verse its owner chose (Plus) instead of the verse of the day.',
  })
  versePinned!: boolean;

  @Field(() => Translation, {
    description: "The translation the page's verse is shown in unless the reader picks one.",
  })
  translation!: Translation;

  @Field(() => Date, { description: 'When the member joined.' })
  joined!: Date;
}

/** The day a profile's `verse` is asked for, on the member's own profile and on the public one. */
@ArgsType()
export class VerseDayArgs {
  @Field(() => String, { nullable: true, description: 'An ISO date, `YYYY-MM-DD`.' })
  @IsOptional()
  @IsString()
  date?: string | null;

  @Field(() => String, { nullable: true, description: "The viewer's IANA time zone, e.g. `Europe/Oslo`." })
  @IsOptional()
  @IsString()
  timeZone?: string | null;

  @Field(() => Translation, {
    nullable: true,
    description: "The reader's translation; the member's chosen one when left out.",
  })
  @IsOptional()
  @IsEnum(Translation)
  translation?: Translation | null;
}
