import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../graphql/context.js';
import { pageHold } from '../rules/page-access.js';
import { Profile } from '../profiles/profile.types.js';
import { PageHoldInfo } from './report.types.js';

/** The owner's view of an operator's hold on their page (hidden, or the account suspended). */
@Resolver(() => Profile)
export class PageHoldResolver {
  @FieldResolver(() => PageHoldInfo, {
    nullable: true,
    description: 'Why visitors cannot see your page because of an operator; null when nothing stops it.',
  })
  async hold(@Root() profile: Profile, @Ctx() { loaders }: Context): Promise<PageHoldInfo | null> {
    const owner = await loaders.userByUid.load(profile.uid);
    const hold = owner ? pageHold(owner) : null;
    return hold ? Object.assign(new PageHoldInfo(), hold) : null;
  }
}
