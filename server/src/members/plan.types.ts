import { registerEnumType } from 'type-graphql';

/** A member's plan as the API shows it (`me.plan`, `subscription.plan`), from the stored role. */
export enum Plan {
  free = 'free',
  plus = 'plus',
}

registerEnumType(Plan, {
  name: 'Plan',
  description: "A member's subscription.",
  valuesConfig: {
    free: { description: 'No subscription.' },
    plus: { description: 'Lampstand Plus: Plus themes and button style, a pinned verse, the Plus badge.' },
  },
});

declare module '../kernel/live.js' {
  interface LiveTopics {
    /** The member's plan may have changed (published by billing under their uid; the payload says nothing). */
    planChanged: Record<string, never>;
  }
}
