// Grants or revokes Plus for one member: npm run plus -- grant|revoke EMAIL
//
// It builds the services for a moment, with no HTTP server and no background work, and calls the
// billing service as the webhook would: the grant and `users.stripe_role` are written in one
// transaction, then the identity account's `app_metadata.stripeRole` through supabase-js (the
// embedded identity service answers it in-process). It works beside a running server on the same
// database; the member's next token (sign-in or refresh) carries the claim.
import 'reflect-metadata';
import { GraphQLError } from 'graphql';
import { IdentityError } from '../identity/identity.client.js';
import { withServices } from './with-services.js';

const USAGE = 'usage: npm run plus -- grant|revoke EMAIL';

async function main(argv: string[]): Promise<number> {
  const [action, email, ...rest] = argv;
  if ((action !== 'grant' && action !== 'revoke') || !email || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  return withServices(async ({ billing }) => {
    try {
      const { entitlement } = action === 'grant' ? await billing.grant(email) : await billing.revoke(email);
      const plan = entitlement.role === null ? 'free' : 'Plus';
      const why = entitlement.granted
        ? 'granted'
        : entitlement.role === null
          ? 'no grant, no subscription'
          : 'through a subscription';
      console.log(`${email}: ${action === 'grant' ? 'granted' : 'grant revoked'}; plan now ${plan} (${why}).`);
      return 0;
    } catch (error) {
      if (error instanceof GraphQLError) {
        console.error(error.message);
        return 1;
      }
      if (error instanceof IdentityError) {
        console.error(
          `${email}: the plan is saved, but the identity service refused the stripeRole claim (${error.code}); ` +
            'a running server with billing retries it, or run this command again.',
        );
        return 1;
      }
      throw error;
    }
  });
}

process.exitCode = await main(process.argv.slice(2));
