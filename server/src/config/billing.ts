import { z } from 'zod';
import type { SectionEnv, Shared } from './fields.js';
import { seconds, url } from './fields.js';

/** Stripe, which sells Plus. */
export const billingEnv = {
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: url.optional(),
  STRIPE_ROLE_METADATA_KEY: z.string().min(1).default('role'),
  PLUS_GRACE_PERIOD_DAYS: seconds.default(7),
};

export interface BillingSettings {
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiBase: string | undefined;
  roleMetadataKey: string;
  graceDays: number;
}

export function billingSettings(env: SectionEnv<typeof billingEnv>, shared: Shared): BillingSettings {
  if ((env.STRIPE_SECRET_KEY === undefined) !== (env.STRIPE_WEBHOOK_SECRET === undefined)) {
    shared.problems.push('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET: set both or neither');
  }
  return {
    stripeSecretKey: env.STRIPE_SECRET_KEY,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
    stripeApiBase: env.STRIPE_API_BASE,
    roleMetadataKey: env.STRIPE_ROLE_METADATA_KEY,
    graceDays: env.PLUS_GRACE_PERIOD_DAYS,
  };
}
