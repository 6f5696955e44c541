import { Field, ObjectType, registerEnumType } from 'type-graphql';

/** Why a username cannot be chosen. */
export enum UsernameUnavailableReason {
  INVALID = 'INVALID',
  RESERVED = 'RESERVED',
  TAKEN = 'TAKEN',
}

registerEnumType(UsernameUnavailableReason, {
  name: 'UsernameUnavailableReason',
  description: 'Why a username cannot be chosen.',
  valuesConfig: {
    INVALID: { description: 'Not 3–30 of a-z, 0-9, dots and underscores, starting with a letter or digit.' },
    RESERVED: { description: "One of the site's own words (a route, or a staff word anywhere in it)." },
    TAKEN: { description: 'Another member has it.' },
  },
});

@ObjectType({ description: 'Whether a username can be chosen now, as signing up or changing it would decide.' })
export class UsernameAvailability {
  @Field(() => String, { description: 'The username as it would be stored: trimmed and lowercased.' })
  username!: string;

  @Field(() => Boolean, {
    description: 'True when the username can be chosen now (a sign-up may still take it first).',
  })
  available!: boolean;

  @Field(() => UsernameUnavailableReason, { nullable: true, description: 'Why it cannot be chosen; null when it can.' })
  reason!: UsernameUnavailableReason | null;
}
