import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import {
  inlineStylesheets,
  keptPageSender,
  lastOf,
  pageEncoding,
  RenderedDocuments,
} from '../../../server/src/http/page-delivery.js';

describe('pageEncoding', () => {
  it('prefers br, then gzip, and never sends what the browser refused', () => {
    expect(pageEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pageEncoding('gzip, deflate')).toBe('gzip');
    expect(pageEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pageEncoding('br;q=0.0, gzip; q=0')).toBeUndefined();
    expect(pageEncoding('identity')).toBeUndefined();
    expect(pageEncoding(undefined)).toBeUndefined();
  });
});

describe('keptPageSender', () => {
  const page = `<!doctype html><html><body>${'<p>In the beginning was the Word.</p>'.repeat(200)}</body></html>`;
  const app = Fastify();
  const send = keptPageSender();
  app.get('/', (request, reply) => send(request, reply.type('text/html; charset=utf-8'), page));
  afterAll(() => app.close());

  it('sends the page compressed as the browser takes it, and as it is to one that takes neither', async () => {
    const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(page);
    expect(br.rawPayload.length).toBeLessThan(page.length / 4);

    const gzip = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(page);

    const plain = await app.inject({ url: '/', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('inlineStylesheets', () => {
  const distDir = mkdtempSync(path.join(tmpdir(), 'lampstand-inline-'));
  mkdirSync(path.join(distDir, 'assets'));
  writeFileSync(path.join(distDir, 'assets', 'styles-abc.css'), 'body{color:#1f2a44}');
  afterAll(() => {
    rmSync(distDir, { recursive: true, force: true });
  });

  it("writes the build's stylesheet into the page and leaves one it cannot read linked", () => {
    const html = [
      '<head>',
      '<link rel="stylesheet" crossorigin href="/assets/styles-abc.css">',
      '<link rel="stylesheet" crossorigin href="/assets/missing-def.css">',
      '</head>',
    ].join('');
    expect(inlineStylesheets(html, distDir)).toBe(
      '<head><style>body{color:#1f2a44}</style><link rel="stylesheet" crossorigin href="/assets/missing-def.css"></head>',
    );
  });
});

describe('RenderedDocuments', () => {
  const profile = { uid: 'u1', username: 'grace', name: 'Grace', bio: 'Hello.' };
  const rendered = { html: '<main>Grace</main>', state: { day: '2026-11-28' }, kept: true };
  const image = 'https://lampstand.example/share/grace/card.png?day=2026-11-28';
  const text = (body: string | Buffer) => (typeof body === 'string' ? body : body.toString('utf8'));

  it('builds the document of a kept rendering once for the same member and day, and again when either changes', () => {
    const built: string[] = [];
    const build = (made: string) => () => {
      built.push(made);
      return made;
    };
    const documents = new RenderedDocuments();
    const first = documents.document({ profile, image, rendered }, build('first ’'));
    expect(text(first)).toBe('first ’');
    expect(documents.document({ profile: { ...profile }, image, rendered }, build('again'))).toBe(first);
    const changes = [
      { profile: { ...profile, name: 'Grace H.' }, image, rendered },
      { profile: { ...profile, bio: 'Bye.' }, image, rendered },
      { profile: { ...profile, username: 'grace.h' }, image, rendered },
      { profile, image: image.replace('28', '29'), rendered },
      // Another kept rendering of the page (the page changed, and was kept again).
      { profile, image, rendered: { ...rendered } },
    ];
    for (const [index, parts] of changes.entries()) {
      const fresh = new RenderedDocuments();
      fresh.document({ profile, image, rendered }, build('base'));
      expect(text(fresh.document(parts, build(`change ${index}`)))).toBe(`change ${index}`);
    }
    expect(built.filter((made) => made !== 'base')).toEqual([
      'first ’',
      ...changes.map((_parts, index) => `change ${index}`),
    ]);
  });

  it('builds the document of a fresh rendering every time', () => {
    const documents = new RenderedDocuments();
    const fresh = { ...rendered, kept: undefined };
    expect(documents.document({ profile, image, rendered: fresh }, () => 'one')).toBe('one');
    expect(documents.document({ profile, image, rendered: fresh }, () => 'two')).toBe('two');
  });
});

describe('lastOf', () => {
  it('answers as the transform does, running it again only for a new input', () => {
    let runs = 0;
    const upper = lastOf((input) => {
      runs += 1;
      return input.toUpperCase();
    });
    expect([upper('a'), upper('a'), upper('b'), upper('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(runs).toBe(3);
  });
});
