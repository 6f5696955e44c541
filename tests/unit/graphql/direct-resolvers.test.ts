import type { GraphQLResolveInfo } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildAppSchema } from '../../../server/src/app/schema.js';
import { callResolversDirectly } from '../../../server/src/graphql/schema.js';

describe('resolvers called directly', () => {
  it('take the fields whose wrapper only passes arguments, and leave the others to type-graphql', async () => {
    const schema = await buildAppSchema();
    const fields = schema.getQueryType()?.getFields() ?? {};
    const before = { verseOfTheDay: fields.verseOfTheDay?.resolve, verse: fields.verse?.resolve };
    const calls: unknown[][] = [];
    const resolver = {
      profile: (...params: unknown[]) => (calls.push(['profile', ...params]), 'a profile'),
      me: (...params: unknown[]) => (calls.push(['me', ...params]), 'a member'),
    };
    callResolversDirectly(schema, new Set(['profile', 'me', 'verseOfTheDay', 'verse']), () => resolver);

    const context = { user: null };
    const info = {} as GraphQLResolveInfo;
    // The method's own answer, at once (no promise in between), with its parameters in order.
    expect(fields.profile?.resolve?.(undefined, { username: 'Ann' }, context, info)).toBe('a profile');
    expect(fields.me?.resolve?.(undefined, {}, context, info)).toBe('a member');
    expect(calls).toEqual([
      ['profile', 'Ann', context],
      ['me', context],
    ]);
    // An argument of an enum (the translation) is type-graphql's to convert: those keep its resolver.
    expect(fields.verseOfTheDay?.resolve).toBe(before.verseOfTheDay);
    expect(fields.verse?.resolve).toBe(before.verse);
  });
});
