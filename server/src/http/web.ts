import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from './html.js';

/** Paths the web app never owns: unknown ones under these stay JSON 404s. */
const API_PREFIXES = ['/graphql', '/auth/', '/webhooks/', '/healthz', '/readyz'];

/** A public profile page's address: `/@username`, with or without a trailing slash. */
const PROFILE_PATH = /^\/@([^/]+)\/?$/;

/** What a profile page's `<head>` needs about its member. */
export interface PageProfile {
  username: string;
  name: string;
}

export interface WebAppOptions {
  /** The production build of the web app (`index.html` and `assets/`). */
  distDir: string;
  /** The address people use, for `og:url`. */
  publicUrl: string;
  /** The tag manager container the browser may load after consent; none when undefined. */
  gtmContainerId: string | undefined;
  /** The profile visitors may see at `/@username`, or null when there is none for them. */
  findProfile: (username: string) => Promise<PageProfile | null>;
}

/** The settings the browser reads at start from `#lampstand-config` (see web/src/app/config.ts). */
interface BrowserConfig {
  gtmContainerId: string | null;
}

/** The words a profile page's title and description use; the web app's ProfilePage says the same. */
export function profileMeta(profile: PageProfile): { title: string; description: string } {
  return {
    title: `${profile.name} (@${profile.username}) · Lampstand`,
    description: `${profile.name}’s page on Lampstand, with a Bible verse for every day.`,
  };
}

/**
 * `index.html` with the browser's settings, and for a profile page its title, description and
 * Open Graph tags, because crawlers and link previews read the HTML without running the app.
 */
function renderPage(template: string, config: BrowserConfig, profile?: { url: string } & PageProfile): string {
  // `<` never appears in the JSON, so no value can close the script element.
  const configTag = `<script id="lampstand-config" type="application/json">${JSON.stringify(config).replace(/</g, '\\u003c')}</script>`;
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
 * `/@username` also gets the member's meta tags, or HTTP 404 when visitors may not see the profile.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const { distDir } = options;
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ distDir }, 'no web build found; run `npm run build` to serve the web app');
    return;
  }
  const template = readFileSync(indexFile, 'utf8');
  const config: BrowserConfig = { gtmContainerId: options.gtmContainerId ?? null };
  const plainPage = renderPage(template, config);

  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    setHeaders: (reply, filePath) => {
      const immutable = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
      reply.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // Usernames may contain dots, so `/@john.doe` is a page although it looks like a file name.
    const username = profileUsername(pathname);
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((prefix) => pathname.startsWith(prefix)) &&
      (username !== undefined || !path.extname(pathname));
    if (!wantsPage) {
      return reply.code(404).send({ error: 'Not Found', message: `No route for ${request.method} ${pathname}` });
    }
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8');
    if (username === undefined) return reply.send(plainPage);
    const profile = await options.findProfile(username);
    if (!profile) return reply.code(404).send(plainPage);
    const url = `${options.publicUrl}/@${encodeURIComponent(profile.username)}`;
    return reply.send(renderPage(template, config, { ...profile, url }));
  });
}
