import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnswerCache } from '../graphql/answer-cache.js';
import type { Loaders } from '../graphql/context.js';
import { matchesEtag, PUBLIC_ANSWER, strongEtag, UNCACHED_ANSWER } from '../http/answer-headers.js';
import { allowFraming } from '../http/security.js';
import { publicLinkPage } from '../links/link.policies.js';
import { toLink } from '../links/link.service.js';
import { PHOTO_SIZE } from '../photos/photo.pipeline.js';
import { photoPath } from '../photos/photo.service.js';
import type { ProfileService } from '../profiles/profile.service.js';
import type { EmbedTheme } from '../rules/embeds.js';
import { isShownNow } from '../rules/links.js';
import { resolveDay } from '../verses/day.js';
import { Translation, translationNames } from '../verses/translation.js';
import type { VerseService } from '../verses/verse.service.js';
import { missingEmbedHtml, pageEmbedHtml, verseEmbedHtml } from './embed-html.js';
import type { EmbedPage } from './embed-html.js';
import { frameSize, oembedAnswer, pageUsernameOf, sizeLimit } from './oembed.js';

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

export interface EmbedRouteOptions {
  profiles: ProfileService;
  verses: VerseService;
  /** The address people use: frames, links and oEmbed's `url` are on it. */
  publicUrl: string;
  loaders: () => Loaders;
  /** The public answer cache, when this server keeps answers: embeds are kept beside the answers they repeat. */
  answers: AnswerCache | null;
  /** Called when a kept embed is sent. */
  onHit: () => void;
}

type Query = Record<string, string | undefined>;

function themeOf(query: Query): EmbedTheme {
  return query.theme === 'dark' ? 'dark' : 'light';
}

function translationOf(query: Query): Translation {
  return query.translation?.toUpperCase() === Translation.WEB ? Translation.WEB : Translation.KJV;
}

/** What a page's embed and its oEmbed answer read: the page, its photo and the links shown now. */
async function readPage(
  profiles: ProfileService,
  username: string,
  loaders: Loaders,
  publicUrl: string,
): Promise<EmbedPage | null> {
  const profile = await profiles.findPublic(username, loaders);
  if (!profile) return null;
  const [version, records] = await Promise.all([
    loaders.photoVersionByUid.load(profile.uid),
    loaders.linksByUid.load(profile.uid),
  ]);
  const rules = publicLinkPage(profile);
  const now = new Date();
  const links = records.filter((record) => isShownNow(record, rules, now)).map((record) => toLink(record, rules));
  return {
    username: profile.username,
    name: profile.name,
    bio: profile.bio,
    photoUrl: version === null ? null : `${publicUrl}${photoPath(profile.uid, version)}`,
    links: links.map(({ id, title, highlighted }) => ({ id, title, highlighted })),
    pageUrl: `${publicUrl}/@${encodeURIComponent(profile.username)}`,
  };
}

/**
 * `/oembed`, `/embed/@username` and `/embed/verse`: a member's page and the verse of the day for
 * other sites. The frames may be framed anywhere (`allowFraming`); every answer is public and
 * revalidated by its ETag like the other public GETs, sets no cookie and loads no script. Made
 * answers are kept in the public answer cache with the members they read, so a member's edit
 * drops their page's embed on every instance, as it drops the page's GraphQL answers.
 */
export function registerEmbedRoutes(app: FastifyInstance, options: EmbedRouteOptions): void {
  const { profiles, verses, publicUrl } = options;
  const siteOrigin = new URL(publicUrl).origin;

  /** Sends the kept answer for `key`, or makes it; false (nothing sent, nothing kept) when `make` finds nothing. */
  async function sendKept(
    request: FastifyRequest,
    reply: FastifyReply,
    key: string,
    type: string,
    make: (loaders: Loaders) => Promise<string | null>,
  ): Promise<boolean> {
    const cache = options.answers;
    let kept = cache?.lookup(key);
    if (kept !== undefined) {
      options.onHit();
    } else {
      const ticket = cache?.ticket();
      const loaders = options.loaders();
      const body = await make(loaders);
      if (body === null) return false;
      kept = { body, etag: strongEtag(body, type) };
      // Loaders that note no member keep nothing: a member's edit would not reach the answer.
      if (cache && ticket !== undefined && loaders.membersRead !== undefined) {
        cache.store(ticket, key, body, { etag: kept.etag, rows: loaders.membersRead });
      }
    }
    const etag = kept.etag ?? strongEtag(kept.body, type);
    void reply.header('cache-control', PUBLIC_ANSWER).header('etag', etag).type(type);
    if (matchesEtag(request.headers['if-none-match'], etag)) void reply.code(304).send();
    else void reply.send(kept.body);
    return true;
  }

  app.get('/oembed', async (request, reply) => {
    const query = request.query as Query;
    // Any page may read the answer: that is what oEmbed is for (consumers fetch it from their own pages too).
    if (!reply.hasHeader('access-control-allow-origin')) void reply.header('access-control-allow-origin', '*');
    const refuse = (status: number, message: string) =>
      reply.code(status).header('cache-control', UNCACHED_ANSWER).type(JSON_TYPE).send({ error: message });
    if (query.format !== undefined && query.format !== 'json') {
      return refuse(501, 'Only format=json is offered.');
    }
    if (!query.url) return refuse(400, 'The url parameter is required.');
    const username = pageUsernameOf(query.url, publicUrl);
    if (username === undefined) return refuse(404, 'That address is not a page on this site.');
    // Kept by the size drawn, not the limits asked: a few hundred sizes, not every number a consumer sends.
    const size = frameSize(sizeLimit(query.maxwidth), sizeLimit(query.maxheight));
    const key = `oembed /@${username} ${size.width}x${size.height}`;
    const found = await sendKept(request, reply, key, JSON_TYPE, async (loaders) => {
      const page = await readPage(profiles, username, loaders, publicUrl);
      if (!page) return null;
      return JSON.stringify(oembedAnswer({ siteUrl: publicUrl, page, photoSize: PHOTO_SIZE, size }));
    });
    return found ? reply : refuse(404, 'There is no page to show at that address.');
  });

  app.get('/embed/verse', async (request, reply) => {
    const query = request.query as Query;
    const theme = themeOf(query);
    const translation = translationOf(query);
    allowFraming(reply, siteOrigin);
    // The cache turns with the minute, so the day's turn reaches a kept verse too.
    await sendKept(request, reply, `embed verse ${translation} ${theme}`, HTML, async () => {
      const day = resolveDay({}, new Date());
      const verse = await verses.forDay(day, translation);
      const dayQuery = translation === Translation.KJV ? '' : `?translation=${translation}`;
      return verseEmbedHtml(
        {
          text: verse.text,
          ref: verse.ref,
          translationName: translationNames[verse.translation],
          dayUrl: `${publicUrl}/verse/${day.date}${dayQuery}`,
        },
        theme,
      );
    });
    return reply;
  });

  app.get<{ Params: { handle: string } }>('/embed/:handle', async (request, reply) => {
    const { handle } = request.params;
    if (!handle.startsWith('@') || handle.length < 2) {
      reply.callNotFound();
      return reply;
    }
    const username = handle.slice(1);
    const theme = themeOf(request.query as Query);
    allowFraming(reply, siteOrigin);
    const found = await sendKept(request, reply, `embed /@${username} ${theme}`, HTML, async (loaders) => {
      const page = await readPage(profiles, username, loaders, publicUrl);
      return page && pageEmbedHtml(page, theme);
    });
    return found ? reply : reply.code(404).header('cache-control', 'no-cache').type(HTML).send(missingEmbedHtml(theme));
  });
}
