import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../graphql/context.js';
import { PublicProfile } from '../profiles/profile.types.js';
import { toLink } from './link.service.js';
import { isShownNow } from '../rules/links.js';
import { publicLinkPage } from './link.policies.js';
import { Link } from './link.types.js';

/** The links visitors see on a public page. */
@Resolver(() => PublicProfile)
export class PublicLinkResolver {
  @FieldResolver(() => [Link], {
    description:
      'The links on the page now, in order: hidden ones left out, and (while the owner has Plus) scheduled ones outside their time.',
  })
  async links(@Root() profile: PublicProfile, @Ctx() { loaders }: Context): Promise<Link[]> {
    const links = await loaders.linksByUid.load(profile.uid);
    const page = publicLinkPage(profile);
    const now = new Date();
    return links.filter((link) => isShownNow(link, page, now)).map((link) => toLink(link, page));
  }
}
