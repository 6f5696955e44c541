import type { SectionEnv } from './fields.js';
import { positive } from './fields.js';

/** GraphQL subscriptions over WebSocket on `/graphql` (graphql/subscription-server.ts). */
export const subscriptionsEnv = {
  SUBSCRIPTION_CONNECTIONS_PER_ADDRESS: positive.default(20),
  SUBSCRIPTION_CONNECTIONS_PER_MEMBER: positive.default(10),
  SUBSCRIPTIONS_PER_CONNECTION: positive.default(10),
  SUBSCRIPTION_MESSAGE_KB: positive.max(1024).default(16),
  SUBSCRIPTION_PING_SECONDS: positive.max(3600).default(30),
};

/**
 * Limits of the WebSocket connections: open at once from one client address and for one member;
 * operations at once on one connection; the largest message a client may send; and how often the
 * server pings (a connection that has not answered the last ping by the next one is closed, and a
 * signed-in one has its token checked again then, so that a session ended elsewhere ends it too).
 */
export interface SubscriptionSettings {
  connectionsPerAddress: number;
  connectionsPerMember: number;
  perConnection: number;
  maxMessageBytes: number;
  pingMs: number;
}

export function subscriptionSettings(env: SectionEnv<typeof subscriptionsEnv>): SubscriptionSettings {
  return {
    connectionsPerAddress: env.SUBSCRIPTION_CONNECTIONS_PER_ADDRESS,
    connectionsPerMember: env.SUBSCRIPTION_CONNECTIONS_PER_MEMBER,
    perConnection: env.SUBSCRIPTIONS_PER_CONNECTION,
    maxMessageBytes: env.SUBSCRIPTION_MESSAGE_KB * 1024,
    pingMs: env.SUBSCRIPTION_PING_SECONDS * 1000,
  };
}
