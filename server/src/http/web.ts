import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { escapeHtml } from './html.js';
import { APP_PAGES } from './pages.js';
import { allowingVerseDayScript, VERSE_DAY_SCRIPT } from './verse-day-script.js';
import { countableVisitor } from './visits.js';
import { inlineStylesheets, keptPageSender, lastOf, RenderedDocuments } from './page-delivery.js';
import type { Visitor } from './visits.js';

/** Paths the web app never owns: unknown ones under these stay JSON 404s. */
const API_PREFIXES = [
  '/graphql',
  '/auth/',
  '/webhooks/',
  '/healthz',
  '/readyz',
  '/api/',
  '/share/',
  '/p/',
  '/l/',
  '/verse-mail/',
];

/** A public profile page's address: `/@username`, with or without a trailing slash. */
const PROFILE_PATH = /^\/@([^/]+)\/?$/;

/** A single path segment that could be a username typed without its `@` (`/grace.hopper`). */
const BARE_HANDLE_PATH = /^\/([a-z0-9][a-z0-9_.]{2,29})\/?$/i;

/** Files crawlers and browsers ask for by name: never a member's page, whatever username exists. */
const FILE_NAME_PATH = /\.(?:txt|xml|ico|json|webmanifest|js|css|map|png|jpe?g|gif|svg|webp|html?)\/?$/i;

const APP_PAGE_SET: ReadonlySet<string> = new Set(APP_PAGES);

/** What a profile page's `<head>` needs about its member. */
export interface PageProfile {
  uid: string;
  username: string;
  name: string;
  bio: string;
}

export interface WebAppOptions {
  /** The production build of the web app (`index.html`, `profile.html` and `assets/`). */
  distDir: string;
  /** The address people use, for `og:url`. */
  publicUrl: string;
  /** The tag manager container the browser may load after consent; none when undefined. */
  gtmContainerId: string | undefined;
  /** Whether Plus is on sale (Stripe is configured): without it the app offers no upgrade. */
  billing: boolean;
  /** Where members ask for help (`SUPPORT_EMAIL`); none when undefined. */
  supportEmail?: string;
  /** The profile visitors may see at `/@username`, or null when there is none for them. */
  findProfile: (username: string) => Promise<PageProfile | null>;
  /** Counts a person's visit to a profile page (bots, prefetches and HEAD requests are not visits). */
  countView?: (profile: PageProfile, visitor: Visitor) => Promise<void>;
  /** The address of a profile page's Open Graph / Twitter card image (1200×630 PNG); none when undefined. */
  shareImageUrl?: (profile: PageProfile) => string;
  /** The oEmbed address of a profile page (by its address), named in its `<head>` for sites that embed it; none when undefined. */
  oembedUrl?: (pageUrl: string) => string;
  /** The address of today's verse-of-the-day card, for the home page's Open Graph / Twitter image. */
  verseImageUrl?: () => string;
  /**
   * The home page's content, rendered by the web app's own components, which the browser then
   * takes over; `/` is the app shell alone without it, or when it fails.
   */
  renderHome?: (config: BrowserConfig) => Promise<RenderedHome>;
  /**
   * A member's page rendered by the web app's own components, whose interactive pieces the browser
   * wakes (web/src/public-page.tsx); null when visitors may not see it. Without it, or when it
   * fails, `profile.html` goes out empty and the browser renders the page.
   */
  renderProfile?: (
    username: string,
    config: BrowserConfig,
    request: { log: FastifyBaseLogger; clientIp: string },
  ) => Promise<RenderedPage | null>;
}

/** The web app's rendering of a page: the markup inside `#root`, and the state the browser reads beside it. */
export interface RenderedPage {
  html: string;
  /**
   * Sent as JSON: `#lampstand-state` for the home page (see web/src/app/prerendered.ts),
   * `#lampstand-page` for a member's (web/src/features/profile/rendered-page.ts).
   */
  state: unknown;
  /**
   * True for a kept rendering, which is the same object at each kept read (app/profile-page.ts):
   * the document made from it may be sent again (http/page-delivery.ts `RenderedDocuments`).
   */
  kept?: boolean;
}

export type RenderedHome = RenderedPage;

/** A 1200×630 card as Open Graph and Twitter tags. */
function imageTags(image: string, alt: string): string[] {
  return [
    `<meta property="og:image" content="${escapeHtml(image)}" />`,
    `<meta property="og:image:width" content="1200" />`,
    `<meta property="og:image:height" content="630" />`,
    `<meta property="og:image:alt" content="${escapeHtml(alt)}" />`,
    `<meta name="twitter:card" content="summary_large_image" />`,
    `<meta name="twitter:image" content="${escapeHtml(image)}" />`,
  ];
}

/** The settings the browser reads at start from `#lampstand-config` (see web/src/lib/config.ts). */
export interface BrowserConfig {
  gtmContainerId: string | null;
  billing: boolean;
  supportEmail: string | null;
}

/** The words a profile page's title and description use; the web app's ProfilePage says the same. */
export function profileMeta(profile: PageProfile): { title: string; description: string } {
  return {
    title: `${profile.name} (@${profile.username}) · Lampstand`,
    description: profile.bio || `${profile.name}’s page on Lampstand, with a Bible verse for every day.`,
  };
}

/** A value as JSON in a script element the strict CSP allows (not run: `type="application/json"`). */
function jsonScript(id: string, value: unknown): string {
  // `<` never appears in the JSON, so no value can close the script element.
  return `<script id="${id}" type="application/json">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;
}

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The page with the web app's rendering in `#root` and its state beside the settings; unchanged
 * without a `#root` to fill. `afterState` is markup the parser meets right after the state.
 */
function withRendering(page: string, rendered: RenderedPage, stateId = 'lampstand-state', afterState = ''): string {
  if (!page.includes(EMPTY_ROOT)) return page;
  return page
    .replace(EMPTY_ROOT, () => `<div id="root">${rendered.html}</div>`)
    .replace('</head>', () => `    ${jsonScript(stateId, rendered.state)}${afterState}\n  </head>`);
}

/**
 * `index.html` with the browser's settings, and for a profile page its title, description and
 * Open Graph tags, because crawlers and link previews read the HTML without running the app.
 */
function renderPage(
  template: string,
  config: BrowserConfig,
  profile?: { url: string; image?: string; oembed?: string } & PageProfile,
): string {
  const configTag = jsonScript('lampstand-config', config);
  // Replacements are functions throughout: a replacement string would read `$&`, `$\`` and the
  // like in a member's name as patterns.
  if (!profile) return template.replace('</head>', () => `    ${configTag}\n  </head>`);
  const { title, description } = profileMeta(profile);
  const head = [
    `<meta property="og:type" content="profile" />`,
    `<meta property="og:site_name" content="Lampstand" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    `<meta property="og:url" content="${escapeHtml(profile.url)}" />`,
    `<meta property="profile:username" content="${escapeHtml(profile.username)}" />`,
    `<link rel="canonical" href="${escapeHtml(profile.url)}" />`,
    ...(profile.image ? imageTags(profile.image, `${profile.name}’s page with today’s verse`) : []),
    ...(profile.oembed
      ? [
          `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(profile.oembed)}" title="${escapeHtml(title)}" />`,
        ]
      : []),
    configTag,
  ];
  return template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(
      /<meta name="description" content="[^"]*"\s*\/?>/,
      () => `<meta name="description" content="${escapeHtml(description)}" />`,
    )
    .replace('</head>', () => `    ${head.join('\n    ')}\n  </head>`);
}

/** The username in a `/@username` path (Fastify has already refused undecodable paths with a 400). */
function profileUsername(pathname: string): string | undefined {
  const match = PROFILE_PATH.exec(pathname);
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/**
 * Serves the production build of the web app: hashed assets cached for a year, pages never
 * cached. Every page path gets `index.html` for the client router, with the browser's settings;
 * `/@username` gets `profile.html` with the member's meta tags instead, or `index.html` with HTTP
 * 404 when visitors may not see the profile.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const { distDir } = options;
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'no web build found; run `npm run build` to serve the web app');
    return;
  }
  const template = readFileSync(indexFile, 'utf8');
  if (!options.renderHome) {
    app.log.warn({ distDir }, 'no server rendering of the home page; `npm run build` makes it (web/dist-ssr)');
  }
  // A public page's own document: the page with React alone, without the app's router and GraphQL
  // client (web/src/public-page.tsx). A build without it serves the app there too.
  const profileFile = path.join(distDir, 'profile.html');
  const profileTemplate = existsSync(profileFile) ? readFileSync(profileFile, 'utf8') : template;
  // Only the page's own document knows how to wake a rendering; the app's would render afresh.
  const profileEntry = existsSync(profileFile) ? profileFile : undefined;
  const config: BrowserConfig = {
    gtmContainerId: options.gtmContainerId ?? null,
    billing: options.billing,
    supportEmail: options.supportEmail ?? null,
  };
  const plainPage = renderPage(template, config);
  // The rendered home page's own document, which fetches the app after its first paint
  // (web/src/home.tsx). A build without it takes the page over from the app's.
  const homeFile = path.join(distDir, 'home.html');
  const homePage = existsSync(homeFile)
    ? renderPage(inlineStylesheets(readFileSync(homeFile, 'utf8'), distDir), config)
    : plainPage;
  const sendKeptPage = keptPageSender();
  const pages = new RenderedDocuments();
  const pagePolicy = lastOf(allowingVerseDayScript);

  // The build writes `.br` and `.gz` copies (web/vite.config.ts); the one the browser accepts is sent.
  // The folder's own files get a route each; the hashed assets (two hundred files with their copies)
  // share one: a route per file cost a start ~6% of its CPU in globbing and building the router
  // (quality.md P9), and a request for a missing asset still reaches the 404 below.
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    globIgnore: ['assets/**', '**/*.br', '**/*.gz'],
    preCompressed: true,
    setHeaders: (reply) => {
      reply.header('Cache-Control', 'no-cache');
    },
  });
  await app.register(fastifyStatic, {
    root: path.join(distDir, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    index: false,
    preCompressed: true,
    setHeaders: (reply) => {
      reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });

  /** `/`: its content rendered in its own document, or else the app shell; today's card for link previews. */
  async function home(log: FastifyBaseLogger): Promise<string> {
    // The home page shows the verse of the day: its link previews show that day's card.
    const tags = options.verseImageUrl ? imageTags(options.verseImageUrl(), 'Today’s verse on a card') : [];
    const withTags = (page: string) =>
      tags.length > 0 ? page.replace('</head>', () => `    ${tags.join('\n    ')}\n  </head>`) : page;
    if (!options.renderHome) return withTags(plainPage);
    try {
      return withRendering(withTags(homePage), await options.renderHome(config));
    } catch (error) {
      log.error({ err: error }, 'the home page could not be rendered; the app shell was sent');
      return withTags(plainPage);
    }
  }

  /** A member's page rendered; undefined (the browser renders it) without a rendering or when it fails. */
  async function renderedProfile(username: string, request: FastifyRequest): Promise<RenderedPage | null | undefined> {
    if (!options.renderProfile || profileEntry === undefined) return undefined;
    try {
      return await options.renderProfile(username, config, { log: request.log, clientIp: request.ip });
    } catch (error) {
      request.log.error({ err: error }, 'a profile page could not be rendered; the browser renders it');
      return undefined;
    }
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // Usernames may contain dots, so `/@john.doe` (and `/john.doe`, for it) is a page although it
    // looks like a file name.
    const username = profileUsername(pathname);
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((prefix) => pathname.startsWith(prefix)) &&
      (username !== undefined ||
        !path.extname(pathname) ||
        (BARE_HANDLE_PATH.test(pathname) && !FILE_NAME_PATH.test(pathname)));
    if (!wantsPage) {
      return reply.code(404).send({ error: 'Not Found', message: `No route for ${request.method} ${pathname}` });
    }
    const query = request.url.slice(pathname.length);
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
    if (username === undefined) {
      if (pathname === '/') return sendKeptPage(request, reply, await home(request.log));
      if (APP_PAGE_SET.has(pathname.replace(/(.)\/$/, '$1'))) return reply.send(plainPage);
      // `/grace.hopper` is someone looking for `/@grace.hopper`: send them there when it exists.
      const bare = BARE_HANDLE_PATH.exec(pathname)?.[1];
      const found = bare === undefined ? null : await options.findProfile(bare);
      if (found) return reply.redirect(`/@${encodeURIComponent(found.username)}${query}`, 301);
      return reply.code(404).send(plainPage);
    }
    const profile = await options.findProfile(username);
    if (!profile) return reply.code(404).send(plainPage);
    // One address per page: `/@Grace.Hopper` moves to the username as it is stored (lower case).
    if (username !== profile.username) {
      return reply.redirect(`/@${encodeURIComponent(profile.username)}${query}`, 301);
    }
    const url = `${options.publicUrl}/@${encodeURIComponent(profile.username)}`;
    const visitor = options.countView ? countableVisitor(request) : null;
    if (options.countView && visitor) {
      // A count that cannot be written must not cost the visitor the page.
      await options.countView(profile, visitor).catch((error: unknown) => {
        request.log.warn({ err: error }, 'a page view could not be counted');
      });
    }
    const image = options.shareImageUrl?.(profile);
    const page = () =>
      renderPage(profileTemplate, config, { ...profile, url, image, oembed: options.oembedUrl?.(url) });
    const rendered = await renderedProfile(profile.username, request);
    // Hidden between the two reads: the answer it would have had a moment later.
    if (rendered === null) return reply.code(404).send(plainPage);
    if (!rendered) return reply.send(page());
    // The verse of the visitor's own day is picked before the first frame (verse-day-script.ts).
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') void reply.header('content-security-policy', pagePolicy(policy));
    return reply.send(
      pages.document({ profile, image, rendered }, () =>
        withRendering(page(), rendered, 'lampstand-page', `<script>${VERSE_DAY_SCRIPT}</script>`),
      ),
    );
  });
}
