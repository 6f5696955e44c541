// The libraries the build bundles (scripts/vendor-bundles.mjs): each bundle gives its importers what
// the package itself gives them, and server/src/vendor-bundles.ts's manifest names both files.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as ClassValidator from 'class-validator';
import type Fastify from 'fastify';
import type * as Semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(path.join(root, 'server/package.json'));
let out = '';
let manifest: Record<string, { import: string; require: string }> = {};

beforeAll(() => {
  // Inside the repository, as server/dist/vendor is: the bundles' own imports resolve from there.
  out = mkdtempSync(path.join(root, 'node_modules/.vendor-bundles-'));
  const run = spawnSync(process.execPath, [path.join(root, 'scripts/vendor-bundles.mjs'), out], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as typeof manifest;
}, 120_000);

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

describe('the vendor bundles', () => {
  it('cover the libraries a start would otherwise load file by file', () => {
    expect(Object.keys(manifest)).toEqual(
      expect.arrayContaining(['typeorm', 'class-validator', 'type-graphql', 'zod']),
    );
  });

  it.each(['class-validator', 'semver', 'rate-limiter-flexible', '@supabase/auth-js'])(
    'give an ES importer of %s the names the package exports',
    async (name) => {
      const files = manifest[name];
      expect(files?.import).toMatch(/\.mjs$/);
      const bundled = (await import(pathToFileURL(path.join(out, files?.import ?? '')).href)) as Record<
        string,
        unknown
      >;
      const original = require(name) as Record<string, unknown>;
      const names = (exports: Record<string, unknown>) => Object.keys(exports).filter((key) => key !== 'default');
      expect(names(bundled).sort()).toEqual(names(original).sort());
      expect(typeof bundled.default).toBe('object');
    },
  );

  it('give a CommonJS importer the bundle itself, working as the package does', () => {
    const semver = require(path.join(out, manifest.semver?.require ?? '')) as typeof Semver;
    expect(semver.satisfies('1.2.3', '^1.0.0')).toBe(true);
    expect(semver.satisfies('2.0.0', '^1.0.0')).toBe(false);
  });

  it('keep class-validator checking as before', async () => {
    const { isEmail, isMobilePhone, isPhoneNumber } = (await import(
      pathToFileURL(path.join(out, manifest['class-validator']?.import ?? '')).href
    )) as typeof ClassValidator;
    expect(isEmail('someone@example.com')).toBe(true);
    expect(isEmail('not-an-email')).toBe(false);
    expect(isMobilePhone('+447700900123', 'en-GB')).toBe(true);
    expect(isPhoneNumber('+44 20 7946 0958')).toBe(true);
    expect(isPhoneNumber('+44 12')).toBe(false);
  });

  it('give every entry of a bundle of several its own package, sharing what they load', () => {
    for (const name of ['fast-json-stringify', 'fast-json-stringify/lib/serializer', '@fastify/ajv-compiler']) {
      expect(manifest[name]?.require, name).toBeDefined();
    }
    const load = (name: string) => require(path.join(out, manifest[name]?.require ?? '')) as unknown;
    expect(Object.keys(load('@fastify/ajv-compiler') as object).sort()).toEqual(
      Object.keys(require('@fastify/ajv-compiler') as object).sort(),
    );
    // One bundle: loading an entry again, or another entry, runs nothing twice.
    expect(load('fast-json-stringify')).toBe(load('fast-json-stringify'));
    const stringify = load('fast-json-stringify') as (schema: object) => (value: unknown) => string;
    const write = stringify({ type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } });
    expect(write({ name: 'Ada', age: 36, secret: 'x' })).toBe('{"name":"Ada","age":36}');
  });

  it('give Fastify serving, validating and serialising as the package does', async () => {
    const files = manifest.fastify;
    expect(files?.import).toMatch(/\.mjs$/);
    const bundled = (await import(pathToFileURL(path.join(out, files?.import ?? '')).href)) as Record<string, unknown>;
    const names = (exports: object) => Object.keys(exports).filter((key) => key !== 'default');
    expect(names(bundled).sort()).toEqual(names(require('fastify') as object).sort());
    // Here (no resolve hook) the bundle reaches the schema compilers as packages; the server, as bundles.
    const fastify = bundled.default as typeof Fastify;
    const app = fastify();
    app.post(
      '/echo',
      {
        schema: {
          body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
          response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      (request) => ({ ...(request.body as object), extra: true }),
    );
    const ok = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'Ada' } });
    expect([ok.statusCode, ok.body]).toEqual([200, '{"name":"Ada"}']);
    const refused = await app.inject({ method: 'POST', url: '/echo', payload: { name: '' } });
    expect(refused.statusCode).toBe(400);
    await app.close();
  });

  it('are ASCII alone (V8 keeps a text with other characters at two bytes each), meaning the same', async () => {
    for (const files of Object.values(manifest)) {
      for (const file of new Set([files.import, files.require])) {
        const text = readFileSync(path.join(out, file), 'utf8');
        expect(Buffer.byteLength(text), file).toBe(text.length);
      }
    }
    // validator.js's alphabets are regular expressions written in their own letters.
    const { isAlpha } = (await import(
      pathToFileURL(path.join(out, manifest['class-validator']?.import ?? '')).href
    )) as typeof ClassValidator;
    expect(isAlpha('ÇĞİıÖŞÜ', 'tr-TR')).toBe(true);
    expect(isAlpha('Москва', 'ru-RU')).toBe(true);
    expect(isAlpha('Moskva', 'ru-RU')).toBe(false);
  });
});
