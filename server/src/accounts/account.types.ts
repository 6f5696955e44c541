import { Field, ID, ObjectType } from 'type-graphql';
import { Plan } from '../members/plan.types.js';
import { Profile } from '../profiles/profile.types.js';

@ObjectType({ description: "A member's own account record (only the member sees it)." })
export class User {
  @Field(() => ID, { description: 'The identity user id.' })
  uid!: string;

  @Field(() => String, { description: 'The email address the account signs in with.' })
  email!: string;

  @Field(() => String, { description: 'First name.' })
  first!: string;

  @Field(() => String, { nullable: true, description: 'Birthday as an ISO date, `YYYY-MM-DD`.' })
  birthday!: string | null;

  @Field(() => Date, { description: 'When the member signed up.' })
  joined!: Date;

  @Field(() => String, {
    description: 'The kind of client that created the account: `web`, `ios`, `android`, `api`, …',
  })
  platform!: string;

  @Field(() => String, { nullable: true, description: "That client's identifier for the install or app." })
  platformID!: string | null;
}

@ObjectType({ description: 'The signed-in member: account record, profile and plan.' })
export class Member {
  @Field(() => User, { description: 'The account record.' })
  user!: User;

  @Field(() => Profile, { description: 'The profile with every setting.' })
  profile!: Profile;

  @Field(() => Plan, { description: 'The subscription: `plus` while Lampstand Plus is active.' })
  plan!: Plan;
}
