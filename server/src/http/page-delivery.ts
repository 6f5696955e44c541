import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PageProfile, RenderedPage } from './web.js';

/** What a kept page is sent in, best first; anything else gets the page as it is. */
type Encoding = 'br' | 'gzip';
const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];

/** The pages whose compressed copies are kept: the home page of a day and a translation or two. */
const KEPT_PAGES = 4;

/** The encoding to send, from `Accept-Encoding`: br, else gzip, never one the browser refused (q=0). */
export function pageEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const refused = parameters.some((parameter) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(parameter));
    if (!refused) accepted.add(name.trim());
  }
  return ENCODINGS.find((encoding) => accepted.has(encoding));
}

/**
 * Sends pages the server keeps (the rendered home page) compressed when the browser takes it,
 * compressing each page once. Lighthouse found `/` sent as 6.7 KB of plain HTML, where brotli
 * makes a third of that: fewer round trips before a slow phone can paint (quality.md P8).
 */
export function keptPageSender(): (request: FastifyRequest, reply: FastifyReply, page: string) => FastifyReply {
  const kept = new Map<string, Map<Encoding, Buffer>>();
  return (request, reply, page) => {
    void reply.header('Vary', 'Accept-Encoding');
    const encoding = pageEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(page);
    let copies = kept.get(page);
    if (!copies) {
      copies = new Map();
      // The oldest page goes first: a new day's rendering replaces yesterday's.
      if (kept.size >= KEPT_PAGES) kept.delete(kept.keys().next().value ?? '');
      kept.set(page, copies);
    }
    let body = copies.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotliCompressSync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
          : gzipSync(page, { level: 9 });
      copies.set(encoding, body);
    }
    return reply.header('Content-Encoding', encoding).send(body);
  };
}

const STYLESHEET_LINK = /<link rel="stylesheet"(?: crossorigin)? href="\/assets\/([\w.-]+\.css)">/g;

/**
 * `html` with the build's stylesheets written into it (`<style>`, which the CSP allows) instead of
 * linked: the rendered home page can paint as soon as it arrives, not after a second request
 * (Lighthouse counted the 7 KB stylesheet as render-blocking, ~400 ms on its simulated phone).
 * A stylesheet that cannot be read stays linked.
 */
export function inlineStylesheets(html: string, distDir: string): string {
  return html.replace(STYLESHEET_LINK, (link, file: string) => {
    try {
      const css = readFileSync(path.join(distDir, 'assets', file), 'utf8');
      // `</style` inside the CSS would end the element early; the build never writes it, but guard.
      return css.includes('</style') ? link : `<style>${css}</style>`;
    } catch {
      return link;
    }
  });
}

/** What a member's rendered document is made from (http/web.ts `renderPage` and `withRendering`). */
export interface DocumentParts {
  profile: PageProfile;
  /** The share card's address, which names the day. */
  image: string | undefined;
  rendered: RenderedPage;
}

/** A document as sent, with what it said of its member and the day. */
interface KeptDocument {
  username: string;
  name: string;
  bio: string;
  image: string | undefined;
  body: Buffer;
}

/**
 * Members' rendered documents as sent, for kept renderings. A kept rendering is one object while
 * the answer cache keeps its text (`kept`, app/profile-page.ts), and with the same member's name,
 * bio and username and the same day's card it makes the same document: that is built and encoded
 * once, not at every visit (P11: rebuilding it was most of a kept page read's own CPU). A fresh
 * rendering's document is built and sent as before; keeping those too doubled a fresh read's
 * garbage collection. Each document lives as long as its rendering object.
 */
export class RenderedDocuments {
  private readonly kept = new WeakMap<RenderedPage, KeptDocument>();

  /** The document of `parts`, from `build` unless the same parts made it before. */
  document({ profile, image, rendered }: DocumentParts, build: () => string): string | Buffer {
    if (!rendered.kept) return build();
    const known = this.kept.get(rendered);
    // Everything the document says of the member: the URLs it names derive from the username.
    if (
      known?.username === profile.username &&
      known.image === image &&
      known.name === profile.name &&
      known.bio === profile.bio
    ) {
      return known.body;
    }
    const body = Buffer.from(build());
    this.kept.set(rendered, { username: profile.username, name: profile.name, bio: profile.bio, image, body });
    return body;
  }
}

/** `transform` remembering its last answer: for an input that is nearly always the same string. */
export function lastOf(transform: (input: string) => string): (input: string) => string {
  let last: { input: string; output: string } | undefined;
  return (input) => {
    if (last?.input !== input) last = { input, output: transform(input) };
    return last.output;
  };
}
