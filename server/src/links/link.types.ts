import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: "A link on a member's page, shown as a button." })
export class Link {
  @Field(() => ID, { description: 'The link, for updateLink, removeLink, reorderLinks and `/l/<id>`.' })
  id!: string;

  @Field(() => String, { description: 'The words on the button, 1–80 characters.' })
  title!: string;

  @Field(() => String, { description: 'Where the button goes: an `https:`, `http:`, `mailto:` or `tel:` address.' })
  url!: string;

  @Field(() => String, {
    description:
      'The icon the button shows: a platform (`youtube`, `instagram`, `x`, `spotify`, `applepodcasts`, `whatsapp`…), or `email`, `phone` or `link`. Drawn from `/icons/<icon>.svg`.',
  })
  icon!: string;

  @Field(() => Boolean, { description: 'Hidden links are kept and shown only to their owner.' })
  hidden!: boolean;

  @Field(() => String, {
    nullable: true,
    description:
      "Plus: the link shows from this time (`YYYY-MM-DDTHH:mm`, wall clock in the page's `timeZone`). Only its owner sees it; null for none.",
  })
  visibleFrom!: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Plus: the link shows until this time (`YYYY-MM-DDTHH:mm` in the page's `timeZone`, not included). Only its owner sees it; null for none.",
  })
  visibleUntil!: string | null;

  @Field(() => Boolean, {
    description:
      'Plus: the page draws this link prominently (at most one per page). Visitors see it only while the owner has Plus; the owner sees their choice, kept when Plus ends.',
  })
  highlighted!: boolean;
}

@InputType({ description: 'A new link.' })
export class LinkInput {
  @Field(() => String, { description: 'The words on the button, 1–80 characters after trimming.' })
  @IsString()
  @MaxLength(400)
  title!: string;

  @Field(() => String, {
    description:
      'An `https:`, `http:`, `mailto:` or `tel:` address, up to 2,048 characters; `example.com` means `https://example.com/`.',
  })
  @IsString()
  @MaxLength(4096)
  url!: string;

  @Field(() => Boolean, { nullable: true, description: 'Add it hidden (default false).' })
  @IsOptional()
  @IsBoolean()
  hidden?: boolean | null;
}

@InputType({ description: 'Changes to a link; leave out what stays the same.' })
export class UpdateLinkInput {
  @Field(() => String, { nullable: true, description: 'New words on the button, 1–80 characters after trimming.' })
  @IsOptional()
  @IsString()
  @MaxLength(400)
  title?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'A new `https:`, `http:`, `mailto:` or `tel:` address, up to 2,048 characters.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(4096)
  url?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Hide the link from visitors, or show it again.' })
  @IsOptional()
  @IsBoolean()
  hidden?: boolean | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Plus: show the link from this time, `YYYY-MM-DDTHH:mm` in your page's time zone; an empty string removes it.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  visibleFrom?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      "Plus: show the link until this time, `YYYY-MM-DDTHH:mm` in your page's time zone; an empty string removes it.",
  })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  visibleUntil?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Plus: true draws this link prominently and takes the highlight from any other; false removes it.',
  })
  @IsOptional()
  @IsBoolean()
  highlighted?: boolean | null;
}

@ObjectType({ description: 'One day of a page: views and clicks (UTC day).' })
export class DayStats {
  @Field(() => String, { description: '`YYYY-MM-DD` (UTC).' })
  day!: string;

  @Field(() => Int, { description: 'Views of the page that day.' })
  views!: number;

  @Field(() => Int, { description: 'Clicks on its links that day.' })
  clicks!: number;
}

@ObjectType({ description: 'Clicks on one link over the period.' })
export class LinkStats {
  @Field(() => Link, { description: 'The link.' })
  link!: Link;

  @Field(() => Int, { description: 'Its clicks over the period.' })
  clicks!: number;
}

@ObjectType({
  description:
    'Views of your page and clicks on its links. Only counts are kept: no addresses, user agents or cookies; bots are not counted.',
})
export class PageStats {
  @Field(() => Int, { description: 'The period: this many days up to and including today (UTC).' })
  days!: number;

  @Field(() => Int, { description: 'Views of your page over the period.' })
  views!: number;

  @Field(() => Int, { description: 'Clicks on your links over the period.' })
  clicks!: number;

  @Field(() => Float, { description: 'Clicks per view (0 without views).' })
  clickRate!: number;

  @Field(() => [DayStats], { description: 'Each day of the period, oldest first.' })
  byDay!: DayStats[];

  @Field(() => [LinkStats], { description: 'Clicks per link over the period, in page order, hidden links included.' })
  links!: LinkStats[];
}
