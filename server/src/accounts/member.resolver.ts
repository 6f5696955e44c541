import { Ctx, Query, Resolver } from 'type-graphql';
import { mfaRequired, Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { isLiveMember } from '../rules/page-access.js';
import { toMember } from './account.mappers.js';
import { Member } from './account.types.js';

@Resolver(() => Member)
export class MemberResolver {
  @Public()
  @Query(() => Member, { nullable: true, description: 'The signed-in member; null when signed out.' })
  async me(@Ctx() { user, loaders }: Context): Promise<Member | null> {
    if (!user) return null;
    // Public (null when signed out), so the assurance rule is applied here: the code step needs
    // nothing of `me` (it reads `mfaStatus`), and a password alone reads nothing private.
    if (user.secondFactorPending) throw mfaRequired();
    const [record, profile] = await Promise.all([loaders.userByUid.load(user.id), loaders.profileByUid.load(user.id)]);
    if (!profile || !isLiveMember(record)) return null;
    return toMember(record, profile);
  }
}
