import { Arg, Authorized, Ctx, FieldResolver, ID, Mutation, Resolver, Root } from 'type-graphql';
import { CurrentUser } from '../graphql/auth.js';
import type { AuthUser, Context } from '../graphql/context.js';
import { Profile } from '../profiles/profile.types.js';
import type { LinkService } from './link.service.js';
import { toLink } from './link.service.js';
import { Link, LinkInput, UpdateLinkInput } from './link.types.js';

/** A member's links: the mutations, and the list on their own profile. */
@Resolver(() => Profile)
export class LinkResolver {
  constructor(private readonly service: LinkService) {}

  @Authorized()
  @Mutation(() => Link, { description: 'Adds a link at the end of your page (at most 50).' })
  async addLink(
    @Arg('input', () => LinkInput, { description: 'The new link.' }) input: LinkInput,
    @CurrentUser() actor: AuthUser,
  ): Promise<Link> {
    return toLink(await this.service.add(actor, input));
  }

  @Authorized()
  @Mutation(() => Link, { description: 'Changes one of your links: its title, address or whether it is hidden.' })
  async updateLink(
    @Arg('id', () => ID, { description: 'The link.' }) id: string,
    @Arg('input', () => UpdateLinkInput, { description: 'The changes.' }) input: UpdateLinkInput,
    @CurrentUser() actor: AuthUser,
  ): Promise<Link> {
    return toLink(await this.service.update(actor, id, input));
  }

  @Authorized()
  @Mutation(() => [Link], { description: 'Removes one of your links; answers the links left, in order.' })
  async removeLink(
    @Arg('id', () => ID, { description: 'The link.' }) id: string,
    @CurrentUser() actor: AuthUser,
  ): Promise<Link[]> {
    return (await this.service.remove(actor, id)).map((link) => toLink(link));
  }

  @Authorized()
  @Mutation(() => [Link], { description: 'Puts your links in this order; `ids` names each of them once.' })
  async reorderLinks(
    @Arg('ids', () => [ID], { description: 'Every one of your links, in the new order.' }) ids: string[],
    @CurrentUser() actor: AuthUser,
  ): Promise<Link[]> {
    return (await this.service.reorder(actor, ids)).map((link) => toLink(link));
  }

  @FieldResolver(() => [Link], { description: 'Your links in page order, hidden ones included.' })
  async links(@Root() profile: Profile, @Ctx() { loaders }: Context): Promise<Link[]> {
    return (await loaders.linksByUid.load(profile.uid)).map((link) => toLink(link));
  }
}
