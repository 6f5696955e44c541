import type { FastifyBaseLogger } from 'fastify';
import type { DocumentNode, ExecutionResult, GraphQLSchema } from 'graphql';
import { execute, parse } from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { AnswerCache } from '../graphql/answer-cache.js';
import { compiledQueryOf } from '../graphql/compiled-query.js';
import type { Context, Loaders } from '../graphql/context.js';
import type { BrowserConfig, RenderedPage } from '../http/web.js';
import { resolveDay } from '../verses/day.js';
import { createContext } from './context.js';
import { serverEntry, withRenderDeadline } from './server-entry.js';

/** What the web app's server entry (web/src/ssr.tsx, built as `ssr.js`) offers for `/@username`. */
interface ProfileEntry {
  PROFILE_PAGE_QUERY: string;
  renderProfile(input: {
    profile: unknown;
    day: string;
    days: Record<string, unknown>;
    url: string;
    config: BrowserConfig;
  }): Promise<RenderedPage>;
}

/**
 * The page's verse on the days around UTC's: every visitor's own day is one of the three (time
 * zones run from UTC−12 to UTC+14), and the page picks it before it is first drawn
 * (http/verse-day-script.ts). Asked only when the verse follows the day.
 */
const NEIGHBOUR_VERSES = parse(`query ($username: String!, $before: String!, $after: String!) {
  profile(username: $username) {
    before: verse(date: $before) { ref text translation }
    after: verse(date: $after) { ref text translation }
  }
}`);

/** Each read's compilation by graphql-jit, made at its first run; false when it cannot be compiled. */
const compiledReads = new WeakMap<DocumentNode, CompiledQuery | false>();

/**
 * Runs one of the page's reads compiled by graphql-jit, as the public executor runs `profile`
 * (graphql-js's execution was a tenth of a fresh page's CPU). When the compiled run gives any
 * error, the read runs again through graphql-js, whose answer counts: these fields only read the
 * database and the clock, so running one twice changes nothing, and errors are as before.
 */
async function runRead(
  schema: GraphQLSchema,
  document: DocumentNode,
  contextValue: Context,
  variableValues: Record<string, unknown>,
): Promise<ExecutionResult> {
  let compiled = compiledReads.get(document);
  if (compiled === undefined) {
    compiled = compiledQueryOf(schema, document);
    compiledReads.set(document, compiled);
  }
  if (compiled) {
    const result = await compiled.query(undefined, contextValue, variableValues);
    if (!result.errors?.length) return result;
  }
  return execute({ schema, document, contextValue, variableValues });
}

/** `YYYY-MM-DD` moved by whole days. */
function dayAfter(day: string, by: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + by);
  return date.toISOString().slice(0, 10);
}

/** The verses of the day before and after `day`, by date; none when the page keeps a pinned verse. */
async function neighbourVerses(
  schema: GraphQLSchema,
  contextValue: Context,
  username: string,
  day: string,
  profile: unknown,
): Promise<Record<string, unknown>> {
  const pinned = typeof profile === 'object' && profile !== null && 'versePinned' in profile && profile.versePinned;
  if (pinned !== false) return {};
  const [before, after] = [dayAfter(day, -1), dayAfter(day, 1)];
  const result = await runRead(schema, NEIGHBOUR_VERSES, contextValue, { username, before, after });
  const found = result.data?.profile;
  if (result.errors?.length || typeof found !== 'object' || found === null) return {};
  if (!('before' in found && found.before && 'after' in found && found.after)) return {};
  return { [before]: found.before, [after]: found.after };
}

/** Kept renderings held parsed: the pages most visited (a Zipf day's head), a few MB at most. */
const PARSED_PAGES = 500;

function isProfileEntry(value: unknown): value is ProfileEntry {
  return (
    typeof value === 'object' &&
    value !== null &&
    'PROFILE_PAGE_QUERY' in value &&
    typeof value.PROFILE_PAGE_QUERY === 'string' &&
    'renderProfile' in value &&
    typeof value.renderProfile === 'function'
  );
}

export interface ProfilePageOptions {
  schema: GraphQLSchema;
  newLoaders: () => Loaders;
  /** The built server entry's folder (web/dist-ssr). */
  ssrDir: string;
  /** The address people use: the page's own address is drawn from it. */
  publicUrl: string;
  /**
   * The public answer cache: a rendering is kept there beside the answers it was made from, and
   * goes when they go (any write a public answer reads, another instance's notice, the minute's turn).
   */
  answers?: AnswerCache;
  /** Called when a kept rendering is sent (it counts as a kept answer: `lampstand_graphql_cached_answers_total`). */
  onHit?: () => void;
}

/** Who asks, for the resolvers' logs and per-address limits. */
export interface PageRequest {
  log: FastifyBaseLogger;
  clientIp: string;
}

type Render = (username: string, config: BrowserConfig, request: PageRequest) => Promise<RenderedPage | null>;

/**
 * Renders `/@username` for a visitor signed out with the web app's own components (`ssr.js`), from
 * the answer the page's own `ProfilePage` query gets anonymously, with neither a time zone nor a
 * translation: today in UTC, in the member's translation (the visitor's own are the browser's
 * business). Null when visitors may not see the page. The module brings React, so it is imported on
 * the first request for a page, not at start. Undefined when the build has no server rendering.
 */
export function profilePageRenderer(options: ProfilePageOptions): Render | undefined {
  const entry = serverEntry(options.ssrDir, (module) => {
    if (!isProfileEntry(module)) throw new Error(`${options.ssrDir}/ssr.js has no renderProfile()`);
    return { module, query: parse(module.PROFILE_PAGE_QUERY) };
  });
  if (!entry) return undefined;
  const load: () => Promise<{ module: ProfileEntry; query: DocumentNode }> = entry;

  async function render(
    username: string,
    config: BrowserConfig,
    request: PageRequest,
    loaders: Loaders,
  ): Promise<RenderedPage | null> {
    const { module, query } = await load();
    const contextValue: Context = createContext({
      user: null,
      loaders,
      log: request.log,
      clientIp: request.clientIp,
    });
    const day = resolveDay({}, new Date()).date;
    const result = await runRead(options.schema, query, contextValue, { username });
    if (result.errors?.length) throw new AggregateError(result.errors, 'the profile query failed');
    const profile: unknown = result.data?.profile ?? null;
    if (profile === null) return null;
    const days = await neighbourVerses(options.schema, contextValue, username, day, profile);
    const url = `${options.publicUrl}/@${encodeURIComponent(username)}`;
    return module.renderProfile({ profile, day, days, url, config });
  }

  // The kept renderings most asked for, as read from their JSON: a hit returns the same object
  // while the cache keeps the same text, so the page built from it can be reused (http/web.ts).
  const parsed = new LRUCache<string, { kept: string; page: RenderedPage | null }>({ max: PARSED_PAGES });

  return async (username, config, request) => {
    const cache = options.answers;
    // Keys of the executor's answers start with a number: these never meet them.
    const key = `page /@${username}`;
    const kept = cache?.get(key);
    if (kept !== undefined) {
      options.onHit?.();
      const known = parsed.get(key);
      if (known?.kept === kept) return known.page;
      const page = JSON.parse(kept) as RenderedPage | null;
      if (page) page.kept = true;
      parsed.set(key, { kept, page });
      return page;
    }
    const ticket = cache?.ticket();
    const loaders = options.newLoaders();
    // The first page imports the entry (React and the app): loading code, not rendering, so the
    // deadline starts after it (on a busy machine the import alone has taken over 5 s).
    await load();
    const page = await withRenderDeadline(render(username, config, request, loaders), 'the profile page');
    // Kept with the members it read, so that their edits drop it as they drop the page's answers;
    // loaders that note no member keep nothing (a member's edit would not reach it).
    if (cache && ticket !== undefined && loaders.membersRead !== undefined) {
      cache.store(ticket, key, JSON.stringify(page), { rows: loaders.membersRead });
    }
    return page;
  };
}
