import { Ctx, Query, Resolver } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { isLiveMember } from '../members/live-member.js';
import { toMember } from './account.mappers.js';
import { Member } from './account.types.js';

@Resolver(() => Member)
export class MemberResolver {
  @Public()
  @Query(() => Member, { nullable: true, description: 'The signed-in member; null when signed out.' })
  async me(@Ctx() { user, loaders }: Context): Promise<Member | null> {
    if (!user) return null;
    const [record, profile] = await Promise.all([loaders.userByUid.load(user.id), loaders.profileByUid.load(user.id)]);
    if (!profile || !isLiveMember(record)) return null;
    return toMember(record, profile);
  }
}
