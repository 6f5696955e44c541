// A day's traffic as P11 sends it (issue 32): visitors pick pages by popularity (Zipf, s = 1), most
// of them read a page, some follow a link on it, and a few members read their account or edit.
import { seededLinkId, seededUsername } from '../seed.js';
import { seededRandom } from '../../tests/support/random.js';

/** The share of each kind of request, in percent: ~88% page reads, 6% link clicks, 4% `me`, 2% edits. */
export const MIX = { read: 88, click: 6, me: 4, edit: 2 } as const;
export type Kind = keyof typeof MIX;

/** A browser's user agent: link clicks from scripts without one are not counted, a visitor's are. */
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** The app's own `me` query on a signed-in page (P3's). */
export const ME_QUERY = '{ me { user { email } profile { username name } } }';
const UPDATE_NAME = 'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { name } }';
const UPDATE_LINK = 'mutation ($id: ID!, $input: UpdateLinkInput!) { updateLink(id: $id, input: $input) { title } }';

/** A member of the mix who edits: signed up through the API, with a link of their own. */
export interface Editor {
  token: string;
  username: string;
  linkId: string;
}

export interface MixRequest {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Ranks 0..count-1 drawn with probability ∝ 1 / (rank + 1)^s: rank 0 is the most visited page. */
export function zipf(count: number, s: number, random: () => number): () => number {
  const cumulative = new Float64Array(count);
  let total = 0;
  for (let rank = 0; rank < count; rank++) {
    total += 1 / (rank + 1) ** s;
    cumulative[rank] = total;
  }
  return () => {
    const target = random() * total;
    let [low, high] = [0, count - 1];
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] ?? total) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

/**
 * Where the editors' own pages rank: spread from popular to rare, so that their edits change pages
 * visitors read (the kept answers of those pages must go) at every level of popularity.
 */
const EDITOR_RANKS = [1, 4, 16, 64, 256, 1024, 4096, 16384];
export const EDITORS = EDITOR_RANKS.length;

/**
 * A page read as a visitor's browser makes it: the document `/@username`, which the server renders,
 * with the app's headers (`pageHeaders`, taken from Chromium) and a browser's user agent, so that
 * the view is counted as a visitor's is.
 */
export function pageRead(username: string, pageHeaders: Record<string, string>): MixRequest {
  return { kind: 'read', method: 'GET', path: `/@${username}`, headers: { ...pageHeaders, 'user-agent': BROWSER } };
}

/**
 * The day's requests, one per call: the public page as the app reads it (`pageRead`),
 * `/l/<id>` of a link on a page, `me` and edits (name, link title) by the editors, in MIX's shares.
 */
export function dayMix(options: {
  profiles: number;
  editors: readonly Editor[];
  pageHeaders: Record<string, string>;
  seed?: number;
  /** One kind only, for the cost of each (CPU per request); the whole mix when absent. */
  only?: Kind;
}): () => MixRequest {
  const random = seededRandom(options.seed ?? 1);
  const rank = zipf(options.profiles, 1, random);
  const editorAt = new Map(EDITOR_RANKS.map((at, index) => [at, options.editors[index]]));
  const usernameAt = (at: number) => editorAt.get(at)?.username ?? seededUsername(at);
  const linkAt = (at: number) => editorAt.get(at)?.linkId ?? seededLinkId(at);
  let edits = 0;
  const kindOf = (): Kind => {
    if (options.only) return options.only;
    const roll = random() * 100;
    if (roll < MIX.read) return 'read';
    if (roll < MIX.read + MIX.click) return 'click';
    return roll < MIX.read + MIX.click + MIX.me ? 'me' : 'edit';
  };
  const editor = (): Editor => {
    const chosen = options.editors[Math.floor(random() * options.editors.length)];
    if (!chosen) throw new Error('the day has no editors');
    return chosen;
  };
  const post = (kind: Kind, body: string, token?: string): MixRequest => ({
    kind,
    method: 'POST',
    path: '/graphql',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  return () => {
    switch (kindOf()) {
      case 'read':
        return pageRead(usernameAt(rank()), options.pageHeaders);
      case 'click':
        return { kind: 'click', method: 'GET', path: `/l/${linkAt(rank())}`, headers: { 'user-agent': BROWSER } };
      case 'me':
        return post('me', JSON.stringify({ query: ME_QUERY }), editor().token);
      case 'edit': {
        const { token, linkId } = editor();
        edits += 1;
        // Half the edits rename the page, half retitle its link.
        const body =
          edits % 2 === 0
            ? { query: UPDATE_NAME, variables: { input: { name: `Editor, edit ${edits}` } } }
            : { query: UPDATE_LINK, variables: { id: linkId, input: { title: `Link, edit ${edits}` } } };
        return post('edit', JSON.stringify(body), token);
      }
    }
  };
}
