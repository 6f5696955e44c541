import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { mfaRequired, Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import { unauthenticated } from '../graphql/errors.js';
import { LiveSubscription } from '../graphql/subscriptions.js';
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
    return this.member(user.id, loaders);
  }

  @Authorized()
  @LiveSubscription(() => Member, {
    description:
      'The signed-in member, sent again whenever their plan changes (a webhook lands, an operator grants or revokes Plus).',
    topic: 'planChanged',
    key: ({ context }) => {
      if (!context.user) throw unauthenticated();
      return context.user.id;
    },
    // An account deleted meanwhile has nothing more to send.
    endsAt: async (_event, { context }, resolver: MemberResolver) =>
      context.user === null || (await resolver.member(context.user.id, context.loaders)) === null,
  })
  async planChanged(@Ctx() { user, loaders }: Context): Promise<Member> {
    const member = user ? await this.member(user.id, loaders) : null;
    if (!member) throw unauthenticated();
    return member;
  }

  private async member(uid: string, loaders: Context['loaders']): Promise<Member | null> {
    // The profile first: its statement brings the owner's record too (profile.loaders.ts), so
    // `userByUid` answers from what it primed instead of a statement of its own.
    const profile = await loaders.profileByUid.load(uid);
    const record = await loaders.userByUid.load(uid);
    if (!profile || !isLiveMember(record)) return null;
    return toMember(record, profile);
  }
}
