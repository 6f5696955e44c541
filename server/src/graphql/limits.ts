import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';

/** Most tokens a document may have; graphql-js's parser enforces it (Apollo's `parseOptions`). */
export const MAX_TOKENS = 3000;

/**
 * Limits every document meets before it runs: depth, aliases, cost, directives, tokens. Our
 * deepest real query is 4 levels. Introspection (public by design) is exempt from the depth and
 * cost formulas, which grow exponentially with its ofType chains (the standard query would
 * "cost" 87,000), and is held by the token and alias limits instead. Field suggestions ("Did you
 * mean …?") are blocked in production.
 */
export function requestLimits(options: { production: boolean }): {
  plugins: ApolloServerPlugin[];
  validationRules: ReturnType<ApolloArmor['protect']>['validationRules'];
} {
  const armor = new ApolloArmor({
    // Depth and cost count fields, not fragment spreads, so colocated fragments cost nothing.
    maxDepth: { n: 10, ignoreIntrospection: true, flattenFragments: true },
    maxAliases: { n: 64 },
    costLimit: { maxCost: 5000, ignoreIntrospection: true, flattenFragments: true },
    maxTokens: { enabled: false },
    maxDirectives: { n: 20 },
    blockFieldSuggestion: { enabled: options.production },
  }).protect();
  // graphql-armor's types come from Apollo's CommonJS build, ours from its ES module build: same shape.
  const armorPlugins = armor.plugins as unknown as ApolloServerPlugin[];
  return { plugins: armorPlugins, validationRules: armor.validationRules };
}
