import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { Public } from '../graphql/auth.js';
import type { Context } from '../graphql/context.js';
import type { UsernameAvailabilityService } from './username-availability.service.js';
import { UsernameAvailability } from './username-availability.types.js';

@Resolver()
export class UsernameAvailabilityResolver {
  constructor(private readonly availability: UsernameAvailabilityService) {}

  @Public()
  @Query(() => UsernameAvailability, {
    description:
      'Whether a username can be chosen now (at sign-up or as a new one), and why not: invalid, reserved or taken. ' +
      'No account needed; a few dozen checks a minute per address.',
  })
  async usernameAvailable(
    @Arg('username', () => String, { description: 'The username, in any letter case.' }) username: string,
    @Ctx() { clientIp }: Context,
  ): Promise<UsernameAvailability> {
    return this.availability.check(username, clientIp);
  }
}
