// B6: property-based fuzzing of the link mutations' inputs (addLink, updateLink, reorderLinks,
// removeLink). Every run answers without a 5xx and with only the coded errors the mutation
// documents; a title that was stored reads back exactly, as the documented normalisation makes
// it (trimmed, inner white space one space). See also fuzzing.test.ts.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startTestApp } from '../support/app.js';
import {
  anyText,
  expectCoded,
  FUZZ_ENV,
  optional,
  storedTitle,
  validExceptSome,
  wellFormedTitle,
  wrongType,
} from '../support/fuzz.js';
import type { SignedUpMember } from '../support/members.js';
import { signUpMember } from '../support/members.js';

let api: TestApp;
let member: SignedUpMember;
/** Three links the member keeps, for updateLink and reorderLinks. */
let kept: string[];

interface LinkData {
  id: string;
  title: string;
  url: string;
  hidden: boolean;
}
const LINK_FIELDS = 'id title url hidden';
const ADD = `mutation ($input: LinkInput!) { addLink(input: $input) { ${LINK_FIELDS} } }`;
const UPDATE = `mutation ($id: ID!, $input: UpdateLinkInput!) { updateLink(id: $id, input: $input) { ${LINK_FIELDS} } }`;
const REORDER = `mutation ($ids: [ID!]!) { reorderLinks(ids: $ids) { ${LINK_FIELDS} } }`;
const REMOVE = `mutation ($id: ID!) { removeLink(id: $id) { ${LINK_FIELDS} } }`;

const token = () => member.session.accessToken;

/** The member's links in page order, hidden ones included. */
async function links(): Promise<LinkData[]> {
  const read = await api.graphql<{ me: { profile: { links: LinkData[] } } }>(
    `{ me { profile { links { ${LINK_FIELDS} } } } }`,
    {},
    { token: token() },
  );
  return read.data?.me.profile.links ?? [];
}

/** Addresses valid and not: schemes allowed and refused, bare hosts, odd characters, 4 KB. */
const url = fc.oneof(
  fc.webUrl(),
  fc.constantFrom('example.com', 'mailto:a@example.com', 'tel:+4712345678', 'javascript:alert(1)', 'data:,x'),
  fc.constantFrom('http://localhost', 'https://user:pw@example.com', 'example.com:8080/me', ' HTTPS://EXAMPLE.COM '),
  anyText(100),
  anyText(100).map((path) => `https://example.com/${path}`),
  fc.string({ minLength: 2040, maxLength: 4200 }).map((path) => `https://example.com/${path}`),
);
const title = fc.oneof({ weight: 2, arbitrary: wellFormedTitle }, anyText(120));
/** Ids of links that exist, and ones that do not. */
const id = () =>
  fc.oneof(fc.constantFrom(...kept), fc.uuid(), anyText(60), fc.string({ minLength: 300, maxLength: 5000 }));

beforeAll(async () => {
  api = await startTestApp(FUZZ_ENV);
  member = await signUpMember(api);
  kept = [];
  for (const name of ['One', 'Two', 'Three']) {
    const added = await api.graphql<{ addLink: LinkData }>(
      ADD,
      { input: { title: name, url: `https://${name.toLowerCase()}.example` } },
      { token: token() },
    );
    kept.push(added.data?.addLink.id ?? '');
  }
});
afterAll(async () => {
  await api.close();
});

describe('addLink and removeLink (B6)', () => {
  const valid = fc.record(
    { title: wellFormedTitle, url: fc.webUrl(), hidden: fc.boolean() },
    { requiredKeys: ['title', 'url'] },
  );
  const fuzzed = fc.record({
    title: fc.oneof(title, wrongType),
    url: fc.oneof(url, wrongType),
    hidden: optional(fc.boolean()),
  });
  const input = fc.oneof(
    { weight: 8, arbitrary: validExceptSome(valid, fuzzed, ['title', 'url', 'hidden']) },
    wrongType,
    fc.constant(null),
  );

  it('adds a link exactly as documented or answers with a coded error, and removes it again', async () => {
    await fc.assert(
      fc.asyncProperty(input, async (sent) => {
        const response = await api.graphql<{ addLink: LinkData }>(ADD, { input: sent }, { token: token() });
        if (!expectCoded(response, ['BAD_USER_INPUT', 'LIMIT_REACHED'])) return;
        const added = response.data?.addLink;
        if (!added) throw new Error('no link');
        const given = sent as { title: string; hidden?: boolean | null };
        expect(added.title).toBe(storedTitle(given.title));
        expect(added.hidden).toBe(given.hidden ?? false);
        expect((await links()).at(-1)).toEqual(added);
        const removed = await api.graphql<{ removeLink: LinkData[] }>(REMOVE, { id: added.id }, { token: token() });
        expect(expectCoded(removed, [])).toBe(true);
        expect(removed.data?.removeLink.map((link) => link.id)).toEqual(kept);
      }),
      {
        numRuns: 50,
        // What fuzzing found once (a 500 on PostgreSQL, text changed on both), kept as regressions.
        examples: [[{ title: 'a\u0000b', url: 'example.com' }], [{ title: 'a\ud800b', url: 'example.com' }]],
      },
    );
  });

  it('answers removing any link that is not there with NOT_FOUND or BAD_USER_INPUT', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.uuid(), anyText(60), fc.string({ minLength: 300, maxLength: 5000 }), wrongType),
        async (sent) => {
          const response = await api.graphql(REMOVE, { id: sent }, { token: token() });
          expect(expectCoded(response, ['BAD_USER_INPUT', 'NOT_FOUND'])).toBe(false);
          expect((await links()).map((link) => link.id)).toEqual(kept);
        },
      ),
      { numRuns: 30, examples: [['a\u0000']] },
    );
  });
});

describe('updateLink (B6)', () => {
  it('changes a link exactly as documented or answers with a coded error', async () => {
    const valid = fc.record({ title: wellFormedTitle, url: fc.webUrl(), hidden: fc.boolean() }, { requiredKeys: [] });
    const fuzzed = fc.record({ title: optional(title), url: optional(url), hidden: optional(fc.boolean()) });
    const input = fc.oneof(
      { weight: 8, arbitrary: validExceptSome(valid, fuzzed, ['title', 'url', 'hidden']) },
      wrongType,
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...kept) }, id()),
        input,
        async (target, sent) => {
          const before = (await links()).find((link) => link.id === target);
          const response = await api.graphql<{ updateLink: LinkData }>(
            UPDATE,
            { id: target, input: sent },
            { token: token() },
          );
          if (!expectCoded(response, ['BAD_USER_INPUT', 'NOT_FOUND'])) return;
          const given = sent as { title?: string | null; hidden?: boolean | null };
          const after = (await links()).find((link) => link.id === target);
          expect(after).toEqual(response.data?.updateLink);
          expect(after?.title).toBe(typeof given.title === 'string' ? storedTitle(given.title) : before?.title);
          expect(after?.hidden).toBe(given.hidden ?? before?.hidden);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('reorderLinks (B6)', () => {
  it('puts the links in any order that names each once, and answers anything else with BAD_USER_INPUT', async () => {
    const ids = fc.oneof(
      { weight: 3, arbitrary: fc.shuffledSubarray(kept, { minLength: kept.length, maxLength: kept.length }) },
      fc.shuffledSubarray(kept),
      fc.array(fc.constantFrom(...kept), { maxLength: 5 }),
      fc.array(id(), { maxLength: 5 }),
      fc.array(fc.oneof(fc.constantFrom(...kept), wrongType), { minLength: 1, maxLength: 4 }),
      wrongType,
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(ids, async (sent) => {
        const before = (await links()).map((link) => link.id);
        const response = await api.graphql<{ reorderLinks: LinkData[] }>(REORDER, { ids: sent }, { token: token() });
        const each =
          Array.isArray(sent) &&
          sent.length === kept.length &&
          new Set(sent).size === kept.length &&
          kept.every((one) => sent.includes(one));
        expect(expectCoded(response, ['BAD_USER_INPUT'])).toBe(each);
        expect((await links()).map((link) => link.id)).toEqual(each ? sent : before);
        if (each) expect(response.data?.reorderLinks.map((link) => link.id)).toEqual(sent);
        kept = (await links()).map((link) => link.id);
      }),
      { numRuns: 40 },
    );
  });
});
